internal import CHarfBuzz

/// Unicode script properties (UAX #24) through HarfBuzz's Unicode functions, as ISO 15924 tags
/// (`ScriptTag`): what font choice, itemization and shaping agree on.
///
/// - Thread safety: HarfBuzz's default Unicode functions are immutable; safe from any thread.
enum UnicodeScript {
    /// The script of a scalar; `.neutral` for Common, Inherited and Unknown.
    ///
    /// - Complexity: O(1), one table look-up.
    @inline(__always)
    static func script(of scalar: Unicode.Scalar) -> ScriptTag {
        let s = ScriptTag(rawValue: hb_unicode_script(unicodeFuncs, scalar.value).rawValue)
        return s == .common || s == .inherited || s == .unknown ? .neutral : s
    }

    nonisolated(unsafe) private static let unicodeFuncs = hb_unicode_funcs_get_default()

    /// Whether text in `script` is written right to left: its letters are strong R or AL in
    /// UAX #9 (`hb_script_get_horizontal_direction`). `nil` for `.neutral` (Common), whose
    /// characters are neutral or weak (spaces, punctuation, digits, emoji).
    ///
    /// - Complexity: O(1) (a switch in HarfBuzz).
    static func isRightToLeft(_ script: ScriptTag) -> Bool? {
        guard script != .neutral else { return nil }
        return hb_script_get_horizontal_direction(hb_script_t(rawValue: script.rawValue)) == HB_DIRECTION_RTL
    }
}

extension UnicodeScript {
    /// The baseline Pango 1.50 aligns a line on when its first run is in `script` (a
    /// resolved script, `.neutral` = Common): `hb_ot_layout_get_horizontal_baseline_tag_for_script`.
    ///
    /// - Complexity: O(1) (a switch in HarfBuzz).
    static func pangoBaselineTag(of script: ScriptTag) -> PangoBaselines.Tag {
        guard script != .neutral else { return .roman }
        let tag = hb_ot_layout_get_horizontal_baseline_tag_for_script(hb_script_t(rawValue: script.rawValue)).rawValue
        switch tag {
        case Font.tag("hang"): return .hanging
        case Font.tag("icfb"): return .ideographic
        default: return .roman
        }
    }
}
