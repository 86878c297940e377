@testable import Plumb
import Testing

/// Drawing attributed text (`TextMeasurer.drawing(_: AttributedText, …)`) and batches of
/// attributed cells.
@Suite struct RichDrawingTests {
    /// "Hi " regular, "BIG" at 30 pt raised 4 pt in blue, a 20 × 10 box, " end".
    func sample() -> AttributedText {
        var t = AttributedText("Hi ")
        t.append("BIG", TextAttributes(size: 30, baselineOffset: 4, color: "#0000ff"))
        t.append(InlineBox(width: 20, height: 10, id: "b"))
        t.append(" end")
        return t
    }

    /// Each run's glyphs are scaled to its own size (size / upem), raised by its offset and
    /// carry its colour; the box draws no glyph and the pen skips its width.
    @Test func eachRunIsPlacedAtItsOwnSizeOffsetAndColor() throws {
        let text = sample()
        let d = engine.drawing(text, style: style15(), width: 400)
        #expect(d.layout.lines == engine.layout(text, style: style15(), width: 400).lines)
        let glyphs = try #require(d.lines.first)
        #expect(glyphs.count == 10)  // H i space B I G space e n d: no glyph for the box
        let line = d.layout.lines[0]
        let big = glyphs[3..<6], plain = glyphs[0..<3] + glyphs[6...]
        for g in big {
            #expect(abs(g.scale - 30 / g.face.unitsPerEm) < 1e-12)
            #expect(abs(g.baseline - (line.baseline - 4)) < 1e-9)
            #expect(g.color == "#0000ff")
        }
        for g in plain {
            #expect(abs(g.scale - 15 / g.face.unitsPerEm) < 1e-12)
            #expect(g.baseline == line.baseline && g.color == nil)
        }
        // The pen after the box: its left edge plus its width.
        let box = try #require(d.layout.inlineBoxes.first)
        #expect(abs(glyphs[6].x - box.rect.maxX) < 1e-9)
    }

    /// A text whose runs are all plain draws as the string; a colour changes nothing but the
    /// glyphs' colour.
    @Test func aPlainAttributedTextDrawsAsItsString() {
        let t = AttributedText("Hello world")
        let a = engine.drawing(t, style: style15(), width: 60)
        let b = engine.drawing("Hello world", style: style15(), width: 60)
        #expect(a.lines == b.lines && a.layout.lines == b.layout.lines)
        // A colour alone changes only the glyphs' colour.
        let colored = engine.drawing(AttributedText("Hello world", TextAttributes(color: "red")), style: style15(), width: 60)
        #expect(colored.layout.lines == b.layout.lines)
        #expect(colored.lines.flatMap { $0 }.allSatisfy { $0.color == "red" })
        #expect(colored.lines.flatMap { $0 }.map(\.x) == b.lines.flatMap { $0 }.map(\.x))
    }

    /// The truncation token is drawn where "…" would be: its pieces at their runs' sizes and
    /// colours, flagged as the ellipsis, inside the token's rect.
    @Test func theTruncationTokenIsDrawnInItsRect() throws {
        var s = style15()
        s.maxLines = 1
        s.lineBreakMode = .truncatingTail
        var token = AttributedText("… ")
        token.append("more", TextAttributes(size: 12, weight: 700, color: "#1d9bf0"))
        s.truncationToken = token
        let d = engine.drawing(sample(), style: s, width: 90)
        let rect = try #require(d.layout.truncationToken).rect
        let tokenGlyphs = d.lines[0].filter(\.isEllipsis)
        #expect(tokenGlyphs.count == 6)  // … space m o r e
        #expect(tokenGlyphs.allSatisfy { $0.x >= rect.x - 1e-9 && $0.x < rect.maxX })
        #expect(tokenGlyphs.suffix(4).allSatisfy { $0.color == "#1d9bf0" && abs($0.scale - 12 / $0.face.unitsPerEm) < 1e-12 })
        #expect(tokenGlyphs.prefix(2).allSatisfy { $0.color == nil })
    }

    /// In a right-to-left line the token is reordered as a bidi paragraph of the line's
    /// direction: "… more ▸" shows the box at the left, "more" read left to right, and "…"
    /// next to the cut text at the right (drawn mirrored, "▸ erom…" reversed, before).
    @Test func aTokenInARightToLeftLineIsDrawnInBidiOrder() throws {
        var s = TextStyle(families: ["Noto Sans Hebrew", "DejaVu Sans"], size: 15)
        s.maxLines = 1
        s.lineBreakMode = .truncatingTail
        var token = AttributedText("… more ")
        token.append(InlineBox(width: 14, height: 12, id: "chevron"))
        s.truncationToken = token
        let text = "שלום עולם זה טקסט ארוך מאוד שצריך להיחתך"
        let d = engine.drawing(text, style: s, width: 200)
        let placed = try #require(d.layout.truncationToken)
        #expect(d.layout.lines[0].direction == .rightToLeft)
        let glyphs = d.lines[0].filter(\.isEllipsis)
        #expect(glyphs.count == 7)  // … space m o r e space
        // "more" in its own order, as the same font draws it in a left-to-right line.
        let latin = engine.drawing("more", style: TextStyle(families: ["DejaVu Sans"], size: 15), width: 200).lines[0]
        let drawnLatin = glyphs.filter { g in latin.contains { $0.glyph == g.glyph } && g.face == latin[0].face }
        #expect(drawnLatin.map(\.glyph) == latin.map(\.glyph))
        #expect(zip(drawnLatin, drawnLatin.dropFirst()).allSatisfy { $0.x < $1.x })
        // "…" is the rightmost glyph of the token; the box is the leftmost piece.
        let ellipsis = try #require(glyphs.max { $0.x < $1.x })
        #expect(!latin.contains { $0.glyph == ellipsis.glyph })
        let box = try #require(placed.boxes.first)
        #expect(abs(box.rect.x - placed.rect.x) < 1e-9 && box.rect.maxX <= drawnLatin[0].x + 1e-9)
        #expect(glyphs.allSatisfy { $0.x >= placed.rect.x - 1e-9 && $0.x < placed.rect.maxX })
    }

    /// An attributed batch answers as the single-cell calls, in input order, at 1, 2 and 8
    /// workers.
    @Test func attributedBatchesAnswerAsSingleCells() {
        var cells: [Cell] = []
        for i in 0..<40 {
            var t = AttributedText("Row \(i) ", TextAttributes(weight: 700))
            t.append(String(repeating: "word ", count: i % 7 + 1))
            if i % 3 == 0 { t.append(InlineBox(width: Double(i), height: 12, baselineOffset: -2, id: "\(i)")) }
            t.append(" 同意 😀", TextAttributes(size: Double(12 + i % 5)))
            cells.append(Cell(text: t, style: style15(), width: Double(80 + i * 3)))
        }
        let sequential = cells.map { engine.measure($0.attributedText!, style: $0.style, width: $0.width) }
        let layouts = cells.map { engine.layout($0.attributedText!, style: $0.style, width: $0.width) }
        for workers in [1, 2, 8] {
            #expect(engine.heights(for: cells, workers: workers) == sequential)
            let batch = engine.layouts(for: cells, workers: workers)
            #expect(batch.map(\.lines) == layouts.map(\.lines))
            #expect(batch.map(\.inlineBoxes) == layouts.map(\.inlineBoxes))
        }
    }
}
