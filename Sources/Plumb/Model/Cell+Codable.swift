/// `Cell` as one input line of `plumb measure`: `{"text": …, "width": …}` or
/// `{"runs": …, "width": …}` plus the style's fields, flat (see `TextStyle`'s and
/// `AttributedText`'s `Codable` conformances).
extension Cell: Codable {
    /// A `userInfo` key for decoders: the width (a `Double`) of a cell whose line has no
    /// `"width"`, as `plumb measure --width` gives it. Without it the width is 375, the CLI's
    /// default. (Style defaults go under `TextStyle.decodingDefaultsKey`.)
    public static let decodingDefaultWidthKey = CodingUserInfoKey(rawValue: "Plumb.Cell.decodingDefaultWidth")!

    /// The width of a cell decoded without a `"width"` field or `decodingDefaultWidthKey`:
    /// 375 points, `plumb measure`'s default.
    public static let defaultWidth = 375.0

    /// Decodes an input line: exactly one of `text` (a string) and `runs` (attributed text),
    /// `width` (optional) and the style's fields. `"id"`, `"scale"` and unknown fields are
    /// ignored (the CLI warns about unknown fields).
    ///
    /// - Throws: `DecodingError` for a line with neither or both of `text` and `runs`, a wrong
    ///   type, or an unknown enum value.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CellField.self)
        let fallbackWidth = decoder.userInfo[Self.decodingDefaultWidthKey] as? Double ?? Self.defaultWidth
        let content: Content
        switch (c.contains(.text), c.contains(.runs)) {
        case (true, false): content = .plain(try c.decode(String.self, forKey: .text))
        case (false, true): content = .attributed(try c.decode(AttributedText.self, forKey: .runs))
        case (false, false):
            throw DecodingError.keyNotFound(CellField.text, .init(
                codingPath: c.codingPath, debugDescription: "missing field 'text' (or 'runs')"))
        case (true, true):
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath + [CellField.runs], debugDescription: "give 'text' or 'runs', not both"))
        }
        self.init(content, style: try TextStyle(from: decoder),
                  width: try c.decodeIfPresent(Double.self, forKey: .width) ?? fallbackWidth)
    }

    /// Encodes `text` (plain content) or `runs` (attributed), `width` and every style field.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CellField.self)
        if let attributedText {
            try c.encode(attributedText, forKey: .runs)
        } else {
            try c.encode(text, forKey: .text)
        }
        try c.encode(width, forKey: .width)
        try style.encode(to: encoder)
    }
}
