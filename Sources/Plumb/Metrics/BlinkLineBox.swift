/// Blink's CSS line box (`LayoutConventions.LineHeightRule.blink`), as integer arithmetic in
/// layout units (1/64 of a device pixel), measured in Chromium 156 on Linux at device scales
/// 1, 2 and 3 (`Tests/Conformance/chromium_heights.py`, `Documentation/Accuracy.md`).
///
/// - A font's box: its size in device pixels truncated to 1/100 (Blink's font cache key),
///   ascent and descent = (upem fraction in `Float`) × that size, each rounded half up to a
///   whole device pixel; where glyphs sit at subpixels (`SubpixelPositioning`) a font whose
///   descent rounded down takes one pixel from its ascent.
///   Its line gap, rounded, is leading: ⌊gap / 2⌋ above, the rest below.
/// - `line-height: normal`: the union (highest ascent, deepest descent) of the first font's
///   box (the root inline box's strut, on every line) and the box of every font on the line.
/// - A fixed line height: exactly that many layout units; the strut's half-leading
///   (⌊(height − ascent − descent) / 2⌋ whole pixels) puts the baseline.
/// - Rich text: each run style on the line adds its strut (its first font's box, with its
///   own line height when fixed: CSS's inline box of a span), faces raised by their run's
///   baseline offset; the first font is the first run's (CSS: the paragraph's).
///
/// - Complexity: O(fonts on the line).
/// - Thread safety: pure functions.
enum BlinkLineBox {
    /// Layout units per device pixel.
    static let unitsPerPixel = 64

    /// A box above and below the baseline, in layout units.
    struct Extent {
        var ascent: Int
        var descent: Int

        /// The union of two boxes on one baseline.
        mutating func unite(_ other: Extent) {
            ascent = max(ascent, other.ascent)
            descent = max(descent, other.descent)
        }
    }

    /// The line height and baseline (points) of a line whose fonts are `set`: with a fixed
    /// height (`fixedUnits > 0`; `em` > 0 when it is a multiple of each style's font size),
    /// else `line-height: normal`. Every run style on the line adds its own strut (CSS's
    /// inline box of a span), the first font being the root's.
    static func natural(
        of set: LineHeightModel.FontSet, in fonts: Packed<PreparedText.FontLine>, scale: Double,
        subpixels: LayoutConventions.SubpixelPositioning, fixedUnits: Int, em: Double = 0
    ) -> (height: Double, ascender: Double) {
        guard let primary = fonts.first else { return (0, 0) }
        let pointsPerUnit = 1 / (Double(unitsPerPixel) * scale)
        var line: Extent
        if fixedUnits > 0 {
            line = fixedBox(primary, units: fixedUnits, scale: scale, subpixels: subpixels)
            set.forEach(count: fonts.count) { i in
                let f = fonts[i]
                // An inline box keeps its own height; fallback fonts do not count.
                if f.em == nil { line.unite(box(f, scale: scale, subpixels: subpixels)) }
                guard Int(f.strut) < fonts.count, f.strut != 0 else { return }
                let strut = fonts[Int(f.strut)]
                let units = em > 0 ? Self.fixedUnits(em: em, size: strut.em?.size ?? 0, scale: scale) : fixedUnits
                line.unite(fixedBox(strut, units: units, scale: scale, subpixels: subpixels))
            }
        } else {
            line = withLeading(primary, scale: scale, subpixels: subpixels)
            set.forEach(count: fonts.count) { i in
                let f = fonts[i]
                // The first font's box is the line's already (a union is idempotent).
                if i != 0 { line.unite(withLeading(f, scale: scale, subpixels: subpixels)) }
                if Int(f.strut) < fonts.count, f.strut != 0 {
                    line.unite(withLeading(fonts[Int(f.strut)], scale: scale, subpixels: subpixels))
                }
            }
        }
        return (Double(line.ascent + line.descent) * pointsPerUnit, Double(line.ascent) * pointsPerUnit)
    }

    /// A font's strut in a line box `units` tall: the leading split with ⌊leading / 2⌋ whole
    /// pixels above (`LayoutUnit / 2` truncates toward zero, then `Floor()`).
    static func fixedBox(
        _ f: PreparedText.FontLine, units: Int, scale: Double, subpixels: LayoutConventions.SubpixelPositioning
    ) -> Extent {
        let strut = box(f, scale: scale, subpixels: subpixels)
        let above = floorToPixel((units - strut.ascent - strut.descent) / 2)
        return Extent(ascent: strut.ascent + above, descent: units - strut.ascent - above)
    }

