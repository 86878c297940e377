internal import CXXHash

/// A 128-bit XXH3 digest used as a cache key. Collisions are astronomically unlikely
/// (2⁻⁶⁴ birthday bound at 2³² entries), so keys stand in for the data they hash.
public struct CacheKey: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var low: UInt64
    public var high: UInt64

    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The seed of every text key. Seeds are constants throughout Plumb: values that must
    /// tell keys apart (font, script, style, engine salt) are hashed as data, because XXH3
    /// folds a seed into short inputs so that different inputs under different seeds collide.
    static let textSeed: UInt64 = 0x5445_5854

    /// XXH3-128 of raw bytes with a seed.
    ///
    /// - Complexity: O(n), ~9 ns for 100 bytes; allocation-free; thread-safe.
    @inline(__always)
    init(bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) {
        let h = plumb_xxh3_128(bytes.baseAddress, bytes.count, seed)
        self.init(low: h.low, high: h.high)
    }

    /// XXH3-128 of a trivial value's bytes (e.g. a tuple of numbers).
    @inline(__always)
    init<T: BitwiseCopyable>(value: T, seed: UInt64 = 0) {
        var v = value
        self = withUnsafeBytes(of: &v) { CacheKey(bytes: $0, seed: seed) }
    }

    /// The bits are already uniformly distributed: feed one word to the hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(low)
    }

    /// Which of `count` shards (a power of two) this key lives in.
    @inline(__always) func shard(of count: Int) -> Int { Int(truncatingIfNeeded: high) & (count - 1) }

    public var description: String {
        let h = String(high, radix: 16)
        let l = String(low, radix: 16)
        return String(repeating: "0", count: 16 - h.count) + h + String(repeating: "0", count: 16 - l.count) + l
    }
}

/// Hashes for keys built from strings and numbers, without allocating.
enum KeyHasher {
    /// XXH3-64 of a string's UTF-8 bytes.
    static func hash64(_ string: String, seed: UInt64 = 0) -> UInt64 {
        var s = string
        return s.withUTF8 { plumb_xxh3_64($0.baseAddress, $0.count, seed) }
    }

    /// Chains two 64-bit hashes: XXH3-64 of both as data (never one as the other's seed:
    /// XXH3 is not collision resistant across seeds).
    @inline(__always)
    static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var pair = (a, b)
        return withUnsafeBytes(of: &pair) { plumb_xxh3_64($0.baseAddress, $0.count, 0x4348_4149) }
    }
}
