internal import CXXHash

/// A 128-bit XXH3 digest used as a cache key. Collisions are astronomically unlikely
/// (2⁻⁶⁴ birthday bound at 2³² entries), so keys stand in for the data they hash.
///
/// Every key is derived in one of two ways, both defined in this file: the digest of raw
/// bytes (``init(bytes:)``: a cell's text, a segment's text) or a ``KeyEncoder`` over typed
/// fields that starts with a ``KeyDomain``.
///
/// Internal: no public API takes or returns a key (styles are fingerprinted inside
/// `ResolvedStyle`).
struct CacheKey: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The digest's low 64 bits (the probe start in the result table).
    var low: UInt64
    /// The digest's high 64 bits (the shard in the result table).
    var high: UInt64

    /// A key from its two words (tests and the tables' empty marker).
    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The one seed of XXH3 in Plumb. Seeds never tell keys apart: XXH3 folds a seed into
    /// short inputs with additions and XORs, so different inputs under different seeds
    /// collide (`'xx01', ` in font 0 and `'xx00', ` in font 3 once had one segment key).
    /// Everything that must separate keys — domain, font, script, style, engine salt — is
    /// hashed as data by ``KeyEncoder``.
    static let seed: UInt64 = 0x504C_554D_4B45_5953

    /// XXH3-128 of raw bytes.
    ///
    /// - Complexity: O(n); allocation-free; thread-safe (timings: Decisions.md, "Timings from
    ///   code comments").
    @inline(__always)
    init(bytes: UnsafeRawBufferPointer) {
        let h = plumb_xxh3_128(bytes.baseAddress, bytes.count, Self.seed)
        self.init(low: h.low, high: h.high)
    }

    /// The bits are already uniformly distributed: feed one word to the hasher.
    func hash(into hasher: inout Hasher) {
        hasher.combine(low)
    }

    /// Which of `count` shards (a power of two) this key lives in.
    @inline(__always) func shard(of count: Int) -> Int { Int(truncatingIfNeeded: high) & (count - 1) }

    /// 32 hexadecimal digits, high word first.
    var description: String {
        let h = String(high, radix: 16)
        let l = String(low, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h + String(repeating: "0", count: 16 - l.count) + l
    }
}

/// What a key identifies: the first word of every ``KeyEncoder`` key, so that keys of
/// different kinds never coincide even when their fields do. All domains live here; a new
/// kind of key is a new case, never a new seed.
enum KeyDomain: UInt64 {
    /// The engine's salt: version, ICU version, break locale, installed font files.
    case engineSalt = 1
    /// Everything that changes shaping: salt, font descriptor, letter spacing, profile.
    case shaping
    /// Everything that changes a layout: the shaping fingerprint plus paragraph options.
    case layout
    /// A layout fingerprint after `invalidate(style:)` bumped its generation.
    case styleGeneration
    /// A prepared text (tier 1): text digest and shaping fingerprint.
    case preparedText
    /// A shaped segment (tier 1): segment digest, font identity, script.
    case segment
    /// A result (tier 2): the cell's width-range key (text digest, layout fingerprint,
    /// scale), then the snapped width.
    case result
    /// A width-range entry (tier 2): text digest, layout fingerprint, scale.
    case widthRange
    /// An attributed text's content: the text digest and every run (`AttributedText`).
    case attributedContent
}

/// Builds a key from a domain and a sequence of typed fields, each written as whole 64-bit
/// words (no padding bytes, so keys are deterministic), then hashed with XXH3-128.
///
/// Up to 16 words are hashed in one call; a longer encoding folds the first 16 into their
/// digest and continues (variable-length fields are prefixed with their length, so the
/// encoding stays injective).
///
/// - Complexity: O(words); allocation-free. A range key (6 words) costs one XXH3-128 call
///   over 48 bytes, a result key (4 words: the range key and the width) one over 32.
struct KeyEncoder {
    private typealias Words = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    private static let capacity = 16
    private var words: Words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 1

    /// An encoding that starts with `domain`.
    @inline(__always)
    init(_ domain: KeyDomain) {
        words.0 = domain.rawValue
    }

    /// Appends one word.
    @inline(__always)
    mutating func append(_ word: UInt64) {
        if count == Self.capacity { fold() }
        let offset = count &* 8
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: word, toByteOffset: offset, as: UInt64.self) }
        count &+= 1
    }

    /// Appends a typed field.
    @inline(__always)
    mutating func append(_ value: some KeyEncodable) {
        value.encode(into: &self)
    }

    /// The digest of the words so far.
    @inline(__always)
    var key: CacheKey {
        var w = words
        let n = count &* 8
        return withUnsafeBytes(of: &w) { CacheKey(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    private mutating func fold() {
        let k = key
        words.0 = k.low
        words.1 = k.high
        count = 2
    }
}

/// A value written into a ``KeyEncoder`` as whole words.
protocol KeyEncodable {
    /// Appends this value's words (a fixed number for fixed-size values; variable-length
    /// values write their length first).
    func encode(into encoder: inout KeyEncoder)
}

extension UInt64: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(self) }
}

extension Int: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(UInt64(bitPattern: Int64(self))) }
}

extension UInt32: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(UInt64(self)) }
}

extension Bool: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(self ? 1 : 0) }
}

/// The bit pattern: `0.0` and `-0.0` are different keys (callers normalise if they must).
extension Double: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(bitPattern) }
}

extension CacheKey: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) {
        e.append(low)
        e.append(high)
    }
}

/// Its UTF-8 length, then the digest of its UTF-8 bytes.
extension String: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        var s = self
        let k = s.withUTF8 { CacheKey(bytes: UnsafeRawBufferPointer($0)) }
        e.append(UInt64(utf8.count))
        e.append(k)
    }
}

/// Its count, then each element.
extension Array: KeyEncodable where Element: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(count)
        for element in self { e.append(element) }
    }
}
