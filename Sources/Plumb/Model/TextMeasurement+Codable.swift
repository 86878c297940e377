// `TextMeasurement`, its warnings and the geometry types in the JSON Lines format of
// `plumb measure`'s output: `{"height","width","lines","truncated"}` plus `"fallback": true`
// and `"warnings"` when there are any.

extension Size: Codable {
    private enum SizeJSONKey: String, CodingKey { case width, height }

    /// Decodes `{"width": …, "height": …}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SizeJSONKey.self)
        self.init(width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
    }

    /// Encodes `{"width": …, "height": …}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SizeJSONKey.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
    }
}

extension Rect: Codable {
    /// Decodes `[x, y, width, height]`, the form of a line's `"rect"` in `plumb measure --lines`.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let x = try c.decode(Double.self), y = try c.decode(Double.self)
        let width = try c.decode(Double.self), height = try c.decode(Double.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a rect has 4 numbers: [x, y, width, height]")
        }
        self.init(x: x, y: y, width: width, height: height)
    }

    /// Encodes `[x, y, width, height]`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for v in [x, y, width, height] { try c.encode(v) }
    }
}

extension MeasureWarning: Codable {
    private enum WarningJSONKey: String, CodingKey {
        case code, message, value, replacement, field, family, count, bytes, limit
        case detail = "description"
    }

    /// The `"code"` of every case, in declaration order.
    static let codes = [
        "unmeasurableWidth", "invalidFontSize", "invalidScale", "invalidSpacing", "unknownFontFamily",
        "cascadeFellBackToDefault", "noFontsAvailable", "invalidTextRepaired", "heightLimitBelowFirstLine", "missingGlyphs",
        "invalidValue", "textTooLong",
    ]

    /// Decodes `{"code": …}` with the case's values (`"value"`, `"replacement"`, `"field"`,
    /// `"family"`, `"count"`, `"description"`, `"bytes"`, `"limit"`); `"message"` is ignored.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for an unknown code (the message lists them),
    ///   or a missing value of the case.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WarningJSONKey.self)
        func number(_ key: WarningJSONKey) throws -> Double { try c.decode(ReportedNumber.self, forKey: key).value }
        func text(_ key: WarningJSONKey) throws -> String { try c.decode(String.self, forKey: key) }
        func int(_ key: WarningJSONKey) throws -> Int { try c.decode(Int.self, forKey: key) }
        switch try c.decode(String.self, forKey: .code) {
        case "unmeasurableWidth": self = .unmeasurableWidth(try number(.value))
        case "invalidFontSize": self = .invalidFontSize(try number(.value), replacement: try number(.replacement))
        case "invalidScale": self = .invalidScale(try number(.value), replacement: try number(.replacement))
        case "invalidSpacing": self = .invalidSpacing(field: try text(.field), value: try number(.value))
        case "unknownFontFamily": self = .unknownFontFamily(try text(.family))
        case "cascadeFellBackToDefault": self = .cascadeFellBackToDefault(try text(.family))
        case "noFontsAvailable": self = .noFontsAvailable
        case "invalidTextRepaired": self = .invalidTextRepaired
        case "heightLimitBelowFirstLine": self = .heightLimitBelowFirstLine(try number(.value))
        case "missingGlyphs": self = .missingGlyphs(count: try int(.count))
        case "invalidValue": self = .invalidValue(field: try text(.field), description: try text(.detail))
        case "textTooLong": self = .textTooLong(bytes: try int(.bytes), limit: try int(.limit))
        case let code:
            throw DecodingError.dataCorruptedError(
                forKey: .code, in: c,
                debugDescription: "unknown warning code '\(code)' (one of \(Self.codes.joined(separator: ", ")))")
        }
    }

    /// Encodes `{"code": …, <the case's values>, "message": description}`. Non-finite values
    /// are the strings "NaN", "Infinity", "-Infinity" (a warning about a NaN width encodes
    /// with any encoder settings).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: WarningJSONKey.self)
        func number(_ v: Double, _ key: WarningJSONKey) throws { try c.encode(ReportedNumber(v), forKey: key) }
        switch self {
        case .unmeasurableWidth(let w): try number(w, .value)
        case .invalidFontSize(let v, let r), .invalidScale(let v, let r):
            try number(v, .value)
            try number(r, .replacement)
        case .invalidSpacing(let field, let v):
            try c.encode(field, forKey: .field)
            try number(v, .value)
        case .unknownFontFamily(let f), .cascadeFellBackToDefault(let f): try c.encode(f, forKey: .family)
        case .invalidTextRepaired, .noFontsAvailable: break
        case .heightLimitBelowFirstLine(let h): try number(h, .value)
        case .missingGlyphs(let n): try c.encode(n, forKey: .count)
        case .invalidValue(let field, let d):
            try c.encode(field, forKey: .field)
            try c.encode(d, forKey: .detail)
        case .textTooLong(let n, let limit):
            try c.encode(n, forKey: .bytes)
            try c.encode(limit, forKey: .limit)
        }
        try c.encode(code, forKey: .code)
        try c.encode(description, forKey: .message)
    }

    /// The case's name, the warning's `"code"` in JSON.
    var code: String {
        switch self {
        case .unmeasurableWidth: "unmeasurableWidth"
        case .invalidFontSize: "invalidFontSize"
        case .invalidScale: "invalidScale"
        case .invalidSpacing: "invalidSpacing"
        case .unknownFontFamily: "unknownFontFamily"
        case .cascadeFellBackToDefault: "cascadeFellBackToDefault"
        case .noFontsAvailable: "noFontsAvailable"
        case .invalidTextRepaired: "invalidTextRepaired"
        case .heightLimitBelowFirstLine: "heightLimitBelowFirstLine"
        case .missingGlyphs: "missingGlyphs"
        case .invalidValue: "invalidValue"
        case .textTooLong: "textTooLong"
        }
    }
}

extension TextMeasurement: Codable {
    private enum MeasurementJSONKey: String, CodingKey {
        case height, width, lines, truncated, fallback, warnings
    }

    /// Decodes a `plumb measure` output line: `height`, `width`, `lines` (the line count) and
    /// `truncated`; `fallback` (absent = false) and `warnings` (absent = none) are optional.
    /// Other fields (`"id"`, `"lineStarts"`, …) are ignored.
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field. The CLI prints warnings as
    ///   messages (strings); those are a type mismatch here, since a message is not a
    ///   `MeasureWarning` — the structured form is what `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: MeasurementJSONKey.self)
        self.init(
            size: Size(width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height)),
            lineCount: try c.decode(Int.self, forKey: .lines),
            isTruncated: try c.decode(Bool.self, forKey: .truncated),
            warnings: try c.decodeIfPresent([MeasureWarning].self, forKey: .warnings) ?? [])
        isFallback = try c.decodeIfPresent(Bool.self, forKey: .fallback) ?? false
    }

    /// Encodes the `plumb measure` output fields: `"fallback": true` only for a fallback,
    /// `"warnings"` only when there are any (structured, with each warning's message).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MeasurementJSONKey.self)
        try c.encode(height, forKey: .height)
        try c.encode(width, forKey: .width)
        try c.encode(lineCount, forKey: .lines)
        try c.encode(isTruncated, forKey: .truncated)
        if isFallback { try c.encode(true, forKey: .fallback) }
        if !warnings.isEmpty { try c.encode(warnings, forKey: .warnings) }
    }
}
