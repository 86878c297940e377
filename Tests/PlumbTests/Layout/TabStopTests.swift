import Foundation
@testable import Plumb
import Testing

/// Tab stops (issue 27, item 2): TextKit's and Pango's rules worked by hand over the fake
/// monospace text (10 pt per character), then the engine's geometry, profiles, bad input and
/// keys with real fonts.
@Suite struct TabStopTests {
    /// Where each grapheme of each line starts (line-relative) and each line's text, with
    /// tabs placed by `ruler` as the breaker placed them.
    func layout(
        _ text: String, width: Double = 1000, _ ruler: TabRuler, indents: LineIndents = .none
    ) -> [(text: String, starts: [Double], used: Double)] {
        let p = monospaceText(text)
        var r = ruler
        r.indents = indents
        let breaker = LineBreaker(text: p, maxWidth: width, policy: .words, tabs: r, lineLimit: .max, indents: indents)
        let lines = breaker.lines()
        let strings = lineStrings(text, p, lines)
        return zip(lines, strings).map { line, string in
            let range = line.graphemeStart..<line.graphemeEnd
            let advances = r.tabAdvances([range], in: p, start: r.start(of: line, in: p), direction: .leftToRight)
            var x = 0.0
            var starts: [Double] = []
            for g in range {
                starts.append(x)
                x += advances[g] ?? p.advances[Int(g)]
            }
            return (string, starts, line.usedWidth)
        }
    }

    func stops(_ list: String) -> [TabRuler.Stop] {
        (try! TabStop.parse(list: list)).map { TabRuler.Stop(location: $0.location, alignment: $0.alignment) }
    }

    /// TextKit: listed stops, then every `interval` from the leading edge.
    func textKit(_ list: String, interval: Double = 28) -> TabRuler { TabRuler(stops: stops(list), interval: interval) }

    /// Pango: listed stops, then the last two stops' distance with the last one's alignment.
    func pango(_ list: String) -> TabRuler {
        TabSettings(stops: stops(list), rule: .pango).ruler(spaceWidth: 10)
    }

    // MARK: TextKit's and Pango's rules, by hand

    @Test func leftStopsThenTheInterval() {
        // a 0–10, tab to 25, b 25–35, then multiples of 28 past the last stop: 56, 84.
        let l = layout("a\tb\tc\td", textKit("25"))
        #expect(l.count == 1)
        #expect(l[0].starts == [0, 10, 25, 35, 56, 66, 84])
        #expect(l[0].used == 94)
    }

    @Test func rightCenterAndDecimalStopsLineTheTextUp() {
        // Right at 100: "bbb" (30) ends there, the tab is 60 wide; the next tab goes to 200.
        #expect(layout("a\tbbb\tc", textKit("100 right, 200"))[0].starts == [0, 10, 70, 80, 90, 100, 200])
        // Center at 100: "bbb" from 85 to 115.
        #expect(layout("a\tbbb\tc", textKit("100 center, 200"))[0].starts == [0, 10, 85, 95, 105, 115, 200])
        // Decimal at 100 (TextKit): "12" ends at 100, the point starts there.
        #expect(layout("a\t12.5\tc", textKit("100 decimal, 200"))[0].starts == [0, 10, 80, 90, 100, 110, 120, 200])
        // Pango centres the point on the stop: 95–105.
        #expect(layout("a\t12.5\tc", pango("100 decimal, 200"))[0].starts == [0, 10, 75, 85, 95, 105, 115, 200])
        // Without a point the text ends at the stop, as at a right stop.
        #expect(layout("a\t125\tc", textKit("100 decimal, 200"))[0].starts == [0, 10, 70, 80, 90, 100, 200])
        // Text longer than the gap starts at the pen: the tab has no width.
        #expect(layout("a\tbbbbb", textKit("30 right"))[0].starts == [0, 10, 10, 20, 30, 40, 50])
    }

    @Test func stopsPastTheLastContinueByEachEnginesRule() {
        // TextKit: after the right stop at 50, left stops every 28 (56, 84).
        #expect(layout("a\tb\tcc\tdd", textKit("50 right"))[0].starts == [0, 10, 40, 50, 56, 66, 76, 84, 94])
        // Pango: the stop repeats every 50 with its alignment: "cc" ends at 100, "dd" at 150.
        #expect(layout("a\tb\tcc\tdd", pango("50 right"))[0].starts == [0, 10, 40, 50, 80, 90, 100, 130, 140])
        // Two stops: the last distance (30) from the last (80, right): "dd" ends at 110.
        #expect(layout("a\tb\tcc\tdd", pango("50, 80 right"))[0].starts == [0, 10, 50, 60, 60, 70, 80, 90, 100])
    }

