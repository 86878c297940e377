@testable import Plumb
import PropertyTesting
import Testing

/// The engine's drawing query (`TextMeasurer.drawing`): what a renderer draws, glyph by glyph,
/// at the positions the layout measured.
@Suite struct DrawingTests {
    /// A drawing's layout is the layout, and it has one glyph list per line.
    @Test func aDrawingCarriesTheSameLayoutAndOneGlyphListPerLine() {
        var s = style15()
        s.maxLines = 2
        s.lineBreakMode = .truncatingTail
        let text = "Hello 世界 😀 — a text long enough to wrap and be truncated on its second line"
        let drawing = engine.drawing(text, style: s, width: 120)
        let layout = engine.layout(text, style: s, width: 120)
        #expect(drawing.layout.lines == layout.lines && drawing.layout.measurement == layout.measurement)
        #expect(drawing.lines.count == layout.lineCount && drawing.boxWidth == 120)
        #expect(drawing.lines.allSatisfy { !$0.isEmpty })
        #expect(drawing.lines[1].contains { $0.isEllipsis })
        // An unusable width: a flagged fallback, no lines, no box.
        let fallback = engine.drawing(text, style: s, width: 0)
        #expect(fallback.boxWidth == nil && fallback.lines.isEmpty && fallback.layout.measurement.isFallback)
        // Unconstrained: the box is the widest line.
        let wide = engine.drawing("one line", style: s, width: .infinity)
        #expect(wide.boxWidth == wide.layout.lines[0].usedWidth)
        // An empty text has no lines but a box.
        #expect(engine.drawing("", style: s, width: 80).boxWidth == 80)
    }

    /// A layout is geometry only: what drawing needs lives in the drawing, not in every
    /// `TextLayout` (which used to keep the prepared text alive for the renderer).
    @Test func aLayoutCarriesOnlyItsPublicGeometry() {
        let layout = engine.layout("Hello", style: style15(), width: 100)
        #expect(Mirror(reflecting: layout).children.map(\.label) == ["text", "measurement", "lines", "exactHeight", "scale", "inlineBoxes", "truncationToken", "caretMap", "runEnds"])
    }

    /// Outlines and ink come from the glyph's face: a Latin glyph has a closed outline inside
    /// its ink box; a space has none; an emoji has a PNG.
    @Test func facesGiveOutlinesInkBoxesAndColorImages() throws {
        let glyphs = engine.drawing("H 😀", style: style15(), width: 300).lines[0]
        let h = try #require(glyphs.first)
        let outline = h.face.outline(ofGlyph: h.glyph)
        #expect(outline.first.map { if case .move = $0 { true } else { false } } == true)
        #expect(outline.last == .closeSubpath)
        let ink = try #require(h.face.inkBox(ofGlyph: h.glyph))
        for case .line(let p) in outline {
            #expect(p.x >= ink.left - 1e-6 && p.x <= ink.left + ink.width + 1e-6 && p.y <= ink.top + 1e-6 && p.y >= ink.top - ink.height - 1e-6)
        }
        #expect(abs(h.scale - 15 / h.face.unitsPerEm) < 1e-12 && h.face.familyName == "Noto Sans")
        let space = glyphs[1]
        #expect(space.face.outline(ofGlyph: space.glyph).isEmpty && space.face.inkBox(ofGlyph: space.glyph) == nil)
        let emoji = try #require(glyphs.last)
        #expect(emoji.face.hasColorGlyphs && emoji.face.colorImage(ofGlyph: emoji.glyph)?.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(emoji.face != h.face && h.face == glyphs[0].face)
    }

