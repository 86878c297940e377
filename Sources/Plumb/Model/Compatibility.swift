/// Which engine's line-breaking conventions to follow where serious engines differ.
///
/// The differences are deliberate rules, not width arithmetic (see Documentation/Accuracy.md):
/// which font shapes the spaces between clusters of a fallback font, and how much trailing
/// whitespace hangs past the line end.
public enum Compatibility: String, Hashable, Sendable, CaseIterable {
    /// Plumb's own rules (UIKit where known): ICU's UAX #14 plus Unicode 15.1's LB19a
    /// (curly quotes between East Asian characters), a run of spaces takes the font of the
    /// text around it (the cluster before it, as in Pango: a space between two CJK words is
    /// the CJK font's), all trailing spaces hang.
    case standard
    /// Pango 1.50: a run of spaces keeps the font of the cluster before it; leading spaces
    /// take the next cluster's font; a color emoji font never shapes spaces; only the last
    /// trailing space hangs.
    case pango
    /// Chromium (Blink): ICU with CSS `line-break: normal` (breaks before small
    /// kana), a break after every run of spaces, no break after `/`, `\` or `|` between ASCII
    /// characters (nor between `:`/`.` and `%`/`$`), a
    /// break after `-` before a digit when a letter or digit precedes it, and lines that
    /// overflow by less than Blink's 1/64-px layout unit still fit. See Accuracy.md for its
    /// measured agreement.
    case chromium
}
