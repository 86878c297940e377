/// Unicode facts about grapheme clusters that font selection needs. Pure Swift, no state.
enum ClusterClassifier {
    /// Whether a scalar needs no glyph of its own (joiners, variation selectors, tags, other
    /// default-ignorables and controls): any font "covers" it, and HarfBuzz hides it.
    @inline(__always)
    static func isIgnorableForCoverage(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return true }
        if v < 0x00AD { return false }
        // Default_Ignorable_Code_Point (DerivedCoreProperties, Unicode 15.1) spelled out: a
        // property lookup per cluster would be a measurable share of preparing CJK text.
        switch v {
        case 0x00AD, 0x034F, 0x061C, 0x115F...0x1160, 0x17B4...0x17B5, 0x180B...0x180F,
            0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF,
            0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }

    /// Whether a cluster should be drawn in emoji (color) presentation: an explicit U+FE0F,
    /// a default-emoji-presentation base, a skin-tone modifier or a regional indicator pair;
    /// U+FE0E forces text presentation.
    static func wantsEmojiPresentation(_ scalars: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first else { return false }
        if first.value < 0x00A9 { 
            // ASCII keycap bases (#, *, 0-9) are emoji only with U+FE0F.
            return scalars.contains { $0.value == 0xFE0F }
        }
        // No Emoji_Presentation character lies below U+231A or in U+2B56–U+1F003 (CJK, Hangul,
        // most scripts): skip the property lookup there.
        let v = first.value
        var sawBaseEmoji = v < 0x231A || (0x2B56..<0x1F004).contains(v) ? false : first.properties.isEmojiPresentation
        for s in scalars {
            switch s.value {
            case 0xFE0E: return false
            case 0xFE0F: return true
            case 0x1F3FB...0x1F3FF: sawBaseEmoji = true
            case 0x1F1E6...0x1F1FF: sawBaseEmoji = true
            default: break
            }
        }
        return sawBaseEmoji
    }

    /// Whether the cluster is CJK (Han, kana, Hangul, Bopomofo, CJK punctuation and
    /// full-width forms), for the per-script font preference.
    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x30FF, 0x3100...0x318F,
            0x3190...0x31FF, 0x3200...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F,
            0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
            0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Whitespace that hangs past the line end and never causes a wrap (CSS `white-space:
    /// normal` spaces; not NBSP, figure space or the ideographic space).
    @inline(__always)
    static func isHangingSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F: true
        default: false
        }
    }

    /// The language fontconfig should sort fallback fonts for, from a scalar's script (the
    /// idea of Pango's `pango_script_get_sample_language`); `nil` for Latin, common and
    /// inherited characters, which use the configured language.
    static func sampleLanguage(of s: Unicode.Scalar) -> String? {
        guard s.value >= 0x0370 else { return nil }
        return sampleLanguage(forScript: UnicodeScript.script(of: s))
    }

    /// The sample language of a script; `nil` for Latin and unknown.
    static func sampleLanguage(forScript script: ScriptTag) -> String? { sampleLanguages[script] }

    /// Script tag → sample language, built once (lookups happen per shaped segment).
    static let sampleLanguages: [ScriptTag: String] = Dictionary(uniqueKeysWithValues: [
        (ScriptTag("Arab"), "ar"),
        (ScriptTag("Hebr"), "he"),
        (ScriptTag("Thai"), "th"),
        (ScriptTag("Cyrl"), "ru"),
        (ScriptTag("Grek"), "el"),
        (ScriptTag("Armn"), "hy"),
        (ScriptTag("Geor"), "ka"),
        (ScriptTag("Deva"), "hi"),
        (ScriptTag("Beng"), "bn"),
        (ScriptTag("Guru"), "pa"),
        (ScriptTag("Gujr"), "gu"),
        (ScriptTag("Orya"), "or"),
        (ScriptTag("Taml"), "ta"),
        (ScriptTag("Telu"), "te"),
        (ScriptTag("Knda"), "kn"),
        (ScriptTag("Mlym"), "ml"),
        (ScriptTag("Sinh"), "si"),
        (ScriptTag("Laoo"), "lo"),
        (ScriptTag("Tibt"), "bo"),
        (ScriptTag("Mymr"), "my"),
        (ScriptTag("Khmr"), "km"),
        (ScriptTag("Ethi"), "am"),
        (ScriptTag("Thaa"), "dv"),
        (ScriptTag("Syrc"), "syr"),
        (ScriptTag("Mong"), "mn"),
        (ScriptTag("Hang"), "ko"),
        (ScriptTag("Hira"), "ja"),
        (ScriptTag("Kana"), "ja"),
        (ScriptTag("Bopo"), "zh-tw"),
        (ScriptTag("Hani"), "zh-cn"),
    ])
}
