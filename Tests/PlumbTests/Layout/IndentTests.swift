@testable import Plumb
import Testing

/// Head, first-line and tail indents (issue 27, item 1): UIKit's rules worked by hand over the
/// fake monospace text (10 pt per character), then the engine's geometry, widths, profiles and
/// bad input with real fonts.
@Suite struct IndentTests {
    func lines(
        _ text: String, width: Double, _ indents: LineIndents, policy: WrapPolicy = .words, guessFirst: Bool = true
    ) -> [String] {
        let p = monospaceText(text)
        var breaker = LineBreaker(text: p, maxWidth: width, policy: policy, tabInterval: 28, lineLimit: .max, indents: indents)
        breaker.searchesGuessFirst = guessFirst
        return lineStrings(text, p, breaker.lines())
    }

    func indents(first: Double = 0, head: Double = 0, tail: Double = 0, everyParagraph: Bool = true) -> LineIndents {
        LineIndents(firstLineStart: first, otherLinesStart: head, tail: tail, everyParagraph: everyParagraph)
    }

    // MARK: The UIKit rules, by hand

    @Test func aFirstLineIndentNarrowsOnlyTheFirstLine() {
        // Width 80, first line from 40: 40 pt hold "aaa" (30), not "aaa bbb" (70); then 80 pt.
        #expect(lines("aaa bbb ccc ddd", width: 80, indents(first: 40)) == ["aaa ", "bbb ccc ", "ddd"])
        #expect(lines("aaa bbb ccc ddd", width: 80, .none) == ["aaa bbb ", "ccc ddd"])
    }

    @Test func aHangingIndentNarrowsEveryLineButTheFirst() {
        // Head indent 30: the first line has 80 pt ("aaa bbb"), the others 50 ("ccc", "ddd").
        #expect(lines("aaa bbb ccc ddd", width: 80, indents(head: 30)) == ["aaa bbb ", "ccc ", "ddd"])
    }

    @Test func tailIndentsCountFromTheTrailingEdgeOrTheLeadingOne() {
        // −20: lines end 20 pt inside the 80-pt box (60 pt: "aaa" but not "aaa bbb").
        #expect(lines("aaa bbb ccc", width: 80, indents(tail: -20)) == ["aaa ", "bbb ", "ccc"])
        // +70: lines end 70 pt from the leading edge ("aaa bbb" exactly).
        #expect(lines("aaa bbb ccc", width: 80, indents(tail: 70)) == ["aaa bbb ", "ccc"])
        // A positive tail beyond the box is the box's edge.
        #expect(lines("aaa bbb ccc", width: 80, indents(tail: 500)) == lines("aaa bbb ccc", width: 80, .none))
        // Head and tail together: 10...70, 60 pt per line.
        #expect(lines("aaa bbb ccc", width: 80, indents(first: 10, head: 10, tail: -10)) == ["aaa ", "bbb ", "ccc"])
    }

    @Test func everyParagraphOrOnlyTheTextsFirstLineIsIndented() {
        let text = "aaa bbb\nccc ddd"
        // UIKit and Pango: each paragraph's first line.
        #expect(lines(text, width: 80, indents(first: 40)) == ["aaa ", "bbb", "ccc ", "ddd"])
        // CSS text-indent: the text's first line only.
        #expect(lines(text, width: 80, indents(first: 40, everyParagraph: false)) == ["aaa ", "bbb", "ccc ddd"])
    }

    @Test func anOverlongWordIsCutToEachLinesOwnWidth() {
        // 30 pt on the first line (3 clusters), 50 on the others.
        #expect(lines("abcdefghijkl", width: 50, indents(first: 20)) == ["abc", "defgh", "ijkl"])
        // Character wrapping too.
        #expect(lines("abcdefghijkl", width: 50, indents(first: 20), policy: .characters) == ["abc", "defgh", "ijkl"])
        // A line with no width still holds one cluster.
        #expect(lines("ab cd", width: 50, indents(first: 60)) == ["a", "b cd"])
    }