    @Test func aStopAtOrBeforeThePenIsSkipped() {
        // The pen at 40 after "abcd": the stop at 40 is not after it, the one at 45 is.
        #expect(layout("abcd\tb", textKit("40, 100"))[0].starts == [0, 10, 20, 30, 40, 100])
        #expect(layout("abcd\tb", textKit("45, 100"))[0].starts == [0, 10, 20, 30, 40, 45])
        // Blink keeps half a space (5 pt here) before a stop: 28 − 25 = 3 is too close.
        var css = TabRuler.every(28)
        css.minimumGap = 5
        #expect(layout("a\tbb\tc", css)[0].starts == [0, 10, 28, 38, 48, 56])
        // A pen on a stop goes to the next one.
        #expect(layout("aaaaaaaaa\tb", TabRuler.every(28))[0].starts.last == 112)
        #expect(layout("aaaaaaa\tb", TabRuler.every(28))[0].starts.last == 84)
    }

    @Test func stopsCountFromTheLeadingEdgeNotTheIndent() {
        // TextKit and Pango: a line indented 20 reaches the stop at 50 after a 20-pt tab.
        let indents = LineIndents(firstLineStart: 20, otherLinesStart: 20, tail: 0, everyParagraph: true)
        #expect(layout("a\tb", textKit("50"), indents: indents)[0].starts == [0, 10, 30])
        // CSS: from the content box (the head indent, 15): the first line, 15 further in
        // (text-indent), starts 15 along the ruler; the stop at 28 is 3 after "a".
        let css = LineIndents(firstLineStart: 30, otherLinesStart: 15, tail: 0, everyParagraph: false)
        var ruler = TabSettings(interval: 28, rule: .css, indents: css).ruler(spaceWidth: 0)
        #expect(ruler.origin == 15)
        #expect(layout("a\tb", ruler, indents: css)[0].starts == [0, 10, 13])
        ruler.minimumGap = 5
        #expect(layout("a\tb", ruler, indents: css)[0].starts == [0, 10, 41])
    }

    @Test func anAlignedStopPullsItsTextBackIntoTheLine() {
        // Eight b's after a right stop at 95 end there: the line holds them (95 ≤ 100).
        let right = layout("a\tbbbbbbbb", width: 100, textKit("95 right"))
        #expect(right.map(\.text) == ["a\tbbbbbbbb"])
        #expect(right[0].used == 95)
        // At a left stop they would end at 175: the word cannot stay, and is cut.
        #expect(layout("a\tbbbbbbbb", width: 100, textKit("95 left")).count > 1)
        // The segment runs to the line's end: "bb cccc" (70) is wider than the 40-pt gap,
        // so it starts at the pen and ends at 90, past the 80-pt line: "cccc" wraps.
        #expect(layout("aa\tbb cccc", width: 100, textKit("60 right")).map(\.text) == ["aa\tbb cccc"])
        let wrapped = layout("aa\tbb cccc", width: 80, textKit("60 right"))
        #expect(wrapped.map(\.text) == ["aa\tbb ", "cccc"])
    }

    @Test func tabSizeCountsSpacesOrPoints() {
        #expect(TabSettings(size: .spaces(4)).ruler(spaceWidth: 10).interval == 40)
        #expect(TabSettings(size: .length(17)).ruler(spaceWidth: 10).interval == 17)
        // Pango's default tabs keep a space (rounded to its 1/1024 unit) before the stop; a
        // tab array only one unit.
        #expect(TabSettings(size: .spaces(8), rule: .pango).ruler(spaceWidth: 5.0002).minimumGap == 5)
        #expect(TabSettings(size: .spaces(8), rule: .pango).ruler(spaceWidth: 5.0002).interval == 40)
        #expect(TabSettings(stops: stops("50"), rule: .pango).ruler(spaceWidth: 5).minimumGap == 1.0 / 1024)
        // Blink keeps half a bare space (letter spacing left out) before every stop.
        #expect(TabSettings(rule: .css).ruler(spaceWidth: 6).minimumGap == 3)
        #expect(TabSettings(rule: .css, letterSpacing: 2).ruler(spaceWidth: 8).minimumGap == 3)
        // A line left of the content box (an outdent) meets the stops before it: at 0.
        let outdent = LineIndents(firstLineStart: 0, otherLinesStart: 20, tail: 0, everyParagraph: false)
        let css = TabSettings(interval: 28, rule: .css, indents: outdent).ruler(spaceWidth: 0)
        #expect(layout("a\tb", css, indents: outdent)[0].starts == [0, 10, 20])
        // tab-size 0: tabs take no room.
        #expect(layout("a\tb", TabSettings(size: .spaces(0)).ruler(spaceWidth: 10))[0].starts == [0, 10, 10])
    }

    // MARK: The engine

    /// The x range of the UTF-16 characters `range` on their line.
    func span(_ l: TextLayout, _ range: Range<Int>) -> (minX: Double, maxX: Double) {
        let rects = l.rects(forCharacters: range)
        return (rects.map(\.x).min() ?? .nan, rects.map { $0.x + $0.width }.max() ?? .nan)
    }

