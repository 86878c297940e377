/// Something Plumb substituted or repaired to give an answer. Warnings travel with the result.
///
/// A warning whose `isFallback` is true means the number is a stand-in (the real layout could
/// not be computed as asked): such results are flagged and never cached.
public enum MeasureWarning: Hashable, Sendable, CustomStringConvertible {
    /// The width was NaN or ≤ 0: no layout is possible; the height is the configured fallback.
    case unmeasurableWidth(Double)
    /// The font size was NaN, ∞ or ≤ 0 and was replaced.
    case invalidFontSize(Double, replacement: Double)
    /// The scale was NaN, ∞, ≤ 0 or outside 0.01...100 and was replaced.
    case invalidScale(Double, replacement: Double)
    /// A spacing or line-height field was NaN, ∞ or negative and was treated as 0.
    case invalidSpacing(field: String, value: Double)
    /// A family of the cascade is not installed; it was skipped. Not a fallback: the result
    /// is what the rest of the cascade gives, and it is cached like any other (the cache keys
    /// hold the installed font set, so installing the family later gives new keys).
    case unknownFontFamily(String)
    /// No family of the cascade exists; the default sans family was used (a stand-in font).
    case cascadeFellBackToDefault(String)
    /// fontconfig found no usable font at all (its configuration is empty, could not be
    /// loaded, or lists no font that loads): the answer is a rough stand-in from a font without
    /// glyphs (half an em per character, one em per line).
    case noFontsAvailable
    /// The text had invalid UTF-8/UTF-16 (e.g. a lone surrogate), repaired with U+FFFD.
    case invalidTextRepaired
    /// The height limit is smaller than the first line: no line fits.
    case heightLimitBelowFirstLine(Double)
    /// A glyph could not be drawn by any installed font (shown as .notdef).
    case missingGlyphs(count: Int)
    /// Another field was invalid and replaced (name, value, replacement).
    case invalidValue(field: String, description: String)
    /// The text is longer than `TextMeasurer.Configuration.maximumTextBytes`: it was not laid
    /// out and the fallback height stands in.
    case textTooLong(bytes: Int, limit: Int)

    /// Whether the result is a stand-in that must never be cached.
    public var isFallback: Bool {
        switch self {
        case .unmeasurableWidth, .invalidFontSize, .invalidScale, .invalidSpacing,
            .cascadeFellBackToDefault, .noFontsAvailable, .invalidValue, .textTooLong:
            true
        case .unknownFontFamily, .invalidTextRepaired, .heightLimitBelowFirstLine, .missingGlyphs:
            false
        }
    }

    /// A sentence for logs saying what was wrong and what was used instead.
    public var description: String {
        switch self {
        case .unmeasurableWidth(let w):
            "width \(w) is not a usable layout width; returned the fallback height"
        case .invalidFontSize(let s, let r): "font size \(s) is invalid; used \(r)"
        case .invalidScale(let s, let r): "scale \(s) is invalid; used \(r)"
        case .invalidSpacing(let f, let v): "\(f) \(v) is invalid; used 0"
        case .unknownFontFamily(let f): "font family '\(f)' is not installed; skipped"
        case .cascadeFellBackToDefault(let f):
            "no family of the cascade is installed; used '\(f)'"
        case .noFontsAvailable:
            "fontconfig found no usable font (empty or unloadable configuration); the size is a stand-in"
        case .invalidTextRepaired: "invalid text was repaired with U+FFFD"
        case .heightLimitBelowFirstLine(let h): "height limit \(h) is below the first line; no line fits"
        case .missingGlyphs(let n): "\(n) cluster(s) have no glyph in any installed font"
        case .invalidValue(let f, let d): "\(f): \(d)"
        case .textTooLong(let n, let limit):
            "the text is \(n) UTF-8 bytes, over the limit of \(limit); returned the fallback height"
        }
    }
}
