/// CSS `white-space`: whether spaces and newlines collapse and whether lines wrap.
///
/// Plumb keeps every space and newline of the text (it measures the string it is given), so
/// the modes differ here in wrapping: `nowrap` and `pre` break only at hard breaks. The
/// collapsing modes (`normal`, `nowrap`, `pre-line`) are exact for a text with nothing to
/// collapse (no run of spaces or tabs, no space at a line's start or around a newline, and for
/// `normal`/`nowrap` no newline); otherwise the cell gets a warning and is measured as written.
/// `break-spaces` (spaces that never hang) is measured as `pre-wrap`, with a warning when the
/// text has a space.
/// Unset: `pre-wrap`, what the `chromium` profile's conformance sets measure.
public enum WhiteSpace: String, CaseIterable, Hashable, Sendable, Codable {
    /// Spaces and newlines collapse; lines wrap.
    case normal
    /// Spaces and newlines collapse; lines do not wrap.
    case nowrap
    /// Everything is kept; lines break only at newlines.
    case pre
    /// Everything is kept; lines wrap, trailing spaces hang.
    case preWrap = "pre-wrap"
    /// Spaces collapse, newlines are kept; lines wrap.
    case preLine = "pre-line"
    /// As `pre-wrap`, with spaces that take room at a line's end and may wrap.
    case breakSpaces = "break-spaces"

    /// Whether lines wrap at the width (`nowrap` and `pre`: only at hard breaks).
    var wraps: Bool { self != .nowrap && self != .pre }
    /// Whether runs of spaces and newlines would collapse.
    var collapsesSpaces: Bool { self == .normal || self == .nowrap || self == .preLine }
}

/// CSS `word-break`: where words may break between letters.
public enum WordBreak: String, CaseIterable, Hashable, Sendable, Codable {
    /// The line-breaking rules' opportunities (UAX #14).
    case normal
    /// Also between any two letters or digits of a word (CJK-style breaking for every script).
    case breakAll = "break-all"
    /// No break between two CJK letters (ideographs, kana, Hangul): CJK text breaks at spaces
    /// and punctuation only, as Korean usually does (UIKit's `hangulWordPriority` for Hangul).
    case keepAll = "keep-all"
}

/// CSS `overflow-wrap`: whether a word longer than the line is cut.
public enum OverflowWrap: String, CaseIterable, Hashable, Sendable, Codable {
    /// A word longer than the line overflows it whole, on a line of its own (Pango's
    /// `WRAP_WORD`): the line is wider than the box, and so is the measured width.
    case normal
    /// A word longer than the line is cut between clusters (UIKit's word wrapping, Pango's
    /// `WRAP_WORD_CHAR`): Plumb's default.
    case breakWord = "break-word"
    /// As `breakWord` for line breaking (they differ only in min-content sizes).
    case anywhere
}

/// CSS `line-break`: how strictly CJK text breaks (ICU's `lb` locale keyword).
public enum LineBreakStrictness: String, CaseIterable, Hashable, Sendable, Codable {
    /// The profile's rules (`normal` under `chromium`).
    case auto
    /// Also before small kana, iteration marks and some CJK punctuation (ICU `@lb=loose`).
    case loose
    /// Before small kana and the prolonged sound mark too (ICU `@lb=normal`).
    case normal
    /// No break before small kana or the prolonged sound mark (ICU's default rules).
    case strict
    /// A break between any two grapheme clusters (spaces still hang).
    case anywhere
}

/// CSS `text-wrap`: whether and how lines wrap.
public enum TextWrap: String, CaseIterable, Hashable, Sendable, Codable {
    /// Greedy wrapping: each line holds as much as fits.
    case wrap
    /// Lines break only at hard breaks.
    case nowrap
    /// Blink balances the lines' widths keeping their number: heights are those of `wrap`;
    /// Plumb breaks greedily (line starts differ) and warns.
    case balance
    /// Blink avoids a short last line: Plumb breaks greedily and warns.
    case pretty
}