    /// A right-to-left paragraph: lines sit on the right (natural alignment) and runs are
    /// drawn in visual order.
    @Test func rightToLeftLinesAreDrawnInVisualOrder() throws {
        var s = style15(BidiTests.hebrew)
        s.lineSpacing = 4
        let drawing = engine.drawing("שלום עולם abc 123 (טקסט) ועוד מילים בסוף", style: s, width: 160)
        let layout = drawing.layout
        #expect(layout.lineCount >= 2 && layout.lines.allSatisfy { $0.direction == .rightToLeft })
        let placed = drawing.lines
        for (i, line) in layout.lines.enumerated() {
            // Every glyph starts inside the line's rect, or in the hanging whitespace left of it.
            for g in placed[i] {
                #expect(g.x >= line.rect.x - line.hangingWidth - 1e-6 && g.x < line.rect.maxX + 1e-6, "line \(i): \(g.x) vs \(line.rect)")
            }
            #expect(zip(placed[i], placed[i].dropFirst()).allSatisfy { $0.x <= $1.x + 1e-9 }, "line \(i) not left to right")
        }
        // Line 1: "שלום עולם abc 123 (" … — the Latin run and the number sit left of the
        // Hebrew words they follow; the first word (שלום) is rightmost, drawn as HarfBuzz
        // shapes it right to left.
        let first = placed[0]
        let latin = first.filter { $0.face.familyName == "Noto Sans" }
        let hebrew = first.filter { $0.face.familyName == "Noto Sans Hebrew" }
        #expect(!latin.isEmpty && !hebrew.isEmpty)
        let shalom = Array("שלום".utf8).withUnsafeBufferPointer { Shaper().glyphs($0, font: hebrew[0].face.font, direction: .rightToLeft) }
        #expect(hebrew.suffix(shalom.count).map(\.glyph) == shalom.map(\.id))
        #expect(latin.map(\.x).max()! < hebrew.suffix(shalom.count).map(\.x).min()!)
    }

    /// Drawing in visual order loses and invents nothing: for generated mixed-direction texts
    /// (Hebrew, Arabic, Latin, digits, punctuation, tabs, emoji, hard breaks, truncation) in
    /// any alignment, each line draws every visible grapheme exactly once (its drawing steps
    /// are a permutation of the line's graphemes, plus the ellipsis when truncated), and every
    /// glyph starts within the line's box (its rect widened by the hanging whitespace).
    @Test func visualOrderDrawsEveryGraphemeOnceInsideItsLine() {
        let pieces: TextPieces = [.rightToLeft, .asciiWords, .digits, .punctuation, .spaces, .tabs, .singleEmoji, .hardBreaks, .latinCombining]
        let gen = Gen.zip(Gen<String>.text(maxClusters: 40, pieces: pieces), Gen.element(of: TextAlignment.allCases),
                          Gen.double(in: 60...300), Gen.int(in: 0...3))
        let failure = checkProperty("visual order", gen, iterations: 80) { (text, alignment, width, maxLines) throws -> Void in
            var s = style15(["Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic"])
            s.alignment = alignment
            s.maxLines = maxLines
            s.lineBreakMode = .truncatingTail
            let (layout, source, _) = engine.drawingParts(text, style: s, width: width.rounded(), scale: 2)
            guard let source else { return }
            let order = GlyphPlacer.drawingOrder(of: layout, source)
            let placed = GlyphPlacer.glyphs(of: layout, source)
            try propertyAssert(order.count == layout.lineCount && placed.count == layout.lineCount, "one list per line")
            for (i, line) in layout.lines.enumerated() {
                var drawn: [Int] = []
                var ellipses = 0
                for item in order[i] {
                    switch item {
                    case .fontRun(let run, _): drawn += Array(run)
                    case .tab(let g, _), .box(let g, _): drawn.append(g)
                    case .ellipsis: ellipses += 1
                    case .stretch: break
                    }
                }
                let visible = source.lineGraphemes[i].visible.flatMap { $0.map(Int.init) }
                try propertyAssert(drawn.sorted() == visible, "line \(i) draws \(drawn) of \(visible)")
                try propertyAssert(ellipses == (source.lineGraphemes[i].hasEllipsis ? 1 : 0), "line \(i): \(ellipses) ellipses")
                let lo = line.rect.x - line.hangingWidth - 0.01, hi = line.rect.maxX + line.hangingWidth + 0.01
                for g in placed[i] {
                    try propertyAssert(g.x >= lo && g.x <= hi, "line \(i) glyph at \(g.x) outside \(lo)...\(hi)")
                }
            }
        }
        if let failure { Issue.record("\(failure)") }
    }
}
