@testable import Plumb
import PropertyTesting
import Testing

/// The UIKit height rules, with numbers worked out by hand from the font metrics
/// (Noto Sans: hhea 1069 / −293 / 0 at 1000 upem → 20.43 pt per line at 15 pt).
@Suite struct HeightModelTests {
    let threeParagraphs = "alpha\nbeta\ngamma"

    @Test func oneLineIsTheFontLineHeightPixelCeiled() {
        let m = engine.measure("Hello", style: style15(), width: 300)
        #expect(m.lineCount == 1)
        #expect(m.height == 20.5)  // ceil(20.43 × 2) / 2
        let at3 = engine.measure("Hello", style: style15(), width: 300, scale: 3)
        #expect(at3.height == 62.0 / 3.0)  // ceil(61.29) / 3
        let exact = engine.layout("Hello", style: style15(), width: 300)
        #expect(abs(exact.exactHeight - notoSansLine15) < 1e-9)
    }

    @Test func nLinesHaveNMinusOneLineSpacingGaps() {
        var s = style15()
        s.lineSpacing = 8
        let m = engine.measure(threeParagraphs, style: s, width: 300)
        #expect(m.lineCount == 3)
        #expect(m.height == 77.5)  // 3 × 20.43 + 2 × 8 = 77.29
        let single = engine.measure("alpha", style: s, width: 300)
        #expect(single.height == 20.5)  // one line: no gap at all
    }

    @Test func paragraphSpacingOnlyBetweenParagraphs() {
        var s = style15()
        s.lineSpacing = 8
        s.paragraphSpacing = 5
        s.paragraphSpacingBefore = 3
        let l = engine.layout(threeParagraphs, style: s, width: 300)
        // 3 × 20.43 + 2 × 8 + 2 × 5 + 2 × 3 = 93.29
        #expect(abs(l.exactHeight - 93.29) < 1e-9)
        #expect(l.size.height == 93.5)
        #expect(abs(l.lines[1].rect.y - (20.43 + 16)) < 1e-9)
        #expect(l.lines[2].gapAfter == 0)
    }

    @Test func wrappedLinesInOneParagraphGetOnlyLineSpacing() {
        var s = style15()
        s.lineSpacing = 4
        s.paragraphSpacing = 100
        let l = engine.layout("aaaa bbbb cccc", style: s, width: 40)
        #expect(l.lineCount == 3)
        #expect(lineTexts(l) == ["aaaa ", "bbbb ", "cccc"])
        #expect(abs(l.exactHeight - (3 * 20.43 + 2 * 4)) < 1e-9)
    }

    @Test func minimumMaximumAndMultiple() {
        var s = style15()
        s.lineSpacing = 8
        s.minimumLineHeight = 30
        #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 106)  // 90 + 16
        s.minimumLineHeight = 0
        s.maximumLineHeight = 10
        #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 46)  // 30 + 16
        s.maximumLineHeight = 0
        s.lineHeightMultiple = 1.5
        // 3 × 30.645 + 16 = 107.935
        #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 108)
        s.minimumLineHeight = 40  // the multiple comes first, then the clamp
        #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 136)
    }

    @Test func lineHeightIsTheTallestFontOnTheLine() {
        let latin = engine.layout("ab", style: style15(), width: 300)
        let mixed = engine.layout("ab中", style: style15(), width: 300)
        #expect(abs(latin.lines[0].rect.height - notoSansLine15) < 1e-9)
        #expect(abs(mixed.lines[0].rect.height - notoCJKLine15) < 1e-9)
        // Only the line that holds CJK gets the CJK height.
        let two = engine.layout("ab\n中", style: style15(), width: 300)
        #expect(abs(two.exactHeight - (notoSansLine15 + notoCJKLine15)) < 1e-9)
    }

    @Test func fontLeadingAddsTheLineGap() {
        // No installed font has a non-zero hhea line gap, so the rule is checked on the model
        // with metrics ascender 8, descender −2, gap 1.
        let text = monospaceText("aa")
        let line = LineBreaker(text: text, maxWidth: 100, policy: .words, tabInterval: 28, lineLimit: .max).lines()[0]
        let with = LineHeightModel(style: sanitized())
        let without = LineHeightModel(style: sanitized { $0.options.remove(.usesFontLeading) })
        #expect(with.natural(of: line, in: text).height == 11)
        #expect(without.natural(of: line, in: text).height == 10)
        let laidOut = LayoutAssembler.assemble(text, style: sanitized { $0.lineSpacing = 2 }, width: .points(100))
        #expect(laidOut.height == 11)
        let twoLines = LayoutAssembler.assemble(monospaceText("aa\nbb"), style: sanitized { $0.lineSpacing = 2 }, width: .points(100))
        #expect(twoLines.height == 24)  // 11 + 2 + 11
    }

