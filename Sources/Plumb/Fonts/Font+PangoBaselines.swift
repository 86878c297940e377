internal import CHarfBuzz

extension Font {
    /// The face's roman, hanging and ideographic-face-bottom baselines at a scale of `scale`
    /// (a size in Pango units), as Pango 1.50's `apply_baseline_shift` asks HarfBuzz for them:
    /// `hb_ot_layout_get_baseline_with_fallback` (the `BASE` table, else HarfBuzz's synthesis:
    /// roman 0, hanging 0.6 em, ideographic bottom = descender + (ascender − descender) / 10 of
    /// the scaled extents), horizontal, for the script the tag is chosen for (Latin, Devanagari,
    /// Han) and no language.
    ///
    /// Pango passes each run's own script and language; the installed faces' `BASE` tables
    /// (Noto Sans CJK) give the same values for every script record, so one set per face and
    /// size is kept (`Documentation/Decisions.md`, "Pango's baseline alignment").
    ///
    /// - Complexity: O(1) after the first call per scale (a sub-font at that scale, three
    ///   HarfBuzz look-ups), then a dictionary look-up under a lock.
    /// - Thread safety: safe from any thread.
    func pangoBaselines(scale: Int32) -> PangoBaselines.Face {
        if let known = pangoBaselineCache.withLock({ $0[scale] }) { return known }
        let values = Self.baselines(of: hbFace, scale: scale)
        pangoBaselineCache.withLock { $0[scale] = values }
        return values
    }

    /// A font of its own at `scale`, as Pango's (a sub-font of the unit-scale font would round
    /// the extents twice: Noto Sans's ideographic bottom at 15 pt would be −2409, not −2408).
    private static func baselines(of face: OpaquePointer, scale: Int32) -> PangoBaselines.Face {
        let font = hb_font_create(face)!  // never NULL (HarfBuzz's empty font)
        defer { hb_font_destroy(font) }
        hb_font_set_scale(font, scale, scale)
        func baseline(_ tag: StaticString, script: StaticString) -> Int32 {
            var coord: hb_position_t = 0
            hb_ot_layout_get_baseline_with_fallback(
                font, hb_ot_layout_baseline_tag_t(rawValue: Font.tag(tag)), HB_DIRECTION_LTR,
                Font.tag(script), 0, &coord)
            return coord
        }
        return PangoBaselines.Face(
            roman: baseline("romn", script: "latn"), hanging: baseline("hang", script: "deva"),
            ideographic: baseline("icfb", script: "hani"))
    }
}