    /// A font's box with half its rounded line gap above and the rest below
    /// (`line-height: normal` is ascent + descent + gap).
    static func withLeading(
        _ f: PreparedText.FontLine, scale: Double, subpixels: LayoutConventions.SubpixelPositioning
    ) -> Extent {
        var b = box(f, scale: scale, subpixels: subpixels)
        let gap = lineGap(f, scale: scale)
        let above = floorToPixel(gap / 2)
        b.ascent += above
        b.descent += gap - above
        return b
    }

    /// A font's ascent and descent (layout units), rounded as Blink's `FontMetrics`; raised by
    /// the run's baseline offset. Faces without em metrics (inline boxes) keep their numbers.
    static func box(
        _ f: PreparedText.FontLine, scale: Double, subpixels: LayoutConventions.SubpixelPositioning
    ) -> Extent {
        guard let em = f.em else {
            return Extent(
                ascent: units(f.ascender * scale), descent: units((f.heightWithoutLeading - f.ascender) * scale))
        }
        let px = devicePixelSize(em.size, scale: scale)
        let ascent = em.ascent * px
        let descent = em.descent * px
        // SkScalarRoundToScalar: floor(x + 0.5) in double.
        var a = (Double(ascent) + 0.5).rounded(.down)
        var d = (Double(descent) + 0.5).rounded(.down)
        let borrows: Bool
        switch subpixels {
        case .always: borrows = true
        case .familyFontsAboveScaleOne: borrows = scale > 1 && em.hasSystemRenderStyle
        }
        if borrows, d < Double(descent), a >= 1 {
            a -= 1
            d += 1
        }
        let shift = units(em.baselineOffset * scale)
        return Extent(ascent: Int(a) * unitsPerPixel + shift, descent: Int(d) * unitsPerPixel - shift)
    }

    /// The rounded line gap (layout units, whole pixels: `lroundf`).
    static func lineGap(_ f: PreparedText.FontLine, scale: Double) -> Int {
        guard let em = f.em else {
            return units((f.heightWithLeading - f.heightWithoutLeading) * scale)
        }
        let gap = em.lineGap * devicePixelSize(em.size, scale: scale)
        return Int(gap.rounded(.toNearestOrAwayFromZero)) * unitsPerPixel
    }

    /// The font size Blink's font cache creates the face at: size × scale in `Float`,
    /// truncated to 1/100 px (`FontCacheKey`'s precision).
    @inline(__always)
    static func devicePixelSize(_ size: Double, scale: Double) -> Float {
        (Float(size) * Float(scale) * 100).rounded(.down) / 100
    }

    /// `line-height: <px>`: `LayoutUnit::FromFloatRound(px)` of the zoomed length.
    static func fixedUnits(points: Double, scale: Double) -> Int {
        let v = (Float(points) * Float(scale) * Float(unitsPerPixel)).rounded(.toNearestOrAwayFromZero)
        return clampedUnits(Double(v))
    }

    /// `line-height: <number>`: the font size as a layout unit (rounded), times the number as
    /// a percentage in `Float`, truncated to a layout unit (`MinimumValueForLength`).
    static func fixedUnits(em: Double, size: Double, scale: Double) -> Int {
        let fontSize = (Float(size) * Float(scale) * Float(unitsPerPixel)).rounded(.toNearestOrAwayFromZero)
            / Float(unitsPerPixel)
        let percent = Float(em * 100)
        let height = fontSize * percent / 100
        return clampedUnits(Double((height * Float(unitsPerPixel)).rounded(.towardZero)))
    }

    /// Device pixels as layout units, rounded.
    @inline(__always)
    static func units(_ devicePixels: Double) -> Int {
        clampedUnits((devicePixels * Double(unitsPerPixel)).rounded())
    }

    @inline(__always)
    private static func clampedUnits(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(max(-1e15, min(1e15, v)))
    }

    /// Whole pixels toward −∞ (`LayoutUnit::Floor`), in layout units.
    @inline(__always)
    static func floorToPixel(_ u: Int) -> Int {
        (u >> 6) << 6
    }
}
