import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// Attributed text: runs of character styles and inline boxes. Heights are checked against
/// numbers computed from the fonts' hhea metrics (Noto Sans: ascender 1069, descender −293,
/// gap 0, upem 1000).
@Suite struct RichTextTests {
    let style = style15(["Noto Sans"])
    /// Noto Sans at `size`: (ascender, descent) in points.
    func noto(_ size: Double) -> (ascender: Double, descent: Double) { (1069 * size / 1000, 293 * size / 1000) }

    func lineStarts(_ l: TextLayout) -> [Int] { l.lines.map(\.scalarRange.lowerBound) }

    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 60, _ body: @escaping (T) -> Bool) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) {
            Issue.record("\(failure)")
        }
    }

    @Test func oneRunWithTheStylesOwnAttributesIsThePlainText() {
        let text = "Hello, 世界 — a longer message that wraps onto a second line 😀"
        let plain = engine.layout(text, style: style, width: 150)
        let rich = engine.layout(AttributedText(text), style: style, width: 150)
        #expect(rich.measurement == plain.measurement)
        #expect(rich.lines == plain.lines)
    }

    @Test func oneRunThatRestatesTheStyleAnswersBitIdentically() {
        // Attributes that are set but equal to the style's go through the run pipeline and
        // must give the same numbers as the plain call.
        let style = self.style
        check("one run == plain", Gen<String>.text(maxClusters: 40)) { text in
            let attributes = TextAttributes(families: ["Noto Sans"], size: 15, weight: 400, italic: false, letterSpacing: 0)
            let rich = AttributedText(text, attributes)
            guard !rich.isPlain || text.isEmpty else { return false }
            for width in [60.0, 200] {
                let plain = engine.layout(text, style: style, width: width)
                let layout = engine.layout(rich, style: style, width: width)
                guard layout.measurement == plain.measurement, layout.lines == plain.lines,
                    engine.measure(rich, style: style, width: width) == plain.measurement
                else { return false }
            }
            return true
        }
    }

    @Test func splittingARunChangesNothing() {
        let style = self.style
        check("split run == one run", Gen.zip(Gen<String>.text(maxClusters: 30), Gen.int(in: 0...60))) { text, cut in
            let scalars = Array(text.unicodeScalars)
            let k = min(cut, scalars.count)
            var head = String.UnicodeScalarView(), tail = String.UnicodeScalarView()
            head.append(contentsOf: scalars[..<k])
            tail.append(contentsOf: scalars[k...])
            let bold = TextAttributes(weight: 700)
            var split = AttributedText(String(head), bold)
            split.append(String(tail), bold)
            let whole = AttributedText(text, bold)
            return split == whole
                && engine.layout(split, style: style, width: 120).lines == engine.layout(whole, style: style, width: 120).lines
        }
    }

    @Test func runsShapeInTheirOwnFonts() {
        var rich = AttributedText("Alice ", TextAttributes(weight: 700))
        rich.append("replied")
        let boldWidth = engine.layout("Alice ", style: TextStyle(families: ["Noto Sans"], size: 15, weight: 700), width: 1000).lines[0].rect.width
        let regular = engine.layout("replied", style: style, width: 1000).lines[0].rect.width
        let space = engine.layout("Alice", style: TextStyle(families: ["Noto Sans"], size: 15, weight: 700), width: 1000).lines[0].rect.width
        let line = engine.layout(rich, style: style, width: 1000).lines[0]
        #expect(boldWidth == space)  // the trailing space hangs
        // Bold "Alice " + regular "replied": the bold space counts inside the line.
        #expect(abs(line.usedWidth - (boldWidth + boldSpace() + regular)) < 1e-9)
    }

    func boldSpace() -> Double {
        let bold = TextStyle(families: ["Noto Sans"], size: 15, weight: 700)
        return engine.layout("a a", style: bold, width: 1000).lines[0].rect.width
            - 2 * engine.layout("a", style: bold, width: 1000).lines[0].rect.width
    }

    @Test func mixedSizesAlignBaselines() {
        var rich = AttributedText("small ")
        rich.append("BIG", TextAttributes(size: 30))
        let l = engine.layout(rich, style: style, width: 1000)
        let big = noto(30)
        // One font, two sizes: ascent 32.07 + descent 8.79.
        #expect(abs(l.lines[0].naturalHeight - (big.ascender + big.descent)) < 1e-9)
        #expect(abs(l.lines[0].baseline - big.ascender) < 1e-9)
    }

    @Test func aBaselineOffsetRaisesTheAscent() {
        var rich = AttributedText("x")
        rich.append("2", TextAttributes(baselineOffset: 5))
        let l = engine.layout(rich, style: style, width: 1000)
        let n = noto(15)
        // Raised run: ascent 16.035 + 5; the deepest descent is the unshifted run's 4.395.
        #expect(abs(l.lines[0].naturalHeight - (n.ascender + 5 + n.descent)) < 1e-9)
        #expect(l.measurement.height == 25.5)  // 25.43 ceiled to half points
    }

    @Test func aBoxRaisesItsLineAndSitsOnTheBaseline() {
        var rich = AttributedText("Hi ")
        rich.append(InlineBox(width: 18, height: 30, baselineOffset: -5, id: "avatar"))
        rich.append(" there")
        let l = engine.layout(rich, style: style, width: 1000)
        let n = noto(15)
        // Box: ascent 30 − 5 = 25, descent 5 (> text's 4.395).
        #expect(abs(l.lines[0].naturalHeight - 30) < 1e-9)
        #expect(l.lines[0].baseline == 25)
        let box = l.inlineBoxes[0]
        #expect(box.id == "avatar")
        #expect(box.rect.y == 0 && box.rect.height == 30 && box.rect.width == 18)
        let hi = engine.layout("Hi a", style: style, width: 1000).lines[0].usedWidth
            - engine.layout("a", style: style, width: 1000).lines[0].usedWidth
        #expect(abs(box.rect.x - hi) < 1e-9)
        #expect(box.utf8Offset == 3 && box.scalarOffset == 3 && box.utf16Offset == 3)
        #expect(box.rect.maxY <= l.lines[0].rect.maxY && box.rect.y >= l.lines[0].rect.y)
        _ = n
    }

    @Test func aTallRunRaisesOnlyItsLine() {
        var rich = AttributedText("first line of words ")
        rich.append("BIG", TextAttributes(size: 40))
        let l = engine.layout(rich, style: style, width: 130)
        #expect(l.lines.count == 2)
        #expect(abs(l.lines[0].naturalHeight - notoSansLine15) < 1e-9)
        #expect(l.lines[1].naturalHeight > 50)
    }

    @Test func boxesBreakLikeObjectReplacementOrAtomicInlines() {
        // "a" + box + "," : UAX #14 keeps the comma with the box (no break before CL/IS);
        // Blink breaks around an atomic inline.
        var rich = AttributedText("aaaa")
        rich.append(InlineBox(width: 40, height: 10))
        rich.append(",bbbb")
        let narrow = 45.0
        var chromium = style
        chromium.compatibility = .chromium
        let standard = engine.layout(rich, style: style, width: narrow)
        let blink = engine.layout(rich, style: chromium, width: narrow)
        #expect(lineStarts(standard) != lineStarts(blink))
        #expect(lineStarts(blink).contains(4) && lineStarts(blink).contains(5))
    }

    @Test func keysCoverEveryRunAttributeAndNotTheBoxID() {
        let fresh = TextMeasurer()
        var bold = AttributedText("Alice ", TextAttributes(weight: 700))
        bold.append("replied to you")
        var regular = AttributedText("Alice ", TextAttributes(weight: 400))
        regular.append("replied to you")
        let a = fresh.measure(bold, style: style, width: 1000)
        let b = fresh.measure(regular, style: style, width: 1000)
        #expect(a.width != b.width)
        #expect(b == TextMeasurer().measure(regular, style: style, width: 1000))
        // Where a run ends is part of the key.
        var shifted = AttributedText("Alice r", TextAttributes(weight: 700))
        shifted.append("eplied to you")
        #expect(fresh.measure(shifted, style: style, width: 1000) == TextMeasurer().measure(shifted, style: style, width: 1000))
        // A box's id does not split keys: the second is a result hit.
        func row(_ id: String) -> AttributedText {
            var r = AttributedText("x")
            r.append(InlineBox(width: 10, height: 10, id: id))
            return r
        }
        _ = fresh.measure(row("one"), style: style, width: 300)
        let hits = fresh.cacheStatistics.results.hits
        _ = fresh.measure(row("two"), style: style, width: 300)
        #expect(fresh.cacheStatistics.results.hits == hits + 1)
    }

    @Test func absurdRunNumbersGiveFiniteGeometry() {
        // Found by Tests/Reliability/fuzz_cli.py: a run raised by 1e308 made every line below
        // it start at 1e308 and its baseline ∞.
        let cases: [AttributedText] = [
            { var t = AttributedText("first "); t.append("second third fourth", TextAttributes(baselineOffset: 1e308)); return t }(),
            { var t = AttributedText("first "); t.append("second third fourth", TextAttributes(letterSpacing: 1e308)); return t }(),
            { var t = AttributedText("first "); t.append(InlineBox(width: 1e308, height: 1e308, baselineOffset: -1e308)); t.append(" x"); return t }(),
        ]
        for text in cases {
            let l = engine.layout(text, style: style, width: 60)
            #expect(l.measurement.isFallback)
            for line in l.lines {
                for v in [line.rect.x, line.rect.y, line.rect.width, line.rect.height, line.baseline] { #expect(v.isFinite) }
            }
            for box in l.inlineBoxes { #expect(box.rect.y.isFinite && box.rect.height.isFinite) }
        }
    }

    @Test func badBoxesAreFlaggedAndFinite() {
        for bad in [Double.nan, -4, .infinity] {
            var rich = AttributedText("x")
            rich.append(InlineBox(width: bad, height: bad, baselineOffset: bad))
            let m = engine.measure(rich, style: style, width: 200)
            #expect(m.isFallback)
            #expect(m.height.isFinite && m.height >= 0 && (m.height * 2).rounded() == m.height * 2)
        }
    }

    /// A box's rect uses the numbers its line was measured with: an unusable offset (NaN, ∞,
    /// beyond `Sanitizer.maximumLength`) puts its bottom on the baseline, as it was measured,
    /// and an unusable height makes it 0 tall, in the text and in the truncation token.
    @Test func badBoxesGetTheRectsTheyWereMeasuredWith() throws {
        for bad in [Double.nan, .infinity, -.infinity, 1e308, -1e308] {
            let box = InlineBox(width: 10, height: bad, baselineOffset: bad, id: "b")
            var rich = AttributedText("x")
            rich.append(box)
            let l = engine.layout(rich, style: style, width: 200)
            let placed = try #require(l.inlineBoxes.first)
            #expect(l.measurement.isFallback)
            #expect(placed.rect.height == 0 && placed.rect.width == 10, "\(bad): \(placed.rect)")
            #expect(placed.rect.y == l.lines[placed.line].baseline, "\(bad): \(placed.rect)")

            var s = style
            s.maxLines = 1
            s.lineBreakMode = .truncatingTail
            var token = AttributedText("… ")
            token.append(box)
            s.truncationToken = token
            let t = engine.layout(String(repeating: "word ", count: 40), style: s, width: 120)
            let tokenBox = try #require(t.truncationToken?.boxes.first)
            #expect(tokenBox.rect.height == 0, "\(bad): \(tokenBox.rect)")
            #expect(tokenBox.rect.y == t.lines[tokenBox.line].baseline, "\(bad): \(tokenBox.rect)")
        }
    }
}

/// The truncation token: "… more" with "more" in bold, replacing "…".
@Suite struct TruncationTokenTests {
    var style: TextStyle {
        var s = style15(["Noto Sans"])
        s.maxLines = 2
        s.lineBreakMode = .truncatingTail
        var token = AttributedText("… ")
        token.append("more", TextAttributes(weight: 700))
        s.truncationToken = token
        return s
    }
    let long = "The quick brown fox jumps over the lazy dog and keeps running far beyond the end of the line"

    func width(_ text: String, weight: Int = 400) -> Double {
        engine.layout(text, style: TextStyle(families: ["Noto Sans"], size: 15, weight: weight), width: 10_000).lines[0].usedWidth
    }

    @Test func theTokenReplacesTheEllipsisAndIsHitTestable() throws {
        let l = engine.layout(long, style: style, width: 200)
        #expect(l.measurement.isTruncated && l.lines.count == 2)
        let token = try #require(l.truncationToken)
        // "… " (its space counts inside the token) + bold "more".
        let expected = width("… a") - width("a") + width("more", weight: 700)
        #expect(abs(token.rect.width - expected) < 1e-9)
        #expect(token.line == 1)
        #expect(abs(token.rect.maxX - l.lines[1].usedWidth) < 1e-9)
        #expect(l.lines[1].usedWidth <= 200)
        #expect(token.rect.y == l.lines[1].rect.y && token.rect.height == l.lines[1].rect.height)
        // With "…" the same text keeps more of the line.
        var plain = style
        plain.truncationToken = nil
        let e = engine.layout(long, style: plain, width: 200)
        #expect(e.lines[1].truncation!.head.upperBound > l.lines[1].truncation!.head.upperBound)
        #expect(e.truncationToken.map { abs($0.rect.width - (width("…a") - width("a"))) < 1e-9 } == true)
    }

    /// A box in the token ("… more ▸" with an icon) gets a rect an app can draw its image in:
    /// after the token's text before it, its bottom `baselineOffset` above the baseline.
    @Test func aBoxInTheTokenIsPlacedInsideTheTokensRect() throws {
        var s = style
        var token = AttributedText("… more ")
        token.append(InlineBox(width: 12, height: 10, baselineOffset: -2, id: "chevron"))
        s.truncationToken = token
        let l = engine.layout(long, style: s, width: 200)
        let placed = try #require(l.truncationToken)
        let box = try #require(placed.boxes.first)
        #expect(placed.boxes.count == 1 && box.id == "chevron" && box.line == placed.line)
        // Offsets in the token's text: "… more " is 7 scalars, 7 UTF-16 units, 9 bytes.
        #expect(box.scalarOffset == 7 && box.utf16Offset == 7 && box.utf8Offset == 9)
        let line = l.lines[placed.line]
        #expect(abs(box.rect.x - (placed.rect.x + (width("… more a") - width("a")))) < 1e-9)
        #expect(abs(box.rect.maxX - placed.rect.maxX) < 1e-9 && box.rect.width == 12 && box.rect.height == 10)
        #expect(abs(box.rect.maxY - (line.baseline + 2)) < 1e-9)
        // The line's own boxes are unaffected (the text has none); no token, no token boxes.
        #expect(l.inlineBoxes.isEmpty)
        #expect(engine.layout("short", style: s, width: 200).truncationToken == nil)
        // It survives the JSON form.
        let decoded = try JSONDecoder().decode(TruncationTokenPlacement.self, from: JSONEncoder().encode(placed))
        #expect(decoded == placed)
    }

    @Test func theTokensFontsCountForItsLine() {
        var tall = style
        tall.truncationToken = AttributedText(" MORE", TextAttributes(size: 30))
        let l = engine.layout(long, style: tall, width: 200)
        #expect(abs(l.lines[0].naturalHeight - notoSansLine15) < 1e-9)
        #expect(abs(l.lines[1].naturalHeight - 1362 * 30 / 1000) < 1e-9)
    }

    @Test func aTokenWithoutTruncationChangesNothing() {
        var plain = style
        plain.truncationToken = nil
        let short = "fits on a line"
        #expect(engine.layout(short, style: style, width: 200).lines == engine.layout(short, style: plain, width: 200).lines)
        #expect(engine.layout(short, style: style, width: 200).truncationToken == nil)
    }

    @Test func tokensAreKeyed() {
        let fresh = TextMeasurer()
        var other = style
        other.truncationToken = AttributedText("… read the whole story")
        let a = fresh.measure(long, style: style, width: 200)
        let b = fresh.measure(long, style: other, width: 200)
        #expect(a == TextMeasurer().measure(long, style: style, width: 200))
        #expect(b == TextMeasurer().measure(long, style: other, width: 200))
        #expect(fresh.layout(long, style: other, width: 200).truncationToken!.rect.width
            > fresh.layout(long, style: style, width: 200).truncationToken!.rect.width)
    }
}

