/// `Cell` as one input line of `plumb measure`: `{"text": …, "width": …}` plus the style's
/// fields, flat (see `TextStyle`'s `Codable` conformance).
extension Cell: Codable {
    /// A `userInfo` key for decoders: the width (a `Double`) of a cell whose line has no
    /// `"width"`, as `plumb measure --width` gives it. Without it the width is 375, the CLI's
    /// default. (Style defaults go under `TextStyle.decodingDefaultsKey`.)
    public static let decodingDefaultWidthKey = CodingUserInfoKey(rawValue: "Plumb.Cell.decodingDefaultWidth")!

    /// The width of a cell decoded without a `"width"` field or `decodingDefaultWidthKey`:
    /// 375 points, `plumb measure`'s default.
    public static let defaultWidth = 375.0

    private enum CellJSONKey: String, CodingKey {
        case text, width
    }

    /// Decodes an input line: `text` (required), `width` (optional) and the style's fields.
    /// `"id"`, `"scale"` and unknown fields are ignored (the CLI warns about unknown fields).
    ///
    /// - Throws: `DecodingError` for a missing `text`, a wrong type, or an unknown enum value.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CellJSONKey.self)
        let fallbackWidth = decoder.userInfo[Self.decodingDefaultWidthKey] as? Double ?? Self.defaultWidth
        self.init(
            text: try c.decode(String.self, forKey: .text), style: try TextStyle(from: decoder),
            width: try c.decodeIfPresent(Double.self, forKey: .width) ?? fallbackWidth)
    }

    /// Encodes `text`, `width` and every style field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CellJSONKey.self)
        try c.encode(text, forKey: .text)
        try c.encode(width, forKey: .width)
        try style.encode(to: encoder)
    }
}
