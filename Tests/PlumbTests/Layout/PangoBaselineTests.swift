@testable import Plumb
import Testing

/// Pango 1.50's baseline alignment by script under the `pango` profile (`apply_baseline_shift`):
/// every run of a line sits on the baseline the script of the line's first run names, each
/// face's from HarfBuzz (`Font.pangoBaselines`). Expected numbers come from the fonts (run
/// rects from Plumb's `FontMetrics`, baselines from HarfBuzz through Plumb); Pango 1.50.12's
/// own answers are quoted in the comments.
@Suite struct PangoBaselineTests {
    func pango(_ families: [String] = ["Noto Sans", "Noto Sans CJK SC"], size: Double = 15) -> TextStyle {
        profiled(.pango, families, size: size)
    }

    func font(_ family: String) -> Font {
        engine.fonts.cascade(for: FontDescriptor(families: [family])).fonts[0]
    }

    /// A font's run rect in Pango units at `size` (HarfBuzz: font units × scale / upem,
    /// halves up; the scale is the size in Pango units).
    func rect(_ family: String, size: Double = 15) -> PangoLineBox.Extent {
        let m = font(family).metrics
        let scale = (size * 1024).rounded()
        return PangoLineBox.Extent(
            ascent: Int((m.ascender * scale / m.upem + 0.5).rounded(.down)),
            descent: -Int((m.descender * scale / m.upem + 0.5).rounded(.down)))
    }

    func baselines(_ family: String, size: Double = 15) -> PangoBaselines.Face {
        font(family).pangoBaselines(scale: Int32((size * 1024).rounded()))
    }

    func line(_ text: String, _ style: TextStyle) -> (height: Int, baseline: Int) {
        let box = engine.layout(text, style: style, width: 1000).lines[0]
        return (Int((box.rect.height * 1024).rounded()), Int(((box.baseline - box.rect.y) * 1024).rounded()))
    }

    @Test func synthesisedBaselinesFollowTheScaledExtents() {
        // No installed face but Noto Sans CJK has a BASE table: HarfBuzz synthesises the
        // ideographic face bottom as descender + (ascender − descender) / 10 of the scaled
        // extents, the hanging baseline as 0.6 em, the roman one as 0. Noto Sans 15 pt:
        // −4500 + 20920 / 10 = −2408 (Pango moves Latin after 中 by 2408 − 1137 = 1271).
        for family in ["Noto Sans", "DejaVu Sans"] {
            let r = rect(family)
            let b = baselines(family)
            #expect(b.ideographic == Int32(-r.descent + (r.ascent + r.descent) / 10), "\(family)")
            #expect(b.hanging == Int32(15 * 1024 * 6 / 10))
            #expect(b.roman == 0)
        }
        // Noto Sans CJK's BASE: its own ideographic bottom (−1137 at 15 pt), not the synthesis.
        let cjk = rect("Noto Sans CJK SC")
        #expect(baselines("Noto Sans CJK SC").ideographic != Int32(-cjk.descent + (cjk.ascent + cjk.descent) / 10))
    }

    @Test func latinAfterHanIsRaisedToTheIdeographicBaseline() {
        // "中a": the line starts with Han, so Noto Sans's run is raised by CJK's ideographic
        // bottom minus its own and its descent no longer passes CJK's: 22242 units, baseline
        // 17818 (Pango 1.50.12: 22242, 17818). "a中" keeps the roman baseline: 22318 (Pango too).
        let cjk = rect("Noto Sans CJK SC"), latin = rect("Noto Sans")
        let shift = Int(baselines("Noto Sans CJK SC").ideographic - baselines("Noto Sans").ideographic)
        #expect(shift > 0)
        let raised = (ascent: max(cjk.ascent, latin.ascent + shift), descent: max(cjk.descent, latin.descent - shift))
        #expect(line("中a", pango()) == (raised.ascent + raised.descent, raised.ascent))
        #expect(line("中 hi 中", pango()) == (raised.ascent + raised.descent, raised.ascent))
        #expect(line("a中", pango()) == (cjk.ascent + latin.descent, cjk.ascent))
    }

    @Test func theFirstRunsFontIsTheReference() {
        // "1中a": the digit is Common, so it takes Han's script, but it is drawn in Noto Sans:
        // the baseline is Noto Sans's ideographic bottom and CJK is lowered (Pango 1.50.12: CJK's
        // run at y_offset −1271, baseline 16547, 22242 units). With DejaVu Sans: −697, 17121.
        for family in ["Noto Sans", "DejaVu Sans"] {
            let cjk = rect("Noto Sans CJK SC"), latin = rect(family)
            let shift = Int(baselines(family).ideographic - baselines("Noto Sans CJK SC").ideographic)
            let ascent = max(latin.ascent, cjk.ascent + shift)
            let descent = max(latin.descent, cjk.descent - shift)
            #expect(line("1中a", pango([family, "Noto Sans CJK SC"])) == (ascent + descent, ascent), "\(family)")
        }
    }

