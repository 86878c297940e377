/// Where words may break with a visible hyphen (CSS `hyphens`; UIKit's `hyphenationFactor`,
/// Pango's `insert-hyphens`).
///
/// Under every profile a line that ends at a hyphenation point shows a hyphen (U+2010 if the
/// font has it, else "-"; in the font of the text before it, under `chromium` in the style's
/// cascade), and the hyphen's advance counts for the line's width. What each mode allows
/// follows the profile's engine:
///
/// | mode | `standard` (TextKit) | `chromium` (CSS `hyphens`) | `pango` (`insert-hyphens`) |
/// |---|---|---|---|
/// | ``none`` | no break at U+00AD | no break at U+00AD | breaks at U+00AD, no hyphen shown |
/// | ``manual`` | U+00AD | U+00AD | U+00AD, and where an overlong word is cut |
/// | ``auto`` | U+00AD and the dictionary | U+00AD and the dictionary | as `manual` (warning) |
///
/// Unset (`TextStyle.hyphenation` nil) is each engine's default: `manual` under `standard` and
/// `chromium`, `none` under `pango` (the profile predicts Pango with `insert-hyphens` off, as
/// its conformance sets are measured).
public enum Hyphenation: String, CaseIterable, Hashable, Sendable, Codable {
    /// Words break only where the line-breaking rules allow, never with a hyphen.
    case none
    /// Words also break at soft hyphens (U+00AD), which show as a hyphen there.
    case manual
    /// As `manual`, and at the points the hyphenation dictionary of the text's
    /// ``TextStyle/language`` gives (libhyphen's patterns, Debian's `hyphen-*` packages).
    case auto
}
