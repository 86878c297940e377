import Foundation
@testable import Plumb
import Testing

/// Pango's line logical rects under the `pango` profile (issue 14, "Layout rules"): a stored
/// subset (Tests/Conformance/pango_heights_subset.jsonl: 400 plain and rich cases with Pango
/// 1.50.12's layout heights, written by `pango_heights.py --write-subset`) replayed with a
/// floor, and each piece of the rule with numbers worked out from the fonts' metrics (read
/// through Plumb's `FontMetrics`), each also measured in Pango (quoted in the comments).
@Suite struct PangoHeightTests {
    static let subsetURL = ConformanceTests.subsetURL.deletingLastPathComponent()
        .appendingPathComponent("pango_heights_subset.jsonl")
    /// 395 of 400 to the Pango unit with the baseline alignment by script (349 before it, 194
    /// with the UIKit rule); the kinds of the rest: Documentation/Accuracy.md, "Pango heights".
    static let heightFloor = 0.9875

    func pango(_ families: [String] = ["Noto Sans", "Noto Sans CJK SC"], size: Double = 15) -> TextStyle {
        profiled(.pango, families, size: size)
    }

    /// A font's metrics as Plumb reads them (hhea, or OS/2 typo where the font asks).
    func metrics(_ family: String) -> FontMetrics {
        engine.fonts.cascade(for: FontDescriptor(families: [family])).fonts[0].metrics
    }

    /// A font's run rect in Pango units at `size`: HarfBuzz's font units × scale / upem with
    /// halves rounded up, the scale being the size in Pango units.
    func rect(_ family: String, size: Double = 15) -> PangoLineBox.Extent {
        let m = metrics(family)
        let scale = (size * 1024).rounded()
        return PangoLineBox.Extent(
            ascent: Int((m.ascender * scale / m.upem + 0.5).rounded(.down)),
            descent: -Int((m.descender * scale / m.upem + 0.5).rounded(.down)))
    }

    func height(_ text: String, _ style: TextStyle) -> Double {
        engine.layout(text, style: style, width: 1000).exactHeight
    }

    func units(_ e: PangoLineBox.Extent) -> Double { Double(e.ascent + e.descent) / 1024 }

