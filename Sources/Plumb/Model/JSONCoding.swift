// Shared pieces of the `Codable` conformances: the JSON Lines format of `plumb measure` is
// the one shape of every public value type (see README, "Command line").

/// A coding key that is any string (for the flat objects whose fields several types share).
struct JSONFieldKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes a string naming one case of `E`, failing as `plumb measure` does on an unknown
/// name: a `DecodingError.dataCorrupted` whose description lists the cases.
func decodeChoice<E: RawRepresentable & CaseIterable>(_: E.Type, from decoder: any Decoder) throws -> E
where E.RawValue == String {
    let container = try decoder.singleValueContainer()
    let name = try container.decode(String.self)
    guard let value = E(rawValue: name) else {
        let field = decoder.codingPath.last?.stringValue ?? String(describing: E.self)
        throw DecodingError.dataCorruptedError(
            in: container,
            debugDescription: "unknown \(field) '\(name)' (one of \(E.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return value
}

/// A number that may be NaN or infinite (the values a warning reports): JSON numbers when
/// finite, otherwise the strings "NaN", "Infinity" and "-Infinity" (JavaScript's spellings),
/// so a warning about a NaN width encodes with any encoder settings. `null` decodes as NaN
/// (`plumb measure` writes non-finite numbers as `null`).
struct ReportedNumber: Codable, Hashable {
    var value: Double

    init(_ value: Double) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { value = .nan; return }
        if let number = try? container.decode(Double.self) { value = number; return }
        switch try container.decode(String.self) {
        case "NaN": value = .nan
        case "Infinity": value = .infinity
        case "-Infinity": value = -.infinity
        case let other:
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(other)' is not a number (nor NaN, Infinity, -Infinity)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isFinite { try container.encode(value) }
        else if value.isNaN { try container.encode("NaN") }
        else { try container.encode(value > 0 ? "Infinity" : "-Infinity") }
    }
}

extension LineBreakMode: Codable {
    /// Decodes the case's name (`"truncatingTail"`); an unknown name is a
    /// `DecodingError.dataCorrupted` listing the cases.
    public init(from decoder: any Decoder) throws { self = try decodeChoice(Self.self, from: decoder) }
}

extension TextAlignment: Codable {
    /// Decodes the case's name (`"center"`); an unknown name is a `DecodingError.dataCorrupted`
    /// listing the cases.
    public init(from decoder: any Decoder) throws { self = try decodeChoice(Self.self, from: decoder) }
}

extension Compatibility: Codable {
    /// Decodes the profile's name (`"chromium"`); an unknown name is a
    /// `DecodingError.dataCorrupted` listing the profiles.
    public init(from decoder: any Decoder) throws { self = try decodeChoice(Self.self, from: decoder) }
}

extension TextDirection: Codable {
    /// Decodes `"leftToRight"` or `"rightToLeft"`; anything else is a
    /// `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws { self = try decodeChoice(Self.self, from: decoder) }
}

extension EllipsisPlacement: Codable {
    /// Decodes `"head"`, `"middle"` or `"tail"`; anything else is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws { self = try decodeChoice(Self.self, from: decoder) }
}
