/// A tab stop of a paragraph (UIKit's `NSTextTab`, a Pango tab array's entry): where the text
/// after a tab goes, and how it lines up there.
///
/// Locations are in points from the box's leading edge (TextKit's back margin: the right edge
/// of a right-to-left paragraph), not from the indented line start, so that a hanging indent
/// and a stop at the same place line up ("1.\tText" with `headIndent` 36 and a stop at 36).
/// The `chromium` profile has none: CSS has only `tab-size` (``TextStyle/tabSize``).
public struct TabStop: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How the text after a tab, up to the next tab or the line's end, lines up at the stop.
    /// As in TextKit the alignments are absolute: a right-aligned stop puts its text to the
    /// left of the location in either writing direction.
    public enum Alignment: String, CaseIterable, Hashable, Sendable, Codable {
        /// The text starts at the location.
        case left
        /// The text ends at the location.
        case right
        /// The text is centred on the location.
        case center
        /// The text's first decimal point (".") is at the location (Pango centres the point
        /// on it, TextKit starts it there); text without one ends at the location.
        case decimal
    }

    /// Points from the box's leading edge, > 0.
    public var location: Double
    /// How the text lines up at ``location`` (default: left).
    public var alignment: Alignment

    /// A stop `location` points from the leading edge.
    public init(location: Double, alignment: Alignment = .left) {
        self.location = location
        self.alignment = alignment
    }

    /// "100 left": the form ``parse(list:)`` reads.
    public var description: String { "\(CSSFontValues.number(location)) \(alignment.rawValue)" }

    /// Reads a comma-separated list of stops, each a location in points and optionally an
    /// alignment: `"100, 200 right, 260.5 decimal"` (the command line's `--tab-stops`; `normal`
    /// or nothing: none). The order is kept: measuring sorts the stops, with a warning.
    ///
    /// - Throws: `CSSValueError` naming the item that is not a number and an alignment.
    public static func parse(list text: String) throws(CSSValueError) -> [TabStop] {
        try CSSFontValues.items(text, property: "tabStops").map { item throws(CSSValueError) in
            var reader = CSSFontValues.Reader(item)
            let location = reader.word().flatMap(Double.init)
            let alignment = reader.isAtEnd ? .left : reader.word().flatMap(Alignment.init(rawValue:))
            guard let location, let alignment, reader.isAtEnd else {
                throw CSSValueError(property: "tabStops", value: String(item))
            }
            return TabStop(location: location, alignment: alignment)
        }
    }

    /// The list form of `stops` (`"100 left, 200 right"`), which ``parse(list:)`` reads back.
    public static func list(_ stops: [TabStop]) -> String { stops.map(\.description).joined(separator: ", ") }

    private enum CodingKeys: String, CodingKey { case location, alignment }

    /// Decodes `{"location": 100, "alignment": "right"}` (alignment optional: left).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decode(Double.self, forKey: .location)
        alignment = try c.decodeIfPresent(Alignment.self, forKey: .alignment) ?? .left
    }
}

/// CSS `tab-size`: the distance between tab stops as a number of spaces or as a length
/// (``TextStyle/tabSize``).
public enum TabSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// This many widths of a space of the style's first font, letter spacing included (CSS
    /// `tab-size: 8`, Chromium's and Pango's default).
    case spaces(Double)
    /// This many points (CSS `tab-size: 28px`).
    case length(Double)

    /// The CSS value: `8` or `28px`.
    public var description: String {
        switch self {
        case .spaces(let n): CSSFontValues.number(n)
        case .length(let points): CSSFontValues.number(points) + "px"
        }
    }

    /// Reads a CSS `tab-size` value: a number (spaces) or a length in `px` or `pt` (points).
    ///
    /// - Throws: `CSSValueError` for anything else.
    public static func parse(css text: String) throws(CSSValueError) -> TabSize {
        let t = text.trimmingCSSSpaces
        if let n = Double(t) { return .spaces(n) }
        for unit in ["px", "pt"] where t.hasSuffix(unit) {
            if let points = Double(t.dropLast(2)) { return .length(points) }
        }
        throw CSSValueError(property: "tab-size", value: String(t))
    }

    /// Decodes a JSON number (spaces) or a CSS string (`"8"`, `"28px"`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) {
            self = .spaces(n)
            return
        }
        let text = try c.decode(String.self)
        do throws(CSSValueError) {
            self = try Self.parse(css: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: error.description)
        }
    }

    /// Encodes spaces as a number and a length as a CSS string (`"28px"`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .spaces(let n): try c.encode(n)
        case .length: try c.encode(description)
        }
    }
}
