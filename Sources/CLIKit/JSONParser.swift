// Strict RFC 8259 JSON parser over raw bytes (no Foundation).
//
// - The whole input must be one JSON value surrounded by optional whitespace.
// - Strings must be valid UTF-8; invalid UTF-8 anywhere is reported as
//   "invalid UTF-8 at byte N" (N = offset of the first byte of the bad sequence).
// - A lone surrogate escape (\uD800 without a following \uDC00-\uDFFF, or a lone low
//   surrogate) decodes to U+FFFD and is counted in `JSONParser.replacedSurrogateCount`.
// - Numbers must match the JSON grammar (no leading zeros, "1.", ".5", "+1", NaN,
//   Infinity); numbers whose magnitude overflows Double (e.g. 1e400) are rejected, and so
//   are nonzero numbers that underflow to zero (e.g. 1e-400): both are "number out of
//   range". Subnormal values (down to 5e-324) are kept; a zero literal (0e-400) is zero.
// - Nesting deeper than `maxDepth` (default 512) arrays/objects is rejected.
// All byte offsets are 0-based offsets into the parsed buffer.

/// A parse failure with the 0-based byte offset where it was detected.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case expectedValue
        case expectedKey
        case expectedColon
        case expectedCommaOrBrace
        case expectedCommaOrBracket
        case unterminatedString          // offset: the opening quote
        case controlCharacter(UInt8)     // offset: the raw control byte
        case invalidEscape               // offset: the backslash
        case invalidUnicodeEscape        // offset: the backslash of \u
        case invalidNumber               // offset: start of the number
        case numberOutOfRange            // offset: start of the number
        case trailingCharacters
        case tooDeep(Int)                // offset: the '[' or '{' that exceeds the limit
        case invalidUTF8                 // offset: first byte of the invalid sequence
    }

    public let kind: Kind
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// Human-readable message, e.g. "expected ',' or '}' at byte 23".
    public var message: String {
        let what: String
        switch kind {
        case .expectedValue: what = "expected value"
        case .expectedKey: what = "expected string key"
        case .expectedColon: what = "expected ':'"
        case .expectedCommaOrBrace: what = "expected ',' or '}'"
        case .expectedCommaOrBracket: what = "expected ',' or ']'"
        case .unterminatedString: what = "unterminated string starting"
        case .controlCharacter(let b):
            let hex = String(b, radix: 16, uppercase: true)
            what = "unescaped control character U+" + String(repeating: "0", count: 4 - hex.count) + hex + " in string"
        case .invalidEscape: what = "invalid escape sequence"
        case .invalidUnicodeEscape: what = "invalid \\u escape (expected 4 hex digits)"
        case .invalidNumber: what = "invalid number"
        case .numberOutOfRange: what = "number out of range"
        case .trailingCharacters: what = "unexpected characters after JSON value"
        case .tooDeep(let limit): what = "nesting deeper than \(limit) levels"
        case .invalidUTF8: what = "invalid UTF-8"
        }
        return what + " at byte \(offset)"
    }

    public var description: String { message }
}

/// Reusable parser. Keep one instance per thread and call `parse` for each line: it
/// reuses its scratch buffer for strings with escapes.
public struct JSONParser: Sendable {
    public var maxDepth: Int
    /// How many lone surrogate escapes were replaced by U+FFFD in the last `parse` call.
    public private(set) var replacedSurrogateCount = 0
    private var scratch: [UInt8] = []

    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        replacedSurrogateCount = 0
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(.expectedValue, at: 0)
        }
        var reader = _JSONByteReader(p: base, n: bytes.count, maxDepth: maxDepth, scratch: scratch)
        scratch = []  // hand the buffer over so it stays uniquely referenced
        defer {
            scratch = reader.scratch
            replacedSurrogateCount = reader.replaced
        }
        return try reader.parseDocument()
    }

    public mutating func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buf in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buf) }
        }
        return try result.get()
    }

    public mutating func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parse(bytes[...])
    }

    public mutating func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    // One-shot conveniences.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var p = JSONParser()
        return try p.parse(bytes)
    }

    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        var p = JSONParser()
        return try p.parse(bytes)
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var p = JSONParser()
        return try p.parse(bytes)
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var p = JSONParser()
        return try p.parse(text)
    }
}

// MARK: - Shared byte-level helpers

