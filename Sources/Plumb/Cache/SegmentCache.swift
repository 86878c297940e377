/// Tier 1: shaped segment advances, independent of the layout width.
///
/// Keyed by XXH3-128 of the segment's UTF-8 bytes, the font identity and the script.
/// Values are per-grapheme advances in font units, so one entry serves every size and letter
/// spacing of that font (advances are unhinted and scale linearly: see Decisions.md).
///
/// - Thread safety: safe from any thread (sharded `ClockCache`).
final class SegmentCache: Sendable {
    private let storage: ClockCache<[Int32]>

    init(budgetBytes: Int) {
        storage = ClockCache(budgetBytes: budgetBytes)
    }

    /// The key of a segment: its bytes hashed with a fixed seed, then hashed again with the
    /// font identity and script as data.
    ///
    /// The font and script must not go into the seed: for short inputs XXH3 folds the seed into
    /// the input with additions and XORs, so two small seeds and two inputs that differ by the
    /// matching bits collide (`'xx01', ` in font 0 and `'xx00', ` in font 3 had one key, and
    /// DejaVu Sans was measured with Noto Sans' advances). XXH3 is not collision resistant
    /// across seeds; every discriminating field is hashed as data.
    @inline(__always)
    static func key(bytes: UnsafeBufferPointer<UInt8>, fontID: Int, script: UInt32) -> CacheKey {
        let text = CacheKey(bytes: UnsafeRawBufferPointer(bytes), seed: 0x5E6_3E47)
        return CacheKey(value: (text.low, text.high, UInt64(truncatingIfNeeded: fontID), UInt64(script)), seed: 0x5E6_3E48)
    }

    @inline(__always)
    func advances(for key: CacheKey) -> [Int32]? { storage.value(for: key) }

    func insert(_ advances: [Int32], for key: CacheKey) {
        storage.insert(advances, bytes: 32 + advances.count * 4, for: key)
    }

    func removeAll() { storage.removeAll() }

    var statistics: CacheStatistics { storage.statistics }
}
