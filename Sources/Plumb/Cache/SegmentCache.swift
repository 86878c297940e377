/// Tier 1: shaped segment advances, independent of the layout width.
///
/// Keyed by XXH3-128 of the segment's UTF-8 bytes, seeded with the font identity and script.
/// Values are per-grapheme advances in font units, so one entry serves every size and letter
/// spacing of that font (advances are unhinted and scale linearly: see Decisions.md).
///
/// - Thread safety: safe from any thread (sharded `ClockCache`).
final class SegmentCache: Sendable {
    private let storage: ClockCache<[Int32]>

    init(budgetBytes: Int) {
        storage = ClockCache(budgetBytes: budgetBytes)
    }

    @inline(__always)
    static func key(bytes: UnsafeBufferPointer<UInt8>, fontID: Int, script: UInt32) -> CacheKey {
        CacheKey(
            bytes: UnsafeRawBufferPointer(bytes),
            seed: UInt64(truncatingIfNeeded: fontID) << 32 | UInt64(script) ^ 0x5E6_3E47)
    }

    @inline(__always)
    func advances(for key: CacheKey) -> [Int32]? { storage.value(for: key) }

    func insert(_ advances: [Int32], for key: CacheKey) {
        storage.insert(advances, bytes: 32 + advances.count * 4, for: key)
    }

    func removeAll() { storage.removeAll() }

    var statistics: CacheStatistics { storage.statistics }
}
