/// A variation axis setting of a variable font: a four-character axis tag and its value, as
/// CSS `font-variation-settings` gives them (`wght` 450, `wdth` 80, `opsz` 24, `GRAD` -50).
///
/// Explicit settings override what the weight, width and optical sizing choose; axes the font
/// lacks are ignored and values are clamped to the axis's range (CSS, CoreText).
public struct FontVariation: Hashable, Sendable, CustomStringConvertible {
    /// Four printable ASCII characters, e.g. `wght`.
    public var tag: String
    /// The axis coordinate in the axis's own units (design coordinates).
    public var value: Double

    /// An axis setting.
    public init(_ tag: String, _ value: Double) {
        self.tag = tag
        self.value = value
    }

    /// Whether the tag is four printable ASCII characters and the value finite.
    public var isValid: Bool { CSSFontValues.isValidTag(tag) && value.isFinite }

    /// CSS: `"wght" 450`.
    public var description: String { "\"\(tag)\" \(CSSFontValues.number(value))" }

    /// The settings of a CSS `font-variation-settings` value: `normal`, or a comma-separated
    /// list of a tag (quoted, or bare) and a number: `"'wght' 450, 'wdth' 80"`. Later settings
    /// of a tag win.
    ///
    /// - Throws: ``CSSValueError`` naming the first item that does not parse.
    public static func parse(variationSettings css: String) throws(CSSValueError) -> [FontVariation] {
        var variations: [FontVariation] = []
        for item in try CSSFontValues.items(css, property: "font-variation-settings") {
            var reader = CSSFontValues.Reader(item)
            guard let tag = reader.tag(), CSSFontValues.isValidTag(tag),
                let word = reader.word(), let value = Double(word), value.isFinite, reader.isAtEnd
            else { throw CSSValueError(property: "font-variation-settings", value: String(item)) }
            variations.removeAll { $0.tag == tag }
            variations.append(FontVariation(tag, value))
        }
        return variations
    }

    /// The CSS `font-variation-settings` value of `variations` (`normal` for none).
    public static func css(_ variations: [FontVariation]) -> String {
        variations.isEmpty ? "normal" : variations.map(\.description).joined(separator: ", ")
    }
}
