/// How a local font of a prepared text turns a cluster's shaped advance (font units) into
/// points: the one formula for the preparer (word widths) and for every later read of a
/// grapheme's advance (`PreparedText.advances`), so both give the same bits.
///
/// `freeType` scales like Chromium on Linux, whose glyph advances come from FreeType in 16.16
/// fixed point: the size in 26.6, the scale `x_scale = round(size₂₆.₆ · 2¹⁶ / upem)`, the
/// advance `round(units · x_scale / 64)` / 2¹⁶ px. A full-width glyph at 15 px is then
/// 15 + 7/65536 px, and ten of them do not fit a 150 px line in Chromium. (HarfBuzz applies
/// kerning at the exact scale; folding a cluster's kerning into the FreeType scale is off by
/// under 10⁻⁵ px per cluster.) A bitmap-only color font (Noto Color Emoji) advances in whole
/// pixels at its strike, scaled to the size: 136 px at 109 ppem is 18.7156 px at 15 px
/// (exact scaling: 18.6768).
struct AdvanceScale: Sendable, BitwiseCopyable {
    var size: Double
    var upem: Double
    /// `Font.bitmapStrikePPEM` (0 for outline fonts).
    var strikePPEM: Double
    /// FreeType's 16.16 `x_scale` at `size`.
    var freeTypeXScale: Double
    var letterSpacing: Double
    /// An inline box's width (its grapheme's advance), 0 for a font.
    var boxWidth: Double
    /// `LayoutConventions.advanceScaling == .freeTypeFixedPoint`.
    var freeType: Bool

    /// The advance in points of `units` font units, letter spacing included, never negative.
    ///
    /// - Complexity: O(1), a few floating-point operations.
    @inline(__always)
    func points(units: Int32) -> Double {
        let points: Double
        if freeType && strikePPEM > 0 {
            // A bitmap font: whole pixels at the strike, scaled to the size (16.16).
            let atStrike = (Double(units) * strikePPEM / upem).rounded()
            points = (atStrike * size / strikePPEM * 65536).rounded() / 65536
        } else if freeType {
            // ⌊x⌋ by truncation where that is exact (0 < x < 2⁵², as `PixelGrid.roundedDown`,
            // a layer above): no libm call per advance; `rounded(.down)` elsewhere.
            let x = (Double(units.magnitude) * freeTypeXScale + 32) / 64
            let magnitude = x > 0 && x < 0x1p52 ? Double(Int64(x)) : x.rounded(.down)
            points = (units < 0 ? -magnitude : magnitude) / 65536
        } else {
            points = Double(units) * size / upem
        }
        return max(0, points + letterSpacing)
    }
}

extension PreparedText {
    /// Each grapheme's advance in points, recomputed from its shaped units and its font's
    /// `AdvanceScale` (a palette entry's or a 2–4-byte unit instead of 8 bytes): a tab's is 0 (its width
    /// depends on the line), an inline box's is the box's width.
    ///
    /// - Thread safety: immutable views into the owning `PreparedText`.
    struct Advances: @unchecked Sendable {
        let columns: GraphemeColumns
        let scales: Packed<AdvanceScale>

        var count: Int { columns.count }

        /// - Complexity: O(1): the grapheme's flags, font and unit (one palette entry or three
        ///   column reads), then its font's scale.
        @inline(__always)
        subscript(g: Int) -> Double {
            let f: GraphemeFlags, font: UInt8, units: Int32
            if columns.palette != nil {
                let e = columns.entry(g)
                (f, font, units) = (e.flags, e.font, Int32(e.unit))
            } else {
                (f, font, units) = (columns.flags(g), columns.font(g), columns.unitColumn[g])
            }
            if f.contains(.tab) { return 0 }
            let scale = scales[Int(font)]
            if f.contains(.inlineBox) { return scale.boxWidth }
            return scale.points(units: units)
        }
    }
}
