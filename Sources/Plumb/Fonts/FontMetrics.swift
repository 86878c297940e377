internal import CHarfBuzz

/// Vertical metrics of a face in font units.
///
/// Ascender, descender and line gap come from the `hhea` table, or from `OS/2` typo metrics
/// when the font sets `USE_TYPO_METRICS` (fsSelection bit 7). HarfBuzz's
/// `HB_OT_METRICS_TAG_HORIZONTAL_*` implement exactly that rule (Documentation/Decisions.md).
struct FontMetrics: Hashable, Sendable {
    /// Distance from the baseline up to the top of the line box (positive).
    var ascender: Double
    /// Distance from the baseline down to the bottom of the line box (negative or zero).
    var descender: Double
    /// Extra space the font asks for between lines (≥ 0).
    var lineGap: Double
    var upem: Double

    init(ascender: Double, descender: Double, lineGap: Double, upem: Double) {
        self.ascender = ascender
        self.descender = descender
        self.lineGap = max(0, lineGap)
        self.upem = upem
    }

    init(hbFont: OpaquePointer) {
        func position(_ tag: StaticString) -> Double? {
            var value: hb_position_t = 0
            let t = hb_ot_metrics_tag_t(rawValue: Font.tag(tag))
            return hb_ot_metrics_get_position(hbFont, t, &value) != 0 ? Double(value) : nil
        }
        var xScale: Int32 = 0
        var yScale: Int32 = 0
        hb_font_get_scale(hbFont, &xScale, &yScale)
        let upem = Double(max(1, yScale))
        // hasc / hdsc / hlgp: hhea, or OS/2 typo when USE_TYPO_METRICS is set.
        var ascender = position("hasc") ?? 0
        var descender = position("hdsc") ?? 0
        let gap = position("hlgp") ?? 0
        if ascender == 0 && descender == 0 {
            // A font without usable hhea metrics: fall back to the em box.
            ascender = upem * 0.8
            descender = -upem * 0.2
        }
        self.init(ascender: ascender, descender: descender, lineGap: gap, upem: upem)
    }

    /// Ascender in points at `size`.
    @inline(__always) func ascender(atSize size: Double) -> Double { ascender * size / upem }
    /// Descender (≤ 0) in points at `size`.
    @inline(__always) func descender(atSize size: Double) -> Double { descender * size / upem }
    /// Line gap in points at `size`.
    @inline(__always) func lineGap(atSize size: Double) -> Double { lineGap * size / upem }
    /// Natural line height at `size`: ascender − descender, plus the gap with font leading.
    @inline(__always) func lineHeight(atSize size: Double, includingLeading: Bool) -> Double {
        ((ascender - descender) + (includingLeading ? lineGap : 0)) * size / upem
    }
}
