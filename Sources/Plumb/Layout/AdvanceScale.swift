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
            points = (atStrike * size / strikePPEM * Self.fixed16Dot16).rounded() / Self.fixed16Dot16
        } else if freeType {
            // ⌊x⌋ without libm or an integer conversion where that is exact (0 < x < 2⁵²):
            // ``floorBelow2p52(_:)``; `rounded(.down)` elsewhere.
            let x = (Double(units.magnitude) * freeTypeXScale + Self.fixed26Dot6 / 2) / Self.fixed26Dot6
            let magnitude = x > 0 && x < 0x1p52 ? Self.floorBelow2p52(x) : x.rounded(.down)
            points = (units < 0 ? -magnitude : magnitude) / Self.fixed16Dot16
        } else {
            points = Double(units) * size / upem
        }
        return max(0, points + letterSpacing)
    }

    /// One in FreeType's 16.16 fixed point (`FT_Fixed`: scales and advances in 1/65536).
    static let fixed16Dot16: Double = 65536
    /// One in FreeType's 26.6 fixed point (`FT_F26Dot6`: sizes and positions in 1/64 pixel).
    static let fixed26Dot6: Double = 64

    /// `x.rounded(.down)` for 0 ≤ x < 2⁵² in four floating-point operations: x + 2⁵² lies in
    /// [2⁵², 2⁵³), where doubles are the integers, so the sum rounds x to an integer r (to
    /// nearest) and r = (x + 2⁵²) − 2⁵² exactly; ⌊x⌋ is r, or r − 1 when r > x (both exact).
    /// No libm call and no checked `Int64` conversion (its range tests cost ~10 instructions
    /// per advance); +0 for x < 1, as `Double(Int64(x))` gives.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func floorBelow2p52(_ x: Double) -> Double {
        let r = (x + 0x1p52) - 0x1p52
        return r > x ? r - 1 : r
    }
}

extension AdvanceScale {
    /// `scale.pointee.points(units:)`, out of line: a loop that calls it rarely keeps the
    /// scale's fields out of its registers.
    @inline(never)
    static func points(_ scale: UnsafePointer<AdvanceScale>, units: Int32) -> Double {
        scale.pointee.points(units: units)
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

extension PreparedText.Advances {
    /// Adds the advances of graphemes `g..<end` — of local font `font`, neither tabs nor
    /// inline boxes (a run of one-grapheme words, `Word.breaksAfterEveryGrapheme`) — one by
    /// one onto `x` while `fits(sum, advance, g)` holds for the sum with grapheme `g`'s
    /// advance: the first grapheme that does not fit (`end` if all do) and the sum before it.
    /// Each advance is the font's `points(units:)`, the same bits as the subscript's; it is
    /// computed again only where the units change (a run of ideographs has mostly one width),
    /// and the column's width is tested once, not per grapheme.
    ///
    /// - Complexity: O(graphemes added).
    @inline(__always)
    func sum(
        from g: Int, to end: Int, font: UInt8, onto x: Double, while fits: (_ sum: Double, _ advance: Double, _ g: Int) -> Bool
    ) -> (end: Int, sum: Double) {
        let scale = scales.base.unsafelyUnwrapped + Int(font)
        // The advance changes only where `key(g)` does: a unit, or a palette index (members
        // share one font, so an index stands for one unit).
        @inline(__always) func scan<K: Equatable>(_ key: (Int) -> K, units: (K) -> Int32) -> (end: Int, sum: Double) {
            var g = g
            var sum = x
            var lastKey = key(g)
            var advance = AdvanceScale.points(scale, units: units(lastKey))
            while g < end {
                let k = key(g)
                if k != lastKey {
                    lastKey = k
                    advance = AdvanceScale.points(scale, units: units(k))
                }
                let next = sum + advance
                guard fits(next, advance, g) else { break }
                sum = next
                g += 1
            }
            return (g, sum)
        }
        guard g < end else { return (g, x) }
        if let palette = columns.palette {
            let indexes = columns.bytes.unsafelyUnwrapped
            return scan({ indexes[$0] }, units: { Int32(palette[Int($0)].unit) })
        }
        let units = columns.units.unsafelyUnwrapped
        if columns.narrowUnits {
            return scan({ Int32(units.load(fromByteOffset: $0 &<< 1, as: Int16.self)) }, units: { $0 })
        }
        return scan({ units.load(fromByteOffset: $0 &<< 2, as: Int32.self) }, units: { $0 })
    }
}