    @Test func aBoxAtTheLineStartTakesTheFontOfItsObjectReplacementCharacter() {
        // A 10 × 20 box, then 德顿语, in Noto Sans CJK SC alone: Pango draws the box's U+FFFC in
        // the fallback Noto Sans (CJK has no glyph for it), so the reference is Noto Sans's
        // ideographic bottom and CJK's run is lowered by 1271: 20480 + 5695 = 26175 units,
        // baseline 20480 (Pango 1.50.12: 26175, 20480; with CJK as the reference, 24904).
        var text = AttributedText("")
        text.append(InlineBox(width: 10, height: 20, baselineOffset: 0))
        text.append("德顿语")
        let l = engine.layout(text, style: pango(["Noto Sans CJK SC"]), width: 1000)
        let cjk = rect("Noto Sans CJK SC")
        let shift = Int(baselines("Noto Sans").ideographic - baselines("Noto Sans CJK SC").ideographic)
        #expect(shift < 0)
        #expect(Int((l.exactHeight * 1024).rounded()) == 20 * 1024 + cjk.descent - shift)
        #expect(l.lines[0].baseline == 20)
    }

    @Test func eachLineAlignsOnItsOwnFirstRun() {
        // Two lines with the same fonts: the first starts with Han, the second with Latin. The
        // height-only path (which reuses a line's height for the next line of the same fonts)
        // must agree with the layout's line boxes.
        let style = pango()
        let layout = engine.layout("中a\na中", style: style, width: 1000)
        let heights = layout.lines.map { Int(($0.rect.height * 1024).rounded()) }
        #expect(heights == [line("中a", style).height, line("a中", style).height])
        #expect(heights[0] != heights[1])
        let measured = engine.measure("中a\na中", style: style, width: 1000)
        #expect(measured.height == (layout.exactHeight * 2).rounded(.up) / 2)
    }

    @Test func onlyThePangoProfileCarriesBaselines() throws {
        let m = TextMeasurer(fonts: engine.fonts)
        func prepared(_ text: String, _ style: TextStyle) throws -> PreparedText {
            try #require(m.compute(text, style: m.resolve(style), width: 100, scale: 2, extraWarnings: []).prepared)
        }
        var standard = pango()
        standard.compatibility = .standard
        #expect(try prepared("中a", standard).pangoBaselines == nil)
        #expect(try prepared("Hello, world", pango()).pangoBaselines == nil)
        let table = try #require(try prepared("ab 中文 cd", pango()).pangoBaselines)
        // a b ␠ 中 文 ␠ c d: the space after 文 stays in Han's run (Common takes its run's script).
        #expect(table.changes == [
            PangoBaselines.Change(grapheme: 3, tag: .ideographic), PangoBaselines.Change(grapheme: 6, tag: .roman),
        ])
        #expect(table.tag(at: 0) == .roman && table.tag(at: 4) == .ideographic && table.tag(at: 8) == .roman)
    }

    /// A table holds its own changes, not the preparer's scratch array: after a text of many
    /// script changes, a text of two keeps two (it kept the scratch's capacity, ~100 entries
    /// here, and its tier-1 size grew with it).
    @Test func aTableDoesNotKeepTheScratchCapacity() throws {
        let cascade = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15))
        func prepared(_ text: String, by preparer: TextPreparer) -> PreparedText {
            Array(text.utf8).withUnsafeBufferPointer {
                preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: .pango)
            }
        }
        let fresh = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        let used = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        _ = prepared(String(repeating: "ab 中文 ", count: 50), by: used)
        let short = "ab 中文 cd"
        let alone = prepared(short, by: fresh), after = prepared(short, by: used)
        let table = try #require(after.pangoBaselines)
        #expect(table.changes == alone.pangoBaselines?.changes)
        #expect(table.changes.capacity < 8)
        // Within one allocator rounding: Swift sets an array's capacity from
        // `malloc_usable_size`, so a reused chunk can give one column 16 bytes more (seen in 1
        // of 3 runs); the scratch's capacity would add ~800.
        #expect(abs(after.byteSize - alone.byteSize) <= 64, "\(after.byteSize) vs \(alone.byteSize)")
    }
}