/// Feeds of attributed rows: batches and lists take them.
@Suite struct RichListTests {
    @Test func listRowsTakeAttributedText() throws {
        var rows: [ListRow<Int>] = []
        for i in 0..<30 {
            var text = AttributedText("user\(i) ", TextAttributes(weight: 700))
            if i % 3 == 0 { text.append(InlineBox(width: 20, height: 28, baselineOffset: -6, id: "avatar")) }
            text.append(" message number \(i) with enough words to wrap somewhere")
            rows.append(i % 2 == 0
                ? ListRow(id: i, attributedText: text, style: style15(), width: 180, extraHeight: 16)
                : ListRow(id: i, text: text.string, style: style15(), width: 180, extraHeight: 16))
        }
        for workers in [1, 2, 8] {
            let list = try TextMeasurer().listHeights(for: rows, workers: workers)
            for (i, row) in rows.enumerated() {
                let text = row.attributedText.map { engine.measure($0, style: row.cell.style, width: 180).height }
                    ?? engine.measure(row.cell.text, style: row.cell.style, width: 180).height
                #expect(list.height(at: i) == text + 16, "row \(i) at \(workers) workers")
            }
        }
        // The box makes its rows taller than the same characters plain.
        #expect(engine.measure(rows[0].attributedText!, style: style15(), width: 180).height
            > engine.measure(rows[0].cell.text, style: style15(), width: 180).height)
    }
}