    @Test func baselineSitsBelowExtraHeight() {
        var s = style15()
        s.minimumLineHeight = 30
        s.lineSpacing = 8
        let l = engine.layout("a\nb", style: s, width: 300)
        // Extra 30 − 20.43 goes above the text; ascender 16.035.
        #expect(abs(l.lines[0].baseline - (30 - 20.43 + 16.035)) < 1e-9)
        #expect(abs(l.lines[1].baseline - (38 + 30 - 20.43 + 16.035)) < 1e-9)
        let plain = engine.layout("a", style: style15(), width: 300)
        #expect(abs(plain.lines[0].baseline - 16.035) < 1e-9)
    }

    @Test func maxLinesKeepsTheFirstLinesAndFlagsTruncation() {
        var s = style15()
        s.lineSpacing = 8
        s.maxLines = 2
        let m = engine.measure(threeParagraphs, style: s, width: 300)
        #expect(m.lineCount == 2)
        #expect(m.isTruncated)
        #expect(m.height == 49)  // 2 × 20.43 + 8 = 48.86
        s.maxLines = 3
        #expect(!engine.measure(threeParagraphs, style: s, width: 300).isTruncated)
    }

    @Test func truncatingTailEndsWithAnEllipsisThatFits() {
        var s = style15()
        s.maxLines = 2
        s.lineBreakMode = .truncatingTail
        let text = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let l = engine.layout(text, style: s, width: 120)
        #expect(l.lineCount == 2)
        let last = l.lines[1]
        let t = try! #require(last.truncation)
        #expect(t.placement == .tail)
        #expect(last.usedWidth <= 120 + 1e-6)
        #expect(t.ellipsisWidth > 0)
        // The visible head starts where the line starts and ends before the text does.
        #expect(t.head.lowerBound == last.range.lowerBound)
        #expect(t.head.upperBound < text.endIndex)
        let ellipsisFree = engine.measure(text, style: { var c = s; c.lineBreakMode = .clipping; return c }(), width: 120)
        #expect(ellipsisFree.lineCount == 2 && ellipsisFree.isTruncated)
    }

    @Test func truncatingHeadAndMiddle() {
        var s = style15()
        s.maxLines = 1
        let text = "abcdefghij klmnopqrst uvwxyz"
        s.lineBreakMode = .truncatingHead
        let head = engine.layout(text, style: s, width: 80)
        let h = try! #require(head.lines[0].truncation)
        #expect(h.head.isEmpty)
        #expect(text[h.tail].hasSuffix("xyz"))
        #expect(head.lines[0].usedWidth <= 80 + 1e-6)
        s.lineBreakMode = .truncatingMiddle
        let middle = engine.layout(text, style: s, width: 80)
        let m = try! #require(middle.lines[0].truncation)
        #expect(text[m.head].hasPrefix("ab"))
        #expect(text[m.tail].hasSuffix("z"))
        #expect(middle.lines[0].usedWidth <= 80 + 1e-6)
    }

    @Test func heightLimitIsAnUpperBoundNeverATarget() {
        var s = style15()
        s.lineSpacing = 8
        s.heightLimit = 50  // line 2 ends at 48.86, line 3 at 77.29
        let m = engine.measure(threeParagraphs, style: s, width: 300)
        #expect(m.lineCount == 2 && m.isTruncated && m.height == 49)
        s.heightLimit = 1000  // larger than needed: the real height, not 1000
        #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 77.5)
        s.heightLimit = 10
        let none = engine.measure(threeParagraphs, style: s, width: 300)
        #expect(none.lineCount == 0 && none.height == 0)
        #expect(none.warnings.contains(.heightLimitBelowFirstLine(10)))
        for unlimited in [Double.nan, .infinity, -5, 0, 1e300, .greatestFiniteMagnitude] {
            s.heightLimit = unlimited
            #expect(engine.measure(threeParagraphs, style: s, width: 300).height == 77.5)
        }
    }