enum _JSONBytes {
    /// Length (1...4) of the valid UTF-8 sequence starting at `p[i]`, or 0 if the bytes
    /// there are not valid UTF-8 (bad lead byte, bad/missing continuation, overlong form,
    /// UTF-16 surrogate code point, or value above U+10FFFF).
    @inline(__always)
    static func utf8Length(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        let b0 = p[i]
        if b0 < 0x80 { return 1 }
        if b0 < 0xC2 { return 0 }  // continuation byte or overlong 2-byte lead
        if b0 < 0xE0 {
            return i + 1 < n && p[i + 1] & 0xC0 == 0x80 ? 2 : 0
        }
        if b0 < 0xF0 {
            guard i + 2 < n else { return 0 }
            let lo: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80  // E0 80..9F would be overlong
            let hi: UInt8 = b0 == 0xED ? 0x9F : 0xBF  // ED A0..BF are surrogates
            let b1 = p[i + 1]
            return b1 >= lo && b1 <= hi && p[i + 2] & 0xC0 == 0x80 ? 3 : 0
        }
        if b0 < 0xF5 {
            guard i + 3 < n else { return 0 }
            let lo: UInt8 = b0 == 0xF0 ? 0x90 : 0x80  // F0 80..8F would be overlong
            let hi: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF  // above U+10FFFF
            let b1 = p[i + 1]
            return b1 >= lo && b1 <= hi && p[i + 2] & 0xC0 == 0x80 && p[i + 3] & 0xC0 == 0x80 ? 4 : 0
        }
        return 0
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// Whether `text` is exactly one JSON number literal.
    static func isValidNumberLiteral(_ text: String) -> Bool {
        var t = text
        return t.withUTF8 { buf -> Bool in
            guard let p = buf.baseAddress, buf.count > 0 else { return false }
            var r = _JSONByteReader(p: p, n: buf.count, maxDepth: 0, scratch: [])
            guard p[0] == 0x2D || isDigit(p[0]) else { return false }
            do { _ = try r.scanNumber() } catch { return false }
            return r.i == buf.count
        }
    }
}

// MARK: - Recursive-descent reader

struct _JSONByteReader {
    let p: UnsafePointer<UInt8>
    let n: Int
    let maxDepth: Int
    var i = 0
    var scratch: [UInt8]
    var replaced = 0

    init(p: UnsafePointer<UInt8>, n: Int, maxDepth: Int, scratch: [UInt8]) {
        self.p = p
        self.n = n
        self.maxDepth = maxDepth
        self.scratch = scratch
    }