/// "…" in the style of the text it follows (UIKit takes the attributes at the truncation point).
@Suite struct RunEllipsisTests {
    func truncating(_ families: [String] = ["Noto Sans"]) -> TextStyle {
        var s = TextStyle(families: families, size: 15)
        s.maxLines = 1
        s.lineBreakMode = .truncatingTail
        return s
    }

    func ellipsisWidth(size: Double, families: [String] = ["Noto Sans"]) -> Double {
        engine.layout("a…", style: TextStyle(families: families, size: size), width: 1000).lines[0].usedWidth
            - engine.layout("a", style: TextStyle(families: families, size: size), width: 1000).lines[0].usedWidth
    }

    @Test func theEllipsisTakesTheStyleOfTheTextItFollows() throws {
        var rich = AttributedText("small start ")
        rich.append("BIG RUN THAT IS FAR TOO LONG TO FIT", TextAttributes(size: 30))
        let l = engine.layout(rich, style: truncating(), width: 200)
        let t = try #require(l.lines.first?.truncation)
        #expect(abs(t.ellipsisWidth - ellipsisWidth(size: 30)) < 1e-9)
        // It is cut inside the big run, and the line is as tall as the big run.
        #expect(l.lines[0].usedWidth <= 200)
    }

    @Test func aOneRunCellEqualsTheTextCellInItsFont() {
        let text = "The quick brown fox jumps over the lazy dog again and again"
        let plain = engine.layout(text, style: truncating(["DejaVu Sans"]), width: 150)
        let rich = engine.layout(AttributedText(text, TextAttributes(families: ["DejaVu Sans"])), style: truncating(), width: 150)
        #expect(rich.lines == plain.lines)
        #expect(rich.measurement == plain.measurement)
    }
}
