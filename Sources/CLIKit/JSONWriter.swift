// Compact JSON writer appending UTF-8 to a byte buffer (no Foundation).
//
// Output rules (documented behaviour):
// - Strings: `"` and `\` are escaped; control characters U+0000-U+001F are written as
//   \b \f \n \r \t or \u00XX (lowercase hex); everything else, including non-ASCII,
//   is copied as UTF-8 (Swift strings are always valid UTF-8).
// - Doubles: the shortest text that round-trips (Swift's shortest-representation
//   algorithm), integral values without ".0" (44.0 → 44), exponents without "+" or
//   leading zeros (1e21, 1e-7, 5e-324). -0.0 is written as "-0" (the sign survives a
//   round trip). NaN and ±infinity cannot be written: they are written as `null`.
// - `.number(_, literal:)` values are written as their literal text (so parsed input is
//   echoed unchanged); if the literal is not a valid JSON number, the Double is written.

public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]
    /// Whether `write(_: Double)` prints numbers rounded to 6 decimals in plain decimal form
    /// (``appendMillionths(_:to:)``) instead of their shortest round-trip text. Default false.
    public var roundsNumbers = false
    private var needsComma = false

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Clears the output, keeping the buffer's capacity for the next line.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    // MARK: Streaming API (commas are inserted automatically)

    @inline(__always)
    private mutating func separator() {
        if needsComma { bytes.append(0x2C) }
    }

    public mutating func beginObject() { separator(); bytes.append(0x7B); needsComma = false }
    public mutating func endObject() { bytes.append(0x7D); needsComma = true }
    public mutating func beginArray() { separator(); bytes.append(0x5B); needsComma = false }
    public mutating func endArray() { bytes.append(0x5D); needsComma = true }

    /// Writes `"key":`; the next value written belongs to it.
    public mutating func key(_ key: String) {
        separator()
        Self.appendString(key, to: &bytes)
        bytes.append(0x3A)
        needsComma = false
    }

    /// Writes `"key":` for a key fixed in the source (`"height"`), copied as it is: it must
    /// need no escaping (no `"`, `\` or control character; checked in debug builds). A
    /// `String` key costs ~300 instructions more (lent, scanned, escaped).
    public mutating func key(literal key: StaticString) {
        separator()
        bytes.append(0x22)
        key.withUTF8Buffer { utf8 in
            assert(!utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }, "key needs escaping")
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0x22)
        bytes.append(0x3A)
        needsComma = false
    }

    public mutating func write(_ value: String) { separator(); Self.appendString(value, to: &bytes); needsComma = true }
    /// Writes the shortest round-trip form, or the 6-decimal form if `roundsNumbers`;
    /// NaN/infinity are written as `null`.
    public mutating func write(_ value: Double) {
        separator()
        if roundsNumbers { Self.appendMillionths(value, to: &bytes) } else { Self.appendNumber(value, to: &bytes) }
        needsComma = true
    }
    public mutating func write(_ value: Int) { separator(); Self.appendInt(value, to: &bytes); needsComma = true }
    public mutating func write(_ value: Bool) { separator(); Self.appendBool(value, to: &bytes); needsComma = true }
    public mutating func writeNull() { separator(); Self.appendNull(to: &bytes); needsComma = true }
    /// Writes any value, e.g. an input id echoed back unchanged.
    public mutating func write(_ value: JSONValue) { separator(); Self.append(value, to: &bytes); needsComma = true }

    public mutating func field(_ name: String, _ value: String) { key(name); write(value) }
    public mutating func field(_ name: String, _ value: Double) { key(name); write(value) }
    public mutating func field(_ name: String, _ value: Int) { key(name); write(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); write(value) }
    public mutating func field(_ name: String, _ value: JSONValue) { key(name); write(value) }

    // MARK: One-shot encoding

    public static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    public static func encodeToString(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    // MARK: Primitives

    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: appendNull(to: &out)
        case .bool(let b): appendBool(b, to: &out)
        case .number(let d, let literal):
            if _JSONBytes.isValidNumberLiteral(literal) {
                out.append(contentsOf: literal.utf8)
            } else {
                appendNumber(d, to: &out)
            }
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append(0x5B)
            for (k, e) in elements.enumerated() {
                if k > 0 { out.append(0x2C) }
                append(e, to: &out)
            }
            out.append(0x5D)
        case .object(let object):
            out.append(0x7B)
            for (k, pair) in object.pairs.enumerated() {
                if k > 0 { out.append(0x2C) }
                appendString(pair.key, to: &out)
                out.append(0x3A)
                append(pair.value, to: &out)
            }
            out.append(0x7D)
        }
    }

    // The literals and digits below are appended from static or stack bytes: an array
    // literal per call would allocate, and appending digit by digit then reversing the slice
    // would cost several times the instructions.

    public static func appendNull(to out: inout [UInt8]) { appendStatic("null", to: &out) }

    public static func appendBool(_ b: Bool, to out: inout [UInt8]) { appendStatic(b ? "true" : "false", to: &out) }

    @inline(__always)
    private static func appendStatic(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        appendDigits(value.magnitude, count: 0, to: &out)
    }

    /// The decimal digits of `m`, at least `count` of them (leading zeros), most significant
    /// first.
    private static func appendDigits(_ m: UInt, count: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var m = m
            var i = 24
            repeat {
                i -= 1
                digits[i] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30
                m /= 10
            } while m > 0 || 24 - i < count
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<24]))
        }
    }

    /// Shortest round-trip form; see the file comment. Non-finite values are written as `null`.
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { appendNull(to: &out); return }
        if value.magnitude < 9_007_199_254_740_992.0, value.rounded(.towardZero) == value {
            if value == 0 {
                if value.sign == .minus { out.append(0x2D) }
                out.append(0x30)
            } else {
                appendInt(Int(value), to: &out)
            }
            return
        }
        // Swift's description is the shortest round-trip digit string, in the forms
        // "0.1", "1e-05", "1.5e+300", "1.8014398509481984e+16". Normalise the exponent.
        let text = value.description
        var inExponent = false
        var exponentDigitSeen = false
        let mantissaStart = out.count
        for b in text.utf8 {
            if inExponent {
                if b == 0x2B { continue }                              // drop '+'
                if b == 0x30, !exponentDigitSeen { continue }          // drop leading zeros
                if b != 0x2D { exponentDigitSeen = true }
                out.append(b)
            } else if b == 0x65 {
                stripPointZero(&out, from: mantissaStart)
                out.append(b)
                inExponent = true
            } else {
                out.append(b)
            }
        }
        if !inExponent { stripPointZero(&out, from: mantissaStart) }
    }

    /// `value` rounded to a multiple of 10⁻⁶ (half away from zero), so that its shortest
    /// round-trip text has at most 6 decimals: `119.80499999999999` → `119.805`,
    /// `1.0 / 3` → `0.333333`. Magnitudes of 10⁹ and more (where a millionth is near the
    /// precision of a Double) and non-finite values are returned unchanged; -0 becomes 0.
    ///
    /// The rounded value is the Double nearest to k × 10⁻⁶ (k an exact integer), whose
    /// shortest text is at most 15 significant digits, so the printed text is k × 10⁻⁶ with
    /// trailing zeros trimmed.
    public static func roundedToMillionths(_ value: Double) -> Double {
        guard value.isFinite, value.magnitude < 1e9 else { return value }
        return (value * 1e6).rounded(.toNearestOrAwayFromZero) / 1e6 + 0.0
    }

    /// `value` rounded to 6 decimals (``roundedToMillionths(_:)``) in plain decimal form,
    /// trailing zeros trimmed, never an exponent: `119.80499999999999` → `119.805`,
    /// `0.0000012` → `0.000001`, `1e-9` → `0`. Magnitudes of 10⁹ and more are written by
    /// ``appendNumber(_:to:)``; non-finite values as `null`.
    ///
    /// For every other value the text is the shortest round-trip text of the rounded value
    /// (at most 15 significant digits, so no shorter decimal reads back as the same Double),
    /// except that small values are not written with an exponent.
    public static func appendMillionths(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite, value.magnitude < 1e9 else { appendNumber(value, to: &out); return }
        let k = Int((value * 1e6).rounded(.toNearestOrAwayFromZero))
        if k < 0 { out.append(0x2D) }
        appendInt(Int(k.magnitude / 1_000_000), to: &out)
        var fraction = k.magnitude % 1_000_000
        guard fraction != 0 else { return }
        var digits = 6
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        out.append(0x2E)
        appendDigits(fraction, count: digits, to: &out)
    }

    private static func stripPointZero(_ out: inout [UInt8], from start: Int) {
        let c = out.count
        if c - start >= 2, out[c - 1] == 0x30, out[c - 2] == 0x2E { out.removeLast(2) }
    }

    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        // `withUTF8` also lends a small (inline) string's bytes, which
        // `utf8.withContiguousStorageIfAvailable` did not (it then copied them into an array).
        var s = s
        s.withUTF8 { appendEscaped($0, to: &out) }
        out.append(0x22)
    }

    private static func appendEscaped(_ buf: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var run = 0
        for j in 0..<buf.count {
            let b = buf[j]
            if b >= 0x20, b != 0x22, b != 0x5C { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[run..<j]))
            out.append(0x5C)
            switch b {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x08: out.append(0x62)
            case 0x0C: out.append(0x66)
            case 0x0A: out.append(0x6E)
            case 0x0D: out.append(0x72)
            case 0x09: out.append(0x74)
            default:
                let lo = b & 0xF
                out.append(0x75); out.append(0x30); out.append(0x30)
                out.append(0x30 + (b >> 4))                       // 0 or 1
                out.append(lo < 10 ? 0x30 + lo : 0x57 + lo)       // 0-9, a-f
            }
            run = j + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[run..<buf.count]))
    }
}
