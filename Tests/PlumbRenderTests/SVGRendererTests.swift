import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Plumb
@testable import PlumbRender
import Testing

/// One engine for the suite's tests (fonts are shared).
let engine = TextMeasurer()

/// The default cascade at 15 pt.
func style15(_ families: [String] = ["Noto Sans", "Noto Sans CJK SC"]) -> TextStyle {
    TextStyle(families: families, size: 15)
}

/// Draws one cell (the layout and its glyphs, from the engine).
func drawing(_ text: String, _ style: TextStyle, width: Double) -> TextDrawing {
    engine.drawing(text, style: style, width: width)
}

typealias Element = (name: String, attributes: [String: String], ancestors: [String])

/// The SVG renderer, checked with a real XML parser: glyphs drawn for every visible cluster,
/// effects positioned from Plumb's geometry, deterministic output.
@Suite struct SVGRendererTests {
    /// Elements of an SVG document with their attributes and their ancestors' names, in
    /// document order.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var open: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append((name, attributes, open))
            open.append(name)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }
    }

    func parse(_ svg: String) throws -> [Element] {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "SVG is not well-formed: \(String(describing: parser.parserError))")
        return collector.elements
    }

    func elements(_ all: [Element], _ name: String, class cls: String? = nil) -> [[String: String]] {
        all.filter { $0.name == name && (cls == nil || ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(cls!))) }.map(\.attributes)
    }

    func number(_ s: String?) -> Double { Double(s ?? "") ?? .nan }

    @Test func everyVisibleGlyphIsDrawnAsAnOutlineAndEmojiAsImages() throws {
        let d = drawing("Hello 世界 😀👍🏽", style15(), width: 300)
        let layout = d.layout
        let svg = SVGRenderer.render(d)
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
        let all = try parse(SVGRenderer.render(drawing("a\u{E000}b", style15(["Noto Sans"]), width: 300)))
        #expect(elements(all, "rect", class: "placeholder").count == 1)
        #expect(elements(all, "use", class: "glyph").count == 2)
    }

    @Test func lastLineFadeSitsOnTheLastLine() throws {
        var s = style15()
        s.lineSpacing = 7
        s.minimumLineHeight = 24
        let d = drawing("one two three four five six seven eight nine", s, width: 120)
        let layout = d.layout
        var o = RenderOptions()
        o.fadeLastLine = 30
        let all = try parse(SVGRenderer.render(d, options: o))
        let fade = try #require(elements(all, "rect", class: "fade").first)
        let last = try #require(layout.lines.last)
        #expect(layout.lineCount >= 3)
        #expect(abs(number(fade["y"]) - last.rect.y) < 0.001)
        #expect(abs(number(fade["height"]) - last.rect.height) < 0.001)
        #expect(abs(number(fade["x"]) - (last.usedWidth - 30)) < 0.001)
        #expect(abs(number(fade["width"]) - 30) < 0.001)
        // A fade wider than the line is clamped to the line.
        o.fadeLastLine = 10_000
        let clamped = try #require(elements(try parse(SVGRenderer.render(d, options: o)), "rect", class: "fade").first)
        #expect(number(clamped["x"]) == 0 && abs(number(clamped["width"]) - last.usedWidth) < 0.001)
    }

    /// A right-to-left paragraph's last line ends at its left edge: that is where it fades.
    @Test func rightToLeftLastLineFadesAtItsLeftEnd() throws {
        var s = style15(["Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic"])
        s.lineSpacing = 4
        let d = drawing("שלום עולם abc 123 (טקסט) ועוד מילים בסוף", s, width: 160)
        var o = RenderOptions()
        o.fadeLastLine = 20
        let all = try parse(SVGRenderer.render(d, options: o))
        let fade = try #require(elements(all, "rect", class: "fade").first)
        let last = try #require(d.layout.lines.last)
        #expect(last.direction == .rightToLeft)
        #expect(abs(number(fade["x"]) - last.rect.x) < 0.001 && abs(number(fade["width"]) - 20) < 0.001)
        let gradient = try #require(all.first { $0.name == "linearGradient" && $0.attributes["id"] == "r0-fade-gradient" }?.attributes)
        #expect(abs(number(gradient["x1"]) - (last.rect.x + 20)) < 0.001 && abs(number(gradient["x2"]) - last.rect.x) < 0.001)
    }

    @Test func coversAreTheLineRectsExceptTheRevealedLine() throws {
        var s = style15()
        s.lineSpacing = 10
        s.paragraphSpacing = 20
        let d = drawing("aaaa bbbb\ncccc dddd", s, width: 45)
        let layout = d.layout
        var o = RenderOptions()
        o.cover = .y(layout.lines[1].rect.maxY + 5)  // in the paragraph gap after line 1
        let covers = elements(try parse(SVGRenderer.render(d, options: o)), "rect", class: "cover")
        #expect(covers.count == layout.lineCount - 1)
        #expect(!covers.contains { $0["data-line"] == "1" })
        for c in covers {
            let i = Int(c["data-line"]!)!
            let r = layout.lineCoverRects[i]
            #expect(abs(number(c["y"]) - r.y) < 0.001 && abs(number(c["height"]) - r.height) < 0.001)
            #expect(abs(number(c["width"]) - r.width) < 0.001)
        }
    }

    /// The gradient runs once across the text box: it is read by one rect in the row's
    /// coordinates, clipped by the text outlines, never by a glyph's `<use>` (whose transform
    /// would put the gradient in font units, restarting it in every glyph); emoji are outside
    /// the clip, in their own colors.
    @Test func gradientRunsOnceAcrossTheTextAndEmojiKeepTheirColors() throws {
        var s = style15()
        s.alignment = .center
        let d = drawing("Gradient 😀 text that wraps onto a second line", s, width: 200)
        let layout = d.layout
        #expect(layout.lineCount == 2)
        var o = RenderOptions()
        o.gradient = (["#ff2d55", "#5856d6"], 0)
        let all = try parse(SVGRenderer.render(d, options: o))
        let gradient = try #require(elements(all, "linearGradient").first)
        #expect(elements(all, "linearGradient").count == 1 && gradient["gradientUnits"] == "userSpaceOnUse")
        // From the leftmost line start to the rightmost line end (centered lines).
        let minX = layout.lines.map(\.rect.x).min()!, maxX = layout.lines.map(\.rect.maxX).max()!
        #expect(abs(number(gradient["x1"]) - minX) < 0.001 && abs(number(gradient["x2"]) - maxX) < 0.001)
        #expect(number(gradient["y1"]) == number(gradient["y2"]))
        let readers = all.filter { $0.attributes.values.contains("url(#r0-gradient)") }
        #expect(readers.count == 1 && readers[0].name == "rect" && readers[0].attributes["transform"] == nil)
        #expect(readers[0].ancestors.allSatisfy { $0 == "svg" || $0 == "g" })
        let fill = try #require(elements(all, "rect", class: "gradient-fill").first)
        // The filled rect covers the text box and more (ink may overhang it); the clip keeps
        // the paint to the outlines.
        #expect(number(fill["x"]) <= minX - 100 && number(fill["x"]) + number(fill["width"]) >= maxX + 100)
        #expect(number(fill["y"]) <= -100 && number(fill["y"]) + number(fill["height"]) >= layout.exactHeight + 100)
        #expect(fill["clip-path"] == "url(#r0-text)")
        // Every outline is in the clip path; no line group sets a fill.
        let glyphs = all.filter { $0.name == "use" }
        #expect(glyphs.count > 20 && glyphs.allSatisfy { $0.ancestors.contains("clipPath") })
        #expect(elements(all, "g", class: "line").allSatisfy { $0["fill"] == nil })
        let emoji = all.filter { $0.name == "image" }
        #expect(emoji.count == 1 && !emoji[0].ancestors.contains("clipPath"))
        #expect(emoji[0].attributes["href"]?.hasPrefix("data:image/png;base64,") == true)
    }

    /// At 90° the gradient runs from the text's top to its bottom; at 45° its ends pass
    /// through the box's corners (CSS `linear-gradient`).
    @Test func gradientAnglesSpanTheTextBox() throws {
        let d = drawing("two lines of text here", style15(), width: 90)
        let box = try #require(SVGRenderer.textBox(d.layout))
        let midX = box.x + box.width / 2
        for (angle, expected) in [(90.0, (midX, 0.0, midX, box.height)),
                                  (45.0, (midX - (box.width + box.height) / 4, box.height / 2 - (box.width + box.height) / 4,
                                          midX + (box.width + box.height) / 4, box.height / 2 + (box.width + box.height) / 4))] {
            var o = RenderOptions()
            o.gradient = (["#000", "#fff"], angle)
            let g = try #require(elements(try parse(SVGRenderer.render(d, options: o)), "linearGradient").first)
            for (attribute, value) in zip(["x1", "y1", "x2", "y2"], [expected.0, expected.1, expected.2, expected.3]) {
                #expect(abs(number(g[attribute]) - value) < 0.002, "\(angle)°: \(attribute) = \(g[attribute] ?? "") ≠ \(value)")
            }
        }
    }

    /// Rows of a list keep their own widths; a row whose width was unusable (a flagged
    /// fallback) is as wide as the widest row and marked, with the reason.
    @Test func listRowsKeepTheirWidthsAndFallbacksAreMarked() throws {
        let rows = [drawing("narrow row text that wraps", style15(), width: 120),
                    drawing("wide row", style15(), width: 260),
                    drawing("no width yet", style15(), width: 0)]
        let all = try parse(SVGRenderer.render(rows: rows))
        let boxes = elements(all, "rect", class: "row")
        #expect(boxes.map { number($0["width"]) } == [120, 260, 260])
        #expect(number(all[0].attributes["width"]) == 260 + 16)
        let marks = elements(all, "rect", class: "fallback")
        #expect(marks.count == 1 && abs(number(marks[0]["height"]) - (rows[2].layout.size.height - 1)) < 0.001)
        #expect(rows[2].layout.size.height > 0)
        let svg = SVGRenderer.render(rows: rows)
        #expect(svg.contains("<title>width 0.0 is not a usable layout width; returned the fallback height</title>fallback: stand-in height \(SVGNumber.format(rows[2].layout.size.height)) pt"))
        // The other rows are not marked.
        #expect(!SVGRenderer.render(rows: Array(rows.prefix(2))).contains("class=\"fallback"))
    }

    @Test func scrollViewportShowsTheContentHeight() throws {
        let d = drawing(String(repeating: "line of text ", count: 20), style15(), width: 100)
        let layout = d.layout
        var o = RenderOptions()
        o.viewport = (60, 20, .bottom)
        let svg = SVGRenderer.render(d, options: o)
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
        let d = drawing("The quick brown fox jumps over the lazy dog again and again", s, width: 120)
        let layout = d.layout
        var o = RenderOptions()
        o.overlays = .all
        let all = try parse(SVGRenderer.render(d, options: o))
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
        o.gradient = (["#ff2d55", "#5856d6"], 30)
        let a = SVGRenderer.render(engine.drawing(text, style: style15(), width: 150), options: o)
        let b = SVGRenderer.render(TextMeasurer().drawing(text, style: style15(), width: 150), options: o)
        #expect(a == b)
    }

    @Test func aListSheetStacksRowsAtTheirMeasuredHeights() throws {
        let rows = ["short", "a longer row that wraps onto more than one line here", "中文"].map {
            drawing($0, style15(), width: 120)
        }
        let all = try parse(SVGRenderer.render(rows: rows))
        let groups = all.filter { $0.name == "g" && ($0.attributes["id"] ?? "").hasPrefix("r") }.map(\.attributes)
        #expect(groups.count == 3)
        #expect(groups[1]["transform"] == "translate(8 \(SVGNumber.format(8 + rows[0].layout.size.height + 1)))")
    }
}
