import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import Plumb
import PropertyTesting
import Testing

/// The SVG renderer, checked with a real XML parser: glyphs drawn for every visible cluster,
/// effects positioned from Plumb's geometry, deterministic output.
@Suite struct RenderTests {
    /// Elements of an SVG document with their attributes, in document order.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append((name, attributes))
        }
    }

    func parse(_ svg: String) throws -> [(name: String, attributes: [String: String])] {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "SVG is not well-formed: \(String(describing: parser.parserError))")
        return collector.elements
    }

    func elements(_ all: [(name: String, attributes: [String: String])], _ name: String, class cls: String? = nil) -> [[String: String]] {
        all.filter { $0.name == name && (cls == nil || ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(cls!))) }.map(\.attributes)
    }

    func number(_ s: String?) -> Double { Double(s ?? "") ?? .nan }

    @Test func everyVisibleGlyphIsDrawnAsAnOutlineAndEmojiAsImages() throws {
        let layout = engine.layout("Hello 世界 😀👍🏽", style: style15(), width: 300)
        let svg = SVGRenderer.render(layout, width: 300)
        let all = try parse(svg)
        #expect(elements(all, "use", class: "glyph").count == 7)  // H e l l o 世 界 (spaces are blank)
        #expect(elements(all, "image", class: "emoji").count == 2)
        #expect(elements(all, "path").count == 6)  // l is defined once
        #expect(!svg.contains("<text class=\"glyph"))  // never SVG text for the content
        // Glyphs sit on the line's baseline.
        let first = try #require(elements(all, "use", class: "glyph").first?["transform"])
        #expect(first.hasPrefix("translate(0 \(SVGNumber.format(layout.lines[0].baseline)))"))
    }

    @Test func aGlyphNoFontHasIsAVisiblePlaceholder() throws {
        let layout = engine.layout("a\u{E000}b", style: style15(["Noto Sans"]), width: 300)
        let all = try parse(SVGRenderer.render(layout, width: 300))
        #expect(elements(all, "rect", class: "placeholder").count == 1)
        #expect(elements(all, "use", class: "glyph").count == 2)
    }

    @Test func lastLineFadeSitsOnTheLastLine() throws {
        var s = style15()
        s.lineSpacing = 7
        s.minimumLineHeight = 24
        let layout = engine.layout("one two three four five six seven eight nine", style: s, width: 120)
        var o = RenderOptions()
        o.fadeLastLine = 30
        let all = try parse(SVGRenderer.render(layout, width: 120, options: o))
        let fade = try #require(elements(all, "rect", class: "fade").first)
        let last = try #require(layout.lines.last)
        #expect(layout.lineCount >= 3)
        #expect(abs(number(fade["y"]) - last.rect.y) < 0.001)
        #expect(abs(number(fade["height"]) - last.rect.height) < 0.001)
        #expect(abs(number(fade["x"]) - (last.usedWidth - 30)) < 0.001)
        #expect(abs(number(fade["width"]) - 30) < 0.001)
        // A fade wider than the line is clamped to the line.
        o.fadeLastLine = 10_000
        let clamped = try #require(elements(try parse(SVGRenderer.render(layout, width: 120, options: o)), "rect", class: "fade").first)
        #expect(number(clamped["x"]) == 0 && abs(number(clamped["width"]) - last.usedWidth) < 0.001)
    }

    /// A right-to-left paragraph: lines sit on the right (natural alignment), runs are drawn
    /// in visual order, and the last line's end — its left edge — fades.
    @Test func rightToLeftLinesAreDrawnInVisualOrderAndFadeAtTheirLeftEnd() throws {
        var s = style15(BidiTests.hebrew)
        s.lineSpacing = 4
        let layout = engine.layout("שלום עולם abc 123 (טקסט) ועוד מילים בסוף", style: s, width: 160)
        #expect(layout.lineCount >= 2 && layout.lines.allSatisfy { $0.direction == .rightToLeft })
        let placed = GlyphPlacer.glyphs(of: layout)
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
        let latin = first.filter { $0.font.familyName == "Noto Sans" }
        let hebrew = first.filter { $0.font.familyName == "Noto Sans Hebrew" }
        #expect(!latin.isEmpty && !hebrew.isEmpty)
        let shalom = Array("שלום".utf8).withUnsafeBufferPointer { Shaper().glyphs($0, font: hebrew[0].font, direction: .rightToLeft) }
        #expect(hebrew.suffix(shalom.count).map(\.glyph) == shalom.map(\.id))
        #expect(latin.map(\.x).max()! < hebrew.suffix(shalom.count).map(\.x).min()!)

        var o = RenderOptions()
        o.fadeLastLine = 20
        let all = try parse(SVGRenderer.render(layout, width: 160, options: o))
        let fade = try #require(elements(all, "rect", class: "fade").first)
        let last = try #require(layout.lines.last)
        #expect(abs(number(fade["x"]) - last.rect.x) < 0.001 && abs(number(fade["width"]) - 20) < 0.001)
        let gradient = try #require(all.first { $0.name == "linearGradient" && $0.attributes["id"] == "r0-fade-gradient" }?.attributes)
        #expect(abs(number(gradient["x1"]) - (last.rect.x + 20)) < 0.001 && abs(number(gradient["x2"]) - last.rect.x) < 0.001)
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
            let layout = engine.layout(text, style: s, width: width.rounded())
            guard let source = layout.rendering else { return }
            let order = GlyphPlacer.drawingOrder(of: layout)
            let placed = GlyphPlacer.glyphs(of: layout)
            try propertyAssert(order.count == layout.lineCount && placed.count == layout.lineCount, "one list per line")
            for (i, line) in layout.lines.enumerated() {
                var drawn: [Int] = []
                var ellipses = 0
                for item in order[i] {
                    switch item {
                    case .fontRun(let run, _): drawn += Array(run)
                    case .tab(let g, _): drawn.append(g)
                    case .ellipsis: ellipses += 1
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

    @Test func coversAreTheLineRectsExceptTheRevealedLine() throws {
        var s = style15()
        s.lineSpacing = 10
        s.paragraphSpacing = 20
        let layout = engine.layout("aaaa bbbb\ncccc dddd", style: s, width: 45)
        var o = RenderOptions()
        o.cover = .y(layout.lines[1].rect.maxY + 5)  // in the paragraph gap after line 1
        let covers = elements(try parse(SVGRenderer.render(layout, width: 45, options: o)), "rect", class: "cover")
        #expect(covers.count == layout.lineCount - 1)
        #expect(!covers.contains { $0["data-line"] == "1" })
        for c in covers {
            let i = Int(c["data-line"]!)!
            let r = layout.lineCoverRects[i]
            #expect(abs(number(c["y"]) - r.y) < 0.001 && abs(number(c["height"]) - r.height) < 0.001)
            #expect(abs(number(c["width"]) - r.width) < 0.001)
        }
    }

    @Test func gradientFillsTextGlyphsButNotEmoji() throws {
        let layout = engine.layout("Gradient 😀 text", style: style15(), width: 300)
        var o = RenderOptions()
        o.gradient = (["#ff2d55", "#5856d6"], 0)
        let all = try parse(SVGRenderer.render(layout, width: 300, options: o))
        #expect(elements(all, "linearGradient").count == 1)
        #expect(elements(all, "g", class: "line").allSatisfy { $0["fill"] == "url(#r0-gradient)" })
        let emoji = try #require(elements(all, "image", class: "emoji").first)
        #expect(emoji["fill"] == nil && emoji["href"]?.hasPrefix("data:image/png;base64,") == true)
    }

    @Test func scrollViewportShowsTheContentHeight() throws {
        let layout = engine.layout(String(repeating: "line of text ", count: 20), style: style15(), width: 100)
        var o = RenderOptions()
        o.viewport = (60, 20, .bottom)
        let svg = SVGRenderer.render(layout, width: 100, options: o)
        let all = try parse(svg)
        #expect(elements(all, "clipPath").count == 1)
        let edge = try #require(elements(all, "rect", class: "edge-fade").first)
        #expect(number(edge["y"]) == 40 && number(edge["height"]) == 20)
        #expect(svg.contains("content height \(SVGNumber.format(layout.size.height)) pt"))
    }

    @Test func overlaysShowLinesBaselinesGapsBoxesAndTheEllipsis() throws {
        var s = style15()
        s.lineSpacing = 6
        s.maxLines = 2
        s.lineBreakMode = .truncatingTail
        let layout = engine.layout("The quick brown fox jumps over the lazy dog again and again", style: s, width: 120)
        var o = RenderOptions()
        o.overlays = .all
        let all = try parse(SVGRenderer.render(layout, width: 120, options: o))
        #expect(elements(all, "rect", class: "line-rect").count == 2)
        #expect(elements(all, "line", class: "baseline").count == 2)
        #expect(elements(all, "rect", class: "gap").count == 1)
        #expect(elements(all, "rect", class: "pixel-box").first.map { number($0["height"]) } == layout.size.height)
        #expect(elements(all, "use", class: "ellipsis").count == 1)
        #expect(elements(all, "rect", class: "ellipsis-box").count == 1)
    }

    @Test func outputIsDeterministic() throws {
        let text = "Déterministe 中文 👨‍👩‍👧‍👦 text"
        var o = RenderOptions()
        o.overlays = .all
        o.fadeLastLine = 20
        let a = SVGRenderer.render(engine.layout(text, style: style15(), width: 150), width: 150, options: o)
        let b = SVGRenderer.render(TextMeasurer().layout(text, style: style15(), width: 150), width: 150, options: o)
        #expect(a == b)
    }

    @Test func aListSheetStacksRowsAtTheirMeasuredHeights() throws {
        let rows = ["short", "a longer row that wraps onto more than one line here", "中文"].map {
            engine.layout($0, style: style15(), width: 120)
        }
        let all = try parse(SVGRenderer.render(rows: rows, width: 120))
        let groups = all.filter { $0.name == "g" && ($0.attributes["id"] ?? "").hasPrefix("r") }.map(\.attributes)
        #expect(groups.count == 3)
        #expect(groups[1]["transform"] == "translate(8 \(SVGNumber.format(8 + rows[0].size.height + 1)))")
    }
}
