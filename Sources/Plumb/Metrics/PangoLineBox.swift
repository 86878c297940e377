/// Pango 1.50's line logical rects (`LayoutConventions.LineHeightRule.pango`), as integer
/// arithmetic in Pango units (1/1024 pt), read from `pango_layout_line_get_extents_and_height`,
/// `pango_layout_run_get_extents_and_height` and `pango_layout_get_empty_extents_and_height_at_index`
/// (pango-layout.c) and pangocairo's glyph extents, and measured in Pango 1.50.12
/// (`Tests/Conformance/pango_heights.py`, `Documentation/Accuracy.md` "Pango heights").
///
/// - A font's run rect: ascent and descent from HarfBuzz's font extents at a scale of the size
///   in Pango units (`hb_font_get_h_extents`: font units × scale / upem, rounded half up to a
///   whole unit); no line gap. A run's rise (a baseline offset) raises it.
/// - An inline box (a shape attribute): its logical rect, height + offset above the baseline
///   and −offset below, each side in whole units.
/// - The line-height attributes (`pango_attr_line_height_new`, `…_absolute`) apply to each run:
///   its height becomes max(absolute, ⌈factor × height⌉ in `Float`), the difference (leading)
///   split with leading / 2 (truncated toward zero) above and the rest below.
/// - Baseline alignment (`apply_baseline_shift`): every run is moved onto the baseline that
///   the script of the line's first run names — roman, hanging or ideographic face bottom,
///   each face's from HarfBuzz (`PangoBaselines`) — before the line-height attributes.
/// - The line: the union of its runs' rects and the baseline point (an empty rect at the
///   origin starts the union); a line without runs takes the layout font's metrics, which is
///   local font 0 here.
///
/// - Complexity: O(fonts on the line).
/// - Thread safety: pure functions.
enum PangoLineBox {
    /// Pango units per point (`PANGO_SCALE`).
    static let unitsPerPoint = 1024

    /// The paragraph settings in Pango's terms (`LineHeightModel` derives them from a style).
    struct Settings: Hashable, Sendable {
        /// `PANGO_ATTR_LINE_HEIGHT`: the factor each run's height is multiplied by (0 = unset).
        var factor: Double = 0
        /// `PANGO_ATTR_ABSOLUTE_LINE_HEIGHT` in Pango units (0 = unset).
        var absolute: Int = 0

        /// Whether either attribute is set.
        var isSet: Bool { factor != 0 || absolute != 0 }
    }

    /// A rect above and below the baseline, in Pango units.
    struct Extent: Equatable {
        var ascent: Int
        var descent: Int

        /// The union of two rects on one baseline.
        mutating func unite(_ other: Extent) {
            ascent = max(ascent, other.ascent)
            descent = max(descent, other.descent)
        }
    }

    /// How a line's runs move to the baseline of its first run's script
    /// (`apply_baseline_shift`): each run is raised by the first run's font's baseline minus
    /// its own font's, both for the tag of the first run's script (`PangoBaselines`).
    struct Alignment {
        let faces: [PangoBaselines.Face]
        let tag: PangoBaselines.Tag
        /// The first run's font's baseline for `tag` (Pango units).
        let reference: Int32

        /// The alignment of a line whose first grapheme's script has `tag` and whose first
        /// grapheme is in local font `firstFont`.
        init(_ table: PangoBaselines, tag: PangoBaselines.Tag, firstFont: Int) {
            faces = table.faces
            self.tag = tag
            reference = firstFont < faces.count ? faces[firstFont][tag] : 0
        }

        /// How far local font `i`'s runs are raised (Pango units; a run's `y_offset`).
        @inline(__always)
        func shift(ofFont i: Int) -> Int {
            i < faces.count ? Int(reference) - Int(faces[i][tag]) : 0
        }
    }

    /// The line height and baseline (points) of a line whose fonts are `set`, each font's
    /// runs moved by `alignment` (none when nil).
    static func natural(
        of set: LineHeightModel.FontSet, in fonts: Packed<PreparedText.FontLine>, settings: Settings,
        alignment: Alignment? = nil
    ) -> (height: Double, ascender: Double) {
        // The union starts from an empty rect at the origin: the baseline is always inside.
        var line = Extent(ascent: 0, descent: 0)
        set.forEach(count: fonts.count) { i in
            line.unite(lineHeight(runRect(fonts[i], shift: alignment?.shift(ofFont: i) ?? 0), settings))
        }
        let perPoint = 1 / Double(unitsPerPoint)
        return (Double(line.ascent + line.descent) * perPoint, Double(line.ascent) * perPoint)
    }

    /// The height (points) of a line of the one font `f`: the unmeasurable-width fallback.
    static func height(of f: PreparedText.FontLine, settings: Settings) -> Double {
        var line = Extent(ascent: 0, descent: 0)
        line.unite(lineHeight(runRect(f), settings))
        return Double(line.ascent + line.descent) / Double(unitsPerPoint)
    }

    /// A run's logical rect in the font `f` (raised by its rise and by `shift`, Pango units),
    /// or an inline box's.
    static func runRect(_ f: PreparedText.FontLine, shift: Int = 0) -> Extent {
        guard let em = f.em else {
            // A shape attribute's rect: y = −(height + offset), height = the box's height.
            let top = units(f.ascender)
            return Extent(ascent: top + shift, descent: units(f.heightWithoutLeading) - top - shift)
        }
        guard em.size > 0 else { return Extent(ascent: 0, descent: 0) }
        // The font's own ascent and descent at its size (FontLine's are raised by the offset).
        let ascent = f.ascender - em.baselineOffset
        let descent = f.heightWithoutLeading - ascent
        let scale = Double(units(em.size))
        let rise = units(em.baselineOffset) + shift
        return Extent(
            ascent: harfBuzzRound(ascent / em.size * scale) + rise,
            descent: -harfBuzzRound(-descent / em.size * scale) - rise)
    }

    /// A run's rect after the line-height attributes.
    @inline(__always)
    static func lineHeight(_ rect: Extent, _ settings: Settings) -> Extent {
        guard settings.isSet else { return rect }
        let height = rect.ascent + rect.descent
        // `ceilf (factor * height)`: the double product rounded to `Float`, then ceiled.
        let scaled = Float(settings.factor * Double(height)).rounded(.up)
        let target = max(settings.absolute, clampedUnits(Double(scaled)))
        let leading = target - height
        return Extent(ascent: rect.ascent + leading / 2, descent: rect.descent + leading - leading / 2)
    }

    /// Points as Pango units (`pango_units_from_double`: ⌊x × 1024 + 0.5⌋).
    @inline(__always)
    static func units(_ points: Double) -> Int {
        clampedUnits((points * Double(unitsPerPoint) + 0.5).rounded(.down))
    }

    /// HarfBuzz's rounding of scaled metrics (`floorf (x + .5f)`: halves go up). The value is
    /// font units × scale / upem, a multiple of 1 / upem; the slack absorbs the last bits of
    /// `Double` arithmetic so an exact half stays a half.
    @inline(__always)
    static func harfBuzzRound(_ x: Double) -> Int {
        clampedUnits((x + 0.5 + 1e-7).rounded(.down))
    }

    @inline(__always)
    private static func clampedUnits(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(max(-1e15, min(1e15, v)))
    }
}
