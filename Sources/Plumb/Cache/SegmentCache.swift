/// Tier 1: shaped segment advances, independent of the layout width.
///
/// Keyed by XXH3-128 of the segment's UTF-8 bytes, the font identity and the script.
/// Values are per-grapheme advances in font units, so one entry serves every size and letter
/// spacing of that font (advances are unhinted and scale linearly: see Decisions.md).
///
/// - Thread safety: safe from any thread (sharded `ClockCache`).
final class SegmentCache: Sendable {
    private let storage: ClockCache<[Int32]>
    /// The engine's shared font tables of prepared texts (emptied with the segments).
    let fontTables = FontTableInterner()

    init(budgetBytes: Int) {
        storage = ClockCache(budgetBytes: budgetBytes)
    }

    /// The key of a segment: the digest of its bytes, then the font identity and script, as
    /// data (``KeyDomain/segment``; see ``CacheKey/seed`` on why never as seeds).
    @inline(__always)
    static func key(bytes: UnsafeBufferPointer<UInt8>, fontID: Int, script: UInt32) -> CacheKey {
        var e = KeyEncoder(.segment)
        e.append(CacheKey(bytes: UnsafeRawBufferPointer(bytes)))
        e.append(fontID)
        e.append(script)
        return e.key
    }

    @inline(__always)
    func advances(for key: CacheKey) -> [Int32]? { storage.value(for: key) }

    /// Copies the advances for `key` into `out` when they are cached and number exactly
    /// `out.count`; returns whether it did. Nothing is retained (the array is read under the
    /// shard's lock), so a hit touches no shared reference count.
    ///
    /// - Complexity: one shard lock and index probe, O(`out.count`) copying.
    @inline(__always)
    func copyAdvances(for key: CacheKey, into out: UnsafeMutableBufferPointer<Int32>) -> Bool {
        storage.withValue(for: key) { (cached: borrowing [Int32]) -> Bool in
            guard cached.count == out.count else { return false }
            // Element by element: `withUnsafeBufferPointer` here retained and released the array.
            for k in 0..<out.count { out[k] = cached[k] }
            return true
        } ?? false
    }

    func insert(_ advances: [Int32], for key: CacheKey) {
        storage.insert(advances, bytes: HeapCost.array(advances), for: key)
    }

    func removeAll() {
        storage.removeAll()
        fontTables.removeAll()
    }

    var statistics: CacheStatistics { storage.statistics }
}
