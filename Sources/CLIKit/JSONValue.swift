// JSON document model used by the `plumb` command line.
//
// Numbers keep the literal text they were parsed from, so an input value such as
// `"id": 12345678901234567890` can be echoed back byte-for-byte even though it does
// not fit a Double exactly. Two numbers are equal when both the Double and the
// literal text are equal (so `1.0` and `1` are different values, like their text).

/// A JSON value. Objects keep their key order (see `JSONObject`).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A finite number and its JSON literal text (e.g. `"1e3"`, `"-0"`, `"12345678901234567890"`).
    /// The literal is what `JSONWriter` prints; construct numbers from Swift values with
    /// `JSONValue.number(_:)`, which derives the shortest round-trip literal.
    case number(Double, literal: String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A number with its shortest round-trip literal (`44.0` → `"44"`, `0.1` → `"0.1"`).
    /// Non-finite values (NaN, ±infinity) cannot be represented in JSON and become `.null`.
    public static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        var bytes: [UInt8] = []
        JSONWriter.appendNumber(value, to: &bytes)
        return .number(value, literal: String(decoding: bytes, as: UTF8.self))
    }

    /// An integer number (literal is its decimal text, exact even beyond 2^53).
    public static func number(_ value: Int) -> JSONValue {
        .number(Double(value), literal: String(value))
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var doubleValue: Double? { if case .number(let d, _) = self { return d } else { return nil } }
    public var numberLiteral: String? { if case .number(_, let l) = self { return l } else { return nil } }
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }

    /// Exact integer value, if this is a number without fractional part that fits `Int`.
    public var intValue: Int? {
        guard case .number(let d, let literal) = self else { return nil }
        if let i = Int(literal) { return i }  // exact for plain integer literals
        guard d.rounded(.towardZero) == d, d >= -9.223372036854775808e18, d < 9.223372036854775808e18
        else { return nil }
        return Int(d)
    }

    /// Member lookup for objects (last duplicate key wins); nil for non-objects.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] } else { return nil }
    }

    /// A short name of the kind of value, for messages ("expected a string, found number").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object that preserves key order (including duplicate keys) for echoing,
/// with lookup where the last duplicate key wins. Lookup is a backwards linear scan,
/// which is fastest for the small objects of a cell line.
/// Equality is ordered: same pairs in the same order.
public struct JSONObject: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public typealias Pair = (key: String, value: JSONValue)
    public private(set) var pairs: [Pair]

    public init() { pairs = [] }
    public init(_ pairs: [Pair]) { self.pairs = pairs }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        pairs = elements.map { (key: $0.0, value: $0.1) }
    }

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    public var keys: [String] { pairs.map(\.key) }

    /// Value of the last pair named `key`. Setting replaces that pair's value in place,
    /// or appends a new pair; setting nil removes every pair named `key`.
    public subscript(key: String) -> JSONValue? {
        get {
            var i = pairs.count
            while i > 0 {
                i -= 1
                if pairs[i].key == key { return pairs[i].value }
            }
            return nil
        }
        set {
            guard let newValue else { pairs.removeAll { $0.key == key }; return }
            if let i = pairs.lastIndex(where: { $0.key == key }) {
                pairs[i].value = newValue
            } else {
                pairs.append((key: key, value: newValue))
            }
        }
    }

    /// Appends a pair without looking for an existing key (keeps duplicates, like the parser).
    public mutating func append(key: String, value: JSONValue) {
        pairs.append((key: key, value: value))
    }

    public mutating func reserveCapacity(_ n: Int) { pairs.reserveCapacity(n) }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.pairs.count == b.pairs.count else { return false }
        for i in a.pairs.indices where a.pairs[i].key != b.pairs[i].key || a.pairs[i].value != b.pairs[i].value {
            return false
        }
        return true
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