    @Test func geometryAndDrawingPutTheTextAtItsStop() {
        var s = style15()
        s.tabStops = [TabStop(location: 120, alignment: .right), TabStop(location: 200, alignment: .center),
                      TabStop(location: 300, alignment: .decimal)]
        let text = "Item\tPrice\tQty\t12.50"
        let l = engine.layout(text, style: s, width: 400)
        #expect(l.lineCount == 1)
        // "Price" ends at 120, "Qty" is centred on 200, "12" ends at 300 (TextKit's decimal).
        #expect(abs(span(l, 5..<10).maxX - 120) < 1e-6)
        let qty = span(l, 11..<14)
        #expect(abs((qty.minX + qty.maxX) / 2 - 200) < 1e-6)
        #expect(abs(span(l, 15..<17).maxX - 300) < 1e-6)
        #expect(abs(span(l, 17..<18).minX - 300) < 1e-6)
        // The line ends after "12.50", and the measured width holds it.
        #expect(abs(l.lines[0].usedWidth - span(l, 15..<20).maxX) < 1e-6)
        #expect(l.measurement.size.width >= span(l, 15..<20).maxX)
        // Drawing places the glyphs where the layout measured them: the first glyph after the
        // right stop's tab starts where "Price" does.
        let drawing = engine.drawing(text, style: s, width: 400)
        let xs = drawing.lines[0].map(\.x)
        #expect(xs.contains { abs($0 - span(l, 5..<6).minX) < 1e-6 })
        // A tap on "Qty" hits it.
        #expect(l.characterOffset(at: Point(x: 200, y: l.lines[0].rect.midY)).map { (11..<14).contains($0) } == true)
    }

    @Test func aRightStopCanKeepALineFromWrapping() {
        var s = style15()
        let text = "Total\t1,234,567.89"
        let width = 200.0
        s.tabStops = [TabStop(location: 195, alignment: .left)]
        #expect(engine.layout(text, style: s, width: width).lineCount == 2)
        s.tabStops = [TabStop(location: 195, alignment: .right)]
        let right = engine.layout(text, style: s, width: width)
        #expect(right.lineCount == 1)
        #expect(abs(span(right, 6..<18).maxX - 195) < 1e-6)
    }

    @Test func badTabsWarnAndFallBack() {
        var s = style15()
        s.tabStops = [TabStop(location: 200), TabStop(location: .nan), TabStop(location: -5), TabStop(location: 100),
                      TabStop(location: 100, alignment: .right), TabStop(location: .infinity)]
        s.tabSize = .spaces(.nan)
        let m = engine.measure("a\tb\tc", style: s, width: 400)
        let text = m.warnings.map(\.description).joined(separator: "; ")
        #expect(text.contains("not above 0 and finite"), "\(text)")
        #expect(text.contains("sorted"), "\(text)")
        #expect(text.contains("repeated"), "\(text)")
        #expect(text.contains("tabSize"), "\(text)")
        #expect(m.size.width.isFinite && m.size.height > 0)
        // What is left: stops at 100 (left, the first given) and 200.
        var clean = style15()
        clean.tabStops = [TabStop(location: 100), TabStop(location: 200)]
        #expect(engine.measure("a\tb\tc", style: clean, width: 400).size == m.size)
        // CSS has no tab stops: the chromium profile says so and uses the interval.
        var css = style15()
        css.compatibility = .chromium
        css.tabStops = [TabStop(location: 100)]
        let c = engine.measure("a\tb", style: css, width: 400)
        #expect(c.warnings.contains { $0.description.contains("CSS has no tab stops") })
        css.tabStops = []
        #expect(engine.measure("a\tb", style: css, width: 400).size == c.size)
    }

    @Test func tabsAreInTheResultKeyAndTheWireFormat() throws {
        let measurer = TextMeasurer(fonts: engine.fonts)
        var s = style15()
        let a = measurer.measure("a\tb", style: s, width: 400)
        s.tabStops = [TabStop(location: 150)]
        let b = measurer.measure("a\tb", style: s, width: 400)
        s.tabSize = .length(90)
        s.tabStops = []
        let c = measurer.measure("a\tb", style: s, width: 400)
        #expect(Set([a.size.width, b.size.width, c.size.width]).count == 3)
        // JSON: objects or the list string, and the CSS tab-size forms.
        let decoded = try JSONDecoder().decode(
            TextStyle.self, from: Data(#"{"tabStops":[{"location":100,"alignment":"right"},{"location":150}],"tabSize":"28px"}"#.utf8))
        #expect(decoded.tabStops == [TabStop(location: 100, alignment: .right), TabStop(location: 150)])
        #expect(decoded.tabSize == .length(28))
        #expect(try TabStop.parse(list: "100 right, 150") == decoded.tabStops)
        #expect(try TabSize.parse(css: "8") == .spaces(8))
        #expect(throws: CSSValueError.self) { try TabStop.parse(list: "100 sideways") }
        #expect(throws: CSSValueError.self) { try TabSize.parse(css: "8em") }
        let again = try JSONDecoder().decode(TextStyle.self, from: JSONEncoder().encode(decoded))
        #expect(again == decoded)
    }
}
