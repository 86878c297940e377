internal import CHarfBuzz

/// Unicode script properties (UAX #24) through HarfBuzz's Unicode functions, as ISO 15924 tag
/// values (`hb_script_t`): what font choice, itemization and shaping agree on.
///
/// - Thread safety: HarfBuzz's default Unicode functions are immutable; safe from any thread.
enum UnicodeScript {
    /// The script of a scalar as HarfBuzz's tag value; 0 for Common, Inherited and Unknown.
    ///
    /// - Complexity: O(1), one table look-up.
    @inline(__always)
    static func script(of scalar: Unicode.Scalar) -> UInt32 {
        let s = hb_unicode_script(unicodeFuncs, scalar.value).rawValue
        return s == common || s == inherited || s == unknown ? 0 : s
    }

    // Literal tags ("Zyyy", "Zinh", "Zzzz"; `ScriptTagTests` checks them against `Font.tag`):
    // constants, not lazily initialised globals (a `swift_once` per look-up otherwise).
    static let common: UInt32 = 0x5A79_7979, inherited: UInt32 = 0x5A69_6E68, unknown: UInt32 = 0x5A7A_7A7A

    nonisolated(unsafe) private static let unicodeFuncs = hb_unicode_funcs_get_default()

    /// Whether text in `script` (a tag value; 0 = Common) is written right to left: its
    /// letters are strong R or AL in UAX #9 (`hb_script_get_horizontal_direction`). `nil` for
    /// Common, whose characters are neutral or weak (spaces, punctuation, digits, emoji).
    ///
    /// - Complexity: O(1) (a switch in HarfBuzz).
    static func isRightToLeft(_ script: UInt32) -> Bool? {
        guard script != 0 else { return nil }
        return hb_script_get_horizontal_direction(hb_script_t(rawValue: script)) == HB_DIRECTION_RTL
    }
}

extension UnicodeScript {
    /// The baseline Pango 1.50 aligns a line on when its first run is in `script` (a
    /// resolved script, 0 = Common): `hb_ot_layout_get_horizontal_baseline_tag_for_script`.
    ///
    /// - Complexity: O(1) (a switch in HarfBuzz).
    static func pangoBaselineTag(of script: UInt32) -> PangoBaselines.Tag {
        guard script != 0 else { return .roman }
        let tag = hb_ot_layout_get_horizontal_baseline_tag_for_script(hb_script_t(rawValue: script)).rawValue
        switch tag {
        case Font.tag("hang"): return .hanging
        case Font.tag("icfb"): return .ideographic
        default: return .roman
        }
    }
}