    @Test func bothSearchOrdersAgreeWithIndents() {
        let text = "aa bbb c dddd ee f ggg hhhh i jj kkk l mmmm nn o ppp"
        for first in [0.0, 15, 40, 75] {
            for head in [0.0, 25, 60] {
                let i = indents(first: first, head: head, tail: -5)
                #expect(lines(text, width: 90, i, guessFirst: true) == lines(text, width: 90, i, guessFirst: false))
                // The simple loop and the general one (a tab makes the paragraph not simple,
                // at the end where it changes no earlier line).
                let general = lines(text + " \t", width: 90, i)
                #expect(Array(general.dropLast()) == Array(lines(text, width: 90, i).dropLast()))
            }
        }
    }

    // MARK: The engine

    @Test func linesSitAtTheirIndentAndTheWidthHoldsThem() {
        var s = style15()
        s.firstLineHeadIndent = 30
        s.headIndent = 12
        s.tailIndent = -20
        let text = "The quick brown fox jumps over the lazy dog and runs far away from home."
        let l = engine.layout(text, style: s, width: 220)
        #expect(l.lineCount >= 3)
        #expect(l.lines[0].rect.x == 30)
        for line in l.lines.dropFirst() { #expect(line.rect.x == 12) }
        for line in l.lines { #expect(line.rect.x + line.usedWidth <= 200 + 1e-6) }
        // The width is the narrowest box that holds every line at its indent, tail included,
        // so a layout at that width has the same lines.
        let widest = l.lines.map { $0.rect.x + $0.usedWidth + 20 }.max()!
        #expect(l.measurement.size.width == (widest * 2).rounded(.up) / 2)
        let again = engine.layout(text, style: s, width: l.measurement.size.width)
        #expect(lineTexts(again) == lineTexts(l))
        // The streamed measurement (no lines kept) gives the same size.
        let m = TextMeasurer().measure(text, style: s, width: 220)
        #expect(m.size == l.measurement.size)
    }

    /// U+2028 and NEL break the line inside the paragraph (UIKit's paragraph ranges, Pango's
    /// `is_paragraph_start`), so the line after one takes the head indent; U+2029, LF, CR LF
    /// and CR start paragraphs, whose first lines take the first-line indent.
    @Test func aLineSeparatorContinuesTheParagraph() {
        var s = style15()
        s.firstLineHeadIndent = 30
        s.headIndent = 6
        for profile in [Compatibility.standard, .pango] {
            s.compatibility = profile
            let l = engine.layout("aaa\u{2028}bbb\u{2029}ccc\r\nddd\u{85}eee\reee\nfff", style: s, width: 400)
            #expect(l.lines.map(\.rect.x) == [30, 6, 30, 30, 6, 30, 30], "\(profile)")
            // The line after U+2028 has the other lines' width: five words in 204 pt, four in 180.
            let wide = "aaa\u{2028}" + String(repeating: "word ", count: 12)
            let t = engine.layout(wide, style: s, width: 210)
            let plain = engine.layout(String(repeating: "word ", count: 12), style: { var h = s; h.firstLineHeadIndent = 6; return h }(), width: 210)
            #expect(Array(lineTexts(t).dropFirst()) == lineTexts(plain), "\(profile)")
        }
    }

    @Test func alignmentIsWithinTheIndentsAndRightToLeftStartsAtTheRight() {
        var s = style15()
        s.headIndent = 20
        s.firstLineHeadIndent = 20
        s.tailIndent = -40
        s.alignment = .center
        let l = engine.layout("short", style: s, width: 300)
        // Centred in 20...260.
        #expect(abs(l.lines[0].rect.midX - 140) < 1e-9)
        s.alignment = .natural
        let rtl = engine.layout("שלום עולם", style: s, width: 300)
        #expect(rtl.lines[0].direction == .rightToLeft)
        // The head indent is on the right: the line ends 20 pt inside the right edge.
        #expect(abs(rtl.lines[0].rect.maxX - 280) < 1e-9)
    }

    @Test func truncationFitsTheLinesOwnWidth() {
        var s = style15()
        s.maxLines = 1
        s.lineBreakMode = .truncatingTail
        let text = "The quick brown fox jumps over the lazy dog"
        let plain = engine.layout(text, style: s, width: 200)
        s.firstLineHeadIndent = 60
        let indented = engine.layout(text, style: s, width: 200)
        #expect(indented.lines[0].usedWidth <= 140 + 1e-6)
        #expect(indented.lines[0].usedWidth < plain.lines[0].usedWidth)
        #expect(indented.lines[0].rect.x == 60)
    }

    @Test func theChromiumProfileTakesCSSTextIndent() {
        var s = profiled(.chromium)
        s.firstLineHeadIndent = -10
        s.headIndent = 10
        let text = "one two three four five six seven eight nine ten eleven twelve\nthirteen fourteen"
        let l = engine.layout(text, style: s, width: 150)
        #expect(l.measurement.warnings.isEmpty)
        // An outdent: the first line starts 10 pt left of the box, 20 left of the others.
        #expect(l.lines[0].rect.x == -10)
        // Only the text's first line: the second paragraph starts at the head indent.
        let second = l.lines.first { $0.range.lowerBound == text.firstIndex(of: "\n").map { text.index(after: $0) } }!
        #expect(second.rect.x == 10)
        s.indentEachLine = true
        let each = engine.layout(text, style: s, width: 150)
        let secondEach = each.lines.first { $0.range.lowerBound == second.range.lowerBound }!
        #expect(secondEach.rect.x == -10)
        // Lengths go onto Blink's 1/64-px grid, towards zero.
        s.firstLineHeadIndent = 10.01
        s.headIndent = 0
        #expect(engine.layout(text, style: s, width: 150).lines[0].rect.x == 10)
    }

    @Test func badIndentsWarnAndFallBack() {
        for (profile, firstFallsBack) in [(Compatibility.standard, true), (.pango, true), (.chromium, false)] {
            var s = profiled(profile)
            s.firstLineHeadIndent = -30
            s.headIndent = -5
            s.tailIndent = .nan
            let m = engine.measure("Some words to wrap into lines", style: s, width: 100)
            let fields = m.warnings.compactMap { w -> String? in
                if case .invalidValue(let field, _) = w { return field } else { return nil }
            }
            #expect(fields.contains("headIndent") && fields.contains("tailIndent"))
            #expect(fields.contains("firstLineHeadIndent") == firstFallsBack, "\(profile)")
            #expect(m.size.height.isFinite && m.size.height > 0 && m.size.width.isFinite && m.size.width >= 0)
            s.firstLineHeadIndent = .infinity
            s.headIndent = 1e300
            s.tailIndent = -1e300
            let huge = engine.layout("Some words", style: s, width: 100)
            #expect(huge.measurement.size.height.isFinite && huge.measurement.size.width.isFinite)
            #expect(huge.lines.allSatisfy { $0.rect.x.isFinite })
        }
    }

    @Test func indentsAreInTheResultKey() {
        let m = TextMeasurer()
        var s = style15()
        let text = "aaaa bbbb cccc dddd eeee ffff"
        let plain = m.measure(text, style: s, width: 120)
        s.firstLineHeadIndent = 60
        let indented = m.measure(text, style: s, width: 120)
        #expect(indented.lineCount > plain.lineCount)
        #expect(indented == TextMeasurer().measure(text, style: s, width: 120))
        // The width-range tier reuses a layout only where every line still fits at its indent.
        s.tailIndent = -30
        let wide = m.measure(text, style: s, width: 400)
        let fresh = TextMeasurer()
        for w in stride(from: 100.0, through: 400, by: 7.5) {
            #expect(m.measure(text, style: s, width: w) == fresh.measure(text, style: s, width: w), "\(w)")
        }
        #expect(wide.lineCount >= 1)
    }
}
