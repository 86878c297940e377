/// What the `pango` profile needs to align a line's runs as Pango 1.50 does
/// (`apply_baseline_shift` in pango-layout.c): every run of a line sits on the baseline that
/// the script of the line's first run names, so a run whose font puts that baseline elsewhere
/// is moved by the difference (`PangoLineBox`).
///
/// Recorded only by the `pango` profile, and only for texts where it can move a run (a
/// hanging or ideographic script somewhere, or a face with a non-zero roman baseline); other
/// texts and profiles carry `nil` (``PreparedText/pangoBaselines``).
///
/// - Thread safety: immutable; share freely.
final class PangoBaselines: Sendable {
    /// The baseline a line's runs align on: `hb_ot_layout_get_horizontal_baseline_tag_for_script`
    /// of the first run's script (HarfBuzz 6.0.0).
    enum Tag: UInt8, Sendable {
        /// `romn`: every script not below.
        case roman = 0
        /// `hang`: Devanagari, Bengali, Gurmukhi, Gujarati, Tibetan and other Indic scripts.
        case hanging = 1
        /// `icfb` (ideographic face bottom): Han, Hiragana, Katakana, Hangul, Bopomofo and others.
        case ideographic = 2
    }

    /// One face's baselines at its size, in Pango units above the roman baseline (negative:
    /// below), as `hb_ot_layout_get_baseline_with_fallback` gives them at a scale of the size
    /// in Pango units (the font's `BASE` table, else HarfBuzz's synthesis).
    struct Face: Sendable, Hashable {
        var roman: Int32
        var hanging: Int32
        var ideographic: Int32

        /// The baseline named by `tag`.
        @inline(__always)
        subscript(tag: Tag) -> Int32 {
            switch tag {
            case .roman: roman
            case .hanging: hanging
            case .ideographic: ideographic
            }
        }
    }

    /// Where the baseline tag of the graphemes' resolved scripts changes: the grapheme index
    /// and the tag from there on (ascending; roman before the first).
    struct Change: Sendable, Equatable {
        var grapheme: Int32
        var tag: Tag
    }

    /// Per local font (`PreparedText.fonts`), its baselines.
    let faces: [Face]
    /// The tag changes over the text (one entry per change, not per grapheme).
    let changes: [Change]

    /// A table of `faces` (one per local font) and tag `changes`.
    init(faces: [Face], changes: [Change]) {
        self.faces = faces
        self.changes = changes
    }

    /// The tag of grapheme `g`'s script.
    ///
    /// - Complexity: O(log changes).
    func tag(at g: Int32) -> Tag {
        var lo = 0
        var hi = changes.count
        while lo < hi {  // the first change after g
            let mid = (lo + hi) >> 1
            if changes[mid].grapheme <= g { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? .roman : changes[lo - 1].tag
    }

}