    /// An error at `offset`, unless the byte there is invalid UTF-8, which takes precedence.
    func failure(_ kind: JSONParseError.Kind, at offset: Int) -> JSONParseError {
        if offset < n, p[offset] >= 0x80, _JSONBytes.utf8Length(p, offset, n) == 0 {
            return JSONParseError(.invalidUTF8, at: offset)
        }
        return JSONParseError(kind, at: offset)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while i < n {
            let b = p[i]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            i += 1
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if i != n { throw failure(.trailingCharacters, at: i) }
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard i < n else { throw JSONParseError(.expectedValue, at: i) }
        switch p[i] {
        case 0x22: return .string(try parseString())
        case 0x7B: return try parseObject(depth: depth + 1)
        case 0x5B: return try parseArray(depth: depth + 1)
        case 0x74: try expectLiteral(0x74, 0x72, 0x75, 0x65); return .bool(true)            // true
        case 0x66:                                                                          // false
            guard i + 5 <= n, p[i + 4] == 0x65 else { throw failure(.expectedValue, at: i) }
            try expectLiteral(0x66, 0x61, 0x6C, 0x73); i += 1
            return .bool(false)
        case 0x6E: try expectLiteral(0x6E, 0x75, 0x6C, 0x6C); return .null                 // null
        case 0x2D, 0x30...0x39: return try parseNumber()
        case 0x2B, 0x2E: throw JSONParseError(.invalidNumber, at: i)                        // "+1", ".5"
        default: throw failure(.expectedValue, at: i)
        }
    }

    @inline(__always)
    mutating func expectLiteral(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) throws(JSONParseError) {
        guard i + 4 <= n, p[i] == a, p[i + 1] == b, p[i + 2] == c, p[i + 3] == d else {
            throw failure(.expectedValue, at: i)
        }
        i += 4
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: i) }
        i += 1  // '['
        var elements: [JSONValue] = []
        skipWhitespace()
        if i < n, p[i] == 0x5D { i += 1; return .array(elements) }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard i < n else { throw JSONParseError(.expectedCommaOrBracket, at: i) }
            if p[i] == 0x2C { i += 1; continue }
            if p[i] == 0x5D { i += 1; return .array(elements) }
            throw failure(.expectedCommaOrBracket, at: i)
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: i) }
        i += 1  // '{'
        var object = JSONObject()
        skipWhitespace()
        if i < n, p[i] == 0x7D { i += 1; return .object(object) }
        // Room for a cell's usual fields at once (an empty array grows 0 → 1 → 2 → 4: three
        // allocations for a cell of "id", "text" and a style field).
        object.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard i < n, p[i] == 0x22 else { throw failure(.expectedKey, at: i) }
            let key = try parseString()
            skipWhitespace()
            guard i < n, p[i] == 0x3A else { throw failure(.expectedColon, at: i) }
            i += 1
            let value = try parseValue(depth: depth)
            object.append(key: key, value: value)
            skipWhitespace()
            guard i < n else { throw JSONParseError(.expectedCommaOrBrace, at: i) }
            if p[i] == 0x2C { i += 1; continue }
            if p[i] == 0x7D { i += 1; return .object(object) }
            throw failure(.expectedCommaOrBrace, at: i)
        }
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `i`.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = i
        i += 1
        let contentStart = i
        // Fast path: no escapes.
        while i < n {
            let b = p[i]
            if b == 0x22 {
                let s = String(decoding: UnsafeBufferPointer(start: p + contentStart, count: i - contentStart), as: UTF8.self)
                i += 1
                return s
            }
            if b == 0x5C { return try parseEscapedString(quote: quote, contentStart: contentStart) }
            try skipStringContentByte(b)
        }
        throw JSONParseError(.unterminatedString, at: quote)
    }

    /// Slow path, entered at the first backslash; decodes into `scratch`.
    mutating func parseEscapedString(quote: Int, contentStart: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = contentStart
        while i < n {
            let b = p[i]
            if b == 0x22 || b == 0x5C {
                scratch.append(contentsOf: UnsafeBufferPointer(start: p + runStart, count: i - runStart))
                if b == 0x22 {
                    i += 1
                    return String(decoding: scratch, as: UTF8.self)
                }
                try decodeEscape(quote: quote)
                runStart = i
            } else {
                try skipStringContentByte(b)
            }
        }
        throw JSONParseError(.unterminatedString, at: quote)
    }

    /// Steps over the unescaped string character whose first byte `b` is at `i`:
    /// one byte for ASCII, the whole sequence for UTF-8; control characters and
    /// malformed UTF-8 are errors.
    @inline(__always)
    mutating func skipStringContentByte(_ b: UInt8) throws(JSONParseError) {
        if b < 0x20 { throw JSONParseError(.controlCharacter(b), at: i) }
        if b < 0x80 {
            i += 1
        } else {
            let len = _JSONBytes.utf8Length(p, i, n)
            if len == 0 { throw JSONParseError(.invalidUTF8, at: i) }
            i += len
        }
    }

    /// Decodes the escape whose backslash is at `i`, appending UTF-8 to `scratch`.
    mutating func decodeEscape(quote: Int) throws(JSONParseError) {
        guard i + 1 < n else { throw JSONParseError(.unterminatedString, at: quote) }
        let c = p[i + 1]
        let simple: UInt8
        switch c {
        case 0x22: simple = 0x22          // \"
        case 0x5C: simple = 0x5C          // \\
        case 0x2F: simple = 0x2F          // \/
        case 0x62: simple = 0x08          // \b
        case 0x66: simple = 0x0C          // \f
        case 0x6E: simple = 0x0A          // \n
        case 0x72: simple = 0x0D          // \r
        case 0x74: simple = 0x09          // \t
        case 0x75:                        // \uXXXX
            guard let unit = hex4(at: i + 2) else { throw JSONParseError(.invalidUnicodeEscape, at: i) }
            var scalar = unit
            var length = 6
            if unit & 0xFC00 == 0xD800 {
                if i + 7 < n, p[i + 6] == 0x5C, p[i + 7] == 0x75, let low = hex4(at: i + 8), low & 0xFC00 == 0xDC00 {
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    length = 12
                } else {
                    scalar = 0xFFFD
                    replaced += 1
                }
            } else if unit & 0xFC00 == 0xDC00 {
                scalar = 0xFFFD
                replaced += 1
            }
            appendUTF8(scalar)
            i += length
            return
        default:
            throw failure(.invalidEscape, at: i)
        }
        scratch.append(simple)
        i += 2
    }

    @inline(__always)
    func hex4(at j: Int) -> UInt32? {
        guard j + 4 <= n else { return nil }
        var v: UInt32 = 0
        for k in j..<(j + 4) {
            let b = p[k]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    mutating func appendUTF8(_ s: UInt32) {
        if s < 0x80 {
            scratch.append(UInt8(s))
        } else if s < 0x800 {
            scratch.append(UInt8(0xC0 | s >> 6))
            scratch.append(UInt8(0x80 | s & 0x3F))
        } else if s < 0x10000 {
            scratch.append(UInt8(0xE0 | s >> 12))
            scratch.append(UInt8(0x80 | (s >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | s & 0x3F))
        } else {
            scratch.append(UInt8(0xF0 | s >> 18))
            scratch.append(UInt8(0x80 | (s >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (s >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | s & 0x3F))
        }
    }

    // MARK: Numbers

    /// Scans the number starting at `i` (which is '-' or a digit), validating the grammar.
    /// Returns the value when the exact fast path applies (at most 19 significant digits,
    /// mantissa ≤ 2^53, decimal exponent within ±22: one correctly rounded operation),
    /// otherwise nil (caller falls back to the standard library's correctly rounded parser).
    mutating func scanNumber() throws(JSONParseError) -> Double? {
        let start = i
        var negative = false
        if p[i] == 0x2D { negative = true; i += 1 }
        guard i < n, _JSONBytes.isDigit(p[i]) else { throw JSONParseError(.invalidNumber, at: start) }
        var mantissa: UInt64 = 0
        var significant = 0     // digits accumulated since the first nonzero one
        var exact = true
        var decimalExponent = 0
        if p[i] == 0x30 {
            i += 1
            if i < n, _JSONBytes.isDigit(p[i]) { throw JSONParseError(.invalidNumber, at: start) }
        } else {
            while i < n, _JSONBytes.isDigit(p[i]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                    significant += 1
                } else {
                    exact = false
                }
                i += 1
            }
        }
        if i < n, p[i] == 0x2E {
            i += 1
            guard i < n, _JSONBytes.isDigit(p[i]) else { throw JSONParseError(.invalidNumber, at: start) }
            while i < n, _JSONBytes.isDigit(p[i]) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- 0x30)
                    if mantissa != 0 { significant += 1 }
                    decimalExponent -= 1
                } else {
                    exact = false
                }
                i += 1
            }
        }
        if i < n, p[i] | 0x20 == 0x65 {  // e or E
            i += 1
            var expNegative = false
            if i < n, p[i] == 0x2B || p[i] == 0x2D { expNegative = p[i] == 0x2D; i += 1 }
            guard i < n, _JSONBytes.isDigit(p[i]) else { throw JSONParseError(.invalidNumber, at: start) }
            var e = 0
            while i < n, _JSONBytes.isDigit(p[i]) {
                if e < 100_000 { e = e * 10 + Int(p[i] &- 0x30) }
                i += 1
            }
            decimalExponent += expNegative ? -e : e
        }
        guard exact else { return nil }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, decimalExponent >= -22, decimalExponent <= 22 else { return nil }
        var scale = 1.0
        for _ in 0..<abs(decimalExponent) { scale *= 10 }  // exact up to 1e22
        let m = Double(mantissa)
        let v = decimalExponent >= 0 ? m * scale : m / scale
        return negative ? -v : v
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = i
        let fast = try scanNumber()
        let literal = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
        let value = fast ?? Double(literal) ?? .nan
        guard value.isFinite, value != 0 || Self.isZeroLiteral(literal) else {
            throw JSONParseError(.numberOutOfRange, at: start)
        }
        return .number(value, literal: literal)
    }

    /// Whether a number literal's digits before the exponent are all zero (so a value of 0 is
    /// exact, not an underflow). Only called when the value is 0.
    static func isZeroLiteral(_ literal: String) -> Bool {
        for b in literal.utf8 {
            if b | 0x20 == 0x65 { return true }      // e or E: the exponent follows
            if b >= 0x31 && b <= 0x39 { return false }
        }
        return true
    }
}