    @Test func truncatesLastVisibleLinePutsTheEllipsisOnTheLastKeptLine() {
        var s = style15()
        s.heightLimit = 45  // two lines of 20.43
        s.options.insert(.truncatesLastVisibleLine)
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let l = engine.layout(text, style: s, width: 100)
        #expect(l.lineCount == 2)
        #expect(l.lines[1].truncation?.placement == .tail)
        s.options.remove(.truncatesLastVisibleLine)
        #expect(engine.layout(text, style: s, width: 100).lines[1].truncation == nil)
    }

    @Test func singleLineModeDoesNotWrapButCountsHardBreaks() {
        var s = style15()
        s.options.remove(.usesLineFragmentOrigin)
        let text = "a long line that would wrap at 50 points\nsecond"
        let single = engine.measure(text, style: s, width: 50)
        #expect(single.lineCount == 2)
        let natural = engine.measure("a long line that would wrap at 50 points", style: style15(), width: .infinity)
        #expect(single.width == natural.width)
        #expect(single.width > 50)
    }

    @Test func emptyTextIsZero() {
        let m = engine.measure("", style: style15(), width: 300)
        #expect(m.size == .zero && m.lineCount == 0 && !m.isTruncated)
    }

    @Test func trailingHardBreakAddsAnEmptyLine() {
        let m = engine.measure("a\n", style: style15(), width: 300)
        #expect(m.lineCount == 2)
        #expect(m.height == 41)  // 2 × 20.43 = 40.86
    }

    @Test func everyHardBreakKindSplitsParagraphs() {
        for br in ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}"] {
            let l = engine.layout("ab" + br + "cd", style: style15(), width: 300)
            #expect(lineTexts(l) == ["ab", "cd"], "break \(br.unicodeScalars.map { $0.value })")
        }
    }
}

@Suite struct PixelGridTests {
    @Test func ceilsToDevicePixels() {
        let g2 = PixelGrid(scale: 2)
        #expect(g2.ceil(43.2) == 43.5)
        #expect(g2.ceil(43.000000001) == 43)  // within 1e-4 px of the grid line
        #expect(g2.ceil(43.0001) == 43.5)  // 2e-4 px away: a real excess
        #expect(g2.ceil(0) == 0)
        #expect(g2.ceil(-3) == 0)
        #expect(g2.ceil(.nan) == 0)
        let g3 = PixelGrid(scale: 3)
        #expect(g3.ceil(20.43) == 62.0 / 3.0)
        #expect(PixelGrid(scale: 1).ceil(20.01) == 21)
    }

    /// The truncation roundings must give `rounded()`'s bits everywhere: halves, integers,
    /// neighbours of both, signed zeros, tiny, huge and non-finite values, and random values.
    @Test func truncatingRoundingMatchesLibm() {
        func check(_ x: Double) {
            #expect(PixelGrid.rounded(x).bitPattern == x.rounded().bitPattern, "rounded(\(x))")
            #expect(PixelGrid.roundedUp(x).bitPattern == x.rounded(.up).bitPattern, "roundedUp(\(x))")
            #expect(PixelGrid.roundedDown(x).bitPattern == x.rounded(.down).bitPattern, "roundedDown(\(x))")
        }
        var special: [Double] = [0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                 0x1p52, 0x1p52 - 0.5, 0x1p52 - 1, 0x1p53, 0x1p63, 0x1p64, -0.5, -1.5, -2.5]
        for n in [0.0, 1, 2, 3, 43, 1000, 4_503_599_627_370_495] {
            for d in [0.0, 0.5, 0.25, 0.75] { special.append(n + d) }
        }
        for x in special { check(x); check(x.nextUp); check(x.nextDown) }
        var rng = SplitMix64(seed: 0x5eed_16)
        for _ in 0..<20_000 {
            let bits = rng.next()
            let magnitude = Double(bits >> 11) / Double(1 << 53)  // [0, 1)
            let exponent = Int(bits & 63) - 8
            check(magnitude * Double(sign: .plus, exponent: exponent, significand: 1))
            check(Double(bits % 100_000) / 4)  // quarters: halves and integers often
        }
    }
}