    @Test func thePangoProfileGivesPangosLayoutHeightsOnTheStoredSubset() throws {
        var cases = 0, agree = 0
        var worst: [String] = []
        for line in try Data(contentsOf: Self.subsetURL).split(separator: UInt8(ascii: "\n")) {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            var style = pango(try #require(c["families"] as? [String]), size: try #require(c["size"] as? Double))
            style.minimumLineHeight = c["minimumLineHeight"] as? Double ?? 0
            style.maximumLineHeight = c["maximumLineHeight"] as? Double ?? 0
            style.lineHeightMultiple = c["lineHeightMultiple"] as? Double ?? 0
            style.lineHeightEm = c["lineHeightEm"] as? Double ?? 0
            style.lineSpacing = c["lineSpacing"] as? Double ?? 0
            let width = try #require(c["width"] as? Double)
            let layout: TextLayout
            let label: String
            if c["runs"] != nil {
                let rich = try RichCase(json: c)
                layout = engine.layout(rich.text, style: style, width: width)
                label = rich.text.string
            } else {
                label = try #require(c["text"] as? String)
                layout = engine.layout(label, style: style, width: width)
            }
            let expected = try #require(c["pangoHeight"] as? Int)
            cases += 1
            if abs(layout.exactHeight * 1024 - Double(expected)) < 0.5 { agree += 1 } else if worst.count < 5 {
                worst.append("\(label.prefix(40).debugDescription): \(layout.exactHeight * 1024) vs \(expected)")
            }
        }
        #expect(cases == 400)
        #expect(Double(agree) / Double(cases) >= Self.heightFloor, "\(agree) of \(cases); \(worst)")
    }

    @Test func aLineIsTheUnionOfItsFontsRectsInPangoUnits() {
        // Noto Sans 15: 1069 × 15.36 = 16419.84 → 16420, 293 × 15.36 = 4500.48 → 4500;
        // Noto Sans CJK SC: 17818 / 4424. "hi 中" is CJK's ascent over Noto Sans's descent:
        // 22318 units (Pango 1.50.12: 22318). The UIKit rule takes the taller font, 21.72 pt.
        let noto = rect("Noto Sans"), cjk = rect("Noto Sans CJK SC")
        #expect(noto == PangoLineBox.Extent(ascent: 16420, descent: 4500))
        let l = engine.layout("hi 中", style: pango(), width: 1000)
        #expect(l.exactHeight == Double(max(noto.ascent, cjk.ascent) + max(noto.descent, cjk.descent)) / 1024)
        #expect(l.lines[0].baseline == Double(cjk.ascent) / 1024)
        #expect(abs(engine.layout("hi 中", style: style15(), width: 1000).exactHeight - 1.448 * 15) < 1e-9)
        // One font: its own rect; a lone emoji: the emoji font's alone (Pango: 20920, 18000).
        #expect(height("hi", pango()) == units(noto))
        #expect(height("🎉", pango()) == units(rect("Noto Color Emoji")))
    }

    @Test func metricsRoundToWholePangoUnitsWithHalvesUp() {
        // DejaVu Sans at 15 pt (2048 upem, scale 15360): 1901 × 7.5 = 14257.5 → 14258 and
        // −483 × 7.5 = −3622.5 → −3622: 17880 units (Pango: 17880).
        let dejavu = rect("DejaVu Sans")
        #expect(dejavu == PangoLineBox.Extent(ascent: 14258, descent: 3622))
        #expect(height("hi", pango(["DejaVu Sans"])) == units(dejavu))
        // Noto Sans at 12.3 pt is 12595 units (12.2998 pt): 13464 + 3690 = 17154 units,
        // 16.7519 pt (Pango: 17154), where the UIKit rule gives 1.362 × 12.3 = 16.7526.
        let small = rect("Noto Sans", size: 12.3)
        #expect(units(small) == 17154.0 / 1024)
        #expect(height("hi", pango(size: 12.3)) == units(small))
    }

    @Test func theMultipleIsPangosLineHeightAttributeAppliedToEachRun() {
        // pango_attr_line_height_new (1.5): each run becomes ⌈1.5 × height⌉ tall, half the
        // leading above. Noto Sans 20920 → 31380 (5230 above), CJK 22242 → 33363 (5560 above,
        // 5561 below); the line 23378 + 9985 = 33363 units (Pango: 33363, baseline 23378).
        var s = pango()
        s.lineHeightMultiple = 1.5
        let noto = rect("Noto Sans"), cjk = rect("Noto Sans CJK SC")
        func scaled(_ e: PangoLineBox.Extent) -> PangoLineBox.Extent {
            let h = e.ascent + e.descent
            let leading = Int((1.5 * Double(h)).rounded(.up)) - h
            return PangoLineBox.Extent(ascent: e.ascent + leading / 2, descent: e.descent + leading - leading / 2)
        }
        let l = engine.layout("hi 中", style: s, width: 1000)
        let a = scaled(noto), b = scaled(cjk)
        #expect(l.exactHeight == Double(max(a.ascent, b.ascent) + max(a.descent, b.descent)) / 1024)
        #expect(l.exactHeight == 33363.0 / 1024)
        #expect(l.lines[0].baseline == 23378.0 / 1024)
        // The explanation's natural height is the fonts' union, before the attribute.
        #expect(l.lines[0].naturalHeight == Double(max(noto.ascent, cjk.ascent) + max(noto.descent, cjk.descent)) / 1024)
    }

    @Test func aFixedHeightIsTheAbsoluteAttributeAndAMinimumAFloor() {
        // min = max = 25 pt: pango_attr_line_height_new_absolute (25600) on every run; "hi 中"
        // is 26337 units: CJK's 17818 + (25600 − 22242) / 2 above, Noto Sans's 4500 + 2340
        // below (Pango: 26337). A fixed height smaller than the font is kept (15 pt: 15360).
        var fixed = pango()
        fixed.minimumLineHeight = 25
        fixed.maximumLineHeight = 25
        #expect(height("hi 中", fixed) == 26337.0 / 1024)
        fixed.minimumLineHeight = 15
        fixed.maximumLineHeight = 15
        #expect(height("hi", fixed) == 15)
        // A minimum alone is the absolute height with a factor of 1: at least 22 pt, but a
        // 20.43 pt line stays when the minimum is 15 (absolute alone would cut it to 15).
        var minimum = pango()
        minimum.minimumLineHeight = 22
        let l = engine.layout("hi", style: minimum, width: 1000)
        #expect(l.exactHeight == 22)
        #expect(l.lines[0].baseline == Double(16420 + (22528 - 20920) / 2) / 1024)
        minimum.minimumLineHeight = 15
        #expect(height("hi", minimum) == units(rect("Noto Sans")))
        // lineHeightEm is the absolute height em × size: 1.4 × 15 = 21 pt.
        var em = pango()
        em.lineHeightEm = 1.4
        #expect(height("a\nb", em) == 42)
    }

    @Test func lineSpacingIsLayoutSpacingInWholeUnits() {
        // pango_layout_set_spacing (3 × 1024): 3 × 20920 + 2 × 3072 = 68904 (Pango: 68904).
        var s = pango()
        s.lineSpacing = 3
        #expect(height("a\nb\nc", s) == 68904.0 / 1024)
        s.lineSpacing = 3.0004  // 3072.41 units → 3072
        #expect(height("a\nb\nc", s) == 68904.0 / 1024)
    }

    @Test func riseRaisesARunsRectAndBoxesAreTheirShapeRects() {
        // "a" + "b" raised 5 pt (pango_attr_rise_new (5120)): 16420 + 5120 above, 4500 below
        // = 26040 units (Pango: 26040, baseline 21540); lowered 5 pt, the same height with
        // the baseline at 16420.
        var up = AttributedText("a")
        up.append("b", TextAttributes(baselineOffset: 5))
        let raised = engine.layout(up, style: pango(), width: 1000)
        #expect(raised.exactHeight == 26040.0 / 1024)
        #expect(raised.lines[0].baseline == 21540.0 / 1024)
        var down = AttributedText("a")
        down.append("b", TextAttributes(baselineOffset: -5))
        let lowered = engine.layout(down, style: pango(), width: 1000)
        #expect(lowered.exactHeight == 26040.0 / 1024)
        #expect(lowered.lines[0].baseline == 16420.0 / 1024)
        // A 20 × 30 box 8 pt below the baseline: its shape rect is 22 pt above and 8 below,
        // so the line is 22 + 8 pt (the text's 16420 / 4500 units are inside it).
        var box = AttributedText("a")
        box.append(InlineBox(width: 20, height: 30, baselineOffset: -8))
        let l = engine.layout(box, style: pango(), width: 1000)
        #expect(l.exactHeight == 30)
        #expect(l.lines[0].baseline == 22)
        // With 1.5 the box's rect grows as a run's: 45 pt, 7.5 above (leading 15360 / 2).
        var s = pango()
        s.lineHeightMultiple = 1.5
        let tall = engine.layout(box, style: s, width: 1000)
        #expect(tall.exactHeight == 45)
        #expect(tall.lines[0].baseline == 29.5)
    }

    @Test func theUnmeasurableFallbackIsOneLineUnderTheSameRule() {
        // Width NaN answers one line of the primary font with the line-height rules applied:
        // under the pango rule the attributes too (1.5: 31380 units, 31 pt on the 1/2 grid).
        for configure in [{ (s: inout TextStyle) in s.lineHeightMultiple = 1.5 }, { $0.minimumLineHeight = 22 },
                          { $0.lineHeightEm = 1.4 }, { $0.minimumLineHeight = 25; $0.maximumLineHeight = 25 }] {
            var s = pango(["Noto Sans"])
            configure(&s)
            let fallback = engine.measure("hi", style: s, width: .nan).height
            #expect(fallback == engine.measure("hi", style: s, width: 300).height, "\(s.lineHeightMultiple) \(s.minimumLineHeight)")
        }
    }

    @Test func anEmptyLineTakesTheLayoutFont() {
        // "中\n\nx": the empty line is the layout font's (Noto Sans) 20920 units, not CJK's
        // (Pango: 22242 + 20920 + 20920).
        let cjk = rect("Noto Sans CJK SC"), noto = rect("Noto Sans")
        #expect(height("中\n\nx", pango()) == (units(cjk) + 2 * units(noto)))
    }
}
