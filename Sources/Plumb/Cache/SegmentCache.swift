import Synchronization

/// Tier 1: shaped segment advances, independent of the layout width.
///
/// Keyed by XXH3-128 of the segment's UTF-8 bytes, the font identity and the script.
/// Values are per-grapheme advances in font units, so one entry serves every size and letter
/// spacing of that font (advances are unhinted and scale linearly: see Decisions.md).
///
/// Stored flat: 256 shards, each a ``SegmentTable`` of 64-byte slots that hold a word's key
/// and advances together, under one lock per shard; CLOCK eviction within a shard's share of
/// the budget.
///
/// - Thread safety: safe from any thread (one `Lock` per shard).
final class SegmentCache: Sendable {
    static let shardCount = 256

    /// One shard's lock and table (a class so an array can hold the non-copyable `Lock`).
    private final class Shard: Sendable {
        let mutex: Lock<SegmentTable>
        init(budget: Int) { mutex = Lock(SegmentTable(budget: budget)) }
    }

    private let shards: [Shard]
    /// The same shards without reference counting (kept alive by `shards`): a look-up on the
    /// hot path writes no shared reference count.
    private let shardRefs: [Unmanaged<Shard>]
    /// The engine's shared font tables of prepared texts (emptied with the segments).
    let fontTables = FontTableInterner()
    let budgetBytes: Int

    /// Heap bytes of one shard besides its table: the shard object and its lock's TSan tag.
    static var shardBookkeepingBytes: Int {
        HeapCost.object(storedBytes: MemoryLayout<Lock<SegmentTable>>.stride) + HeapCost.malloc(1)
    }

    /// - Parameter budgetBytes: the most bytes all shards may hold (tables and long
    ///   segments' buffers, as malloc chunks); 0 disables the cache.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        // Each shard's fixed bookkeeping comes out of its share, so `statistics.bytes` never
        // exceeds the budget.
        let shardBudget = max(0, budgetBytes / Self.shardCount - Self.shardBookkeepingBytes)
        shards = (0..<Self.shardCount).map { _ in Shard(budget: shardBudget) }
        shardRefs = shards.map { Unmanaged.passUnretained($0) }
    }

    /// The key of a segment: the digest of its bytes, then the font identity and script, as
    /// data (``KeyDomain/segment``; see ``CacheKey/seed`` on why never as seeds). `script` is
    /// the script's raw tag as the preparer keys it (its top bit set for the document
    /// language): the value hashed, not a script to shape with.
    @inline(__always)
    static func key(bytes: UnsafeBufferPointer<UInt8>, fontID: Int, script: UInt32) -> CacheKey {
        var e = KeyEncoder(.segment)
        e.append(CacheKey(bytes: UnsafeRawBufferPointer(bytes)))
        e.append(fontID)
        e.append(script)
        return e.key
    }

    @inline(__always)
    private func withTable<R: Sendable>(of key: CacheKey, _ body: (inout sending SegmentTable) -> R) -> R {
        shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { $0.mutex.withLock { body(&$0) } }
    }

    /// The advances for `key` (for tests and diagnostics; the preparer copies them out with
    /// ``copyAdvances(for:into:)``).
    func advances(for key: CacheKey) -> [Int32]? { withTable(of: key) { $0.advances(for: key) } }

    /// Copies the advances for `key` into `out` when they are cached and number exactly
    /// `out.count`; returns whether it did. Nothing is retained or allocated.
    ///
    /// - Complexity: one shard lock and, expected, one probe of one cache line; O(`out.count`)
    ///   copying.
    @inline(__always)
    func copyAdvances(for key: CacheKey, into out: UnsafeMutableBufferPointer<Int32>) -> Bool {
        withTable(of: key) { $0.copy(key, into: out) }
    }

    /// Stores the advances of a segment (copied: nothing is allocated for up to
    /// ``SegmentTable/inlineCapacity`` clusters).
    func insert(_ advances: UnsafeBufferPointer<Int32>, for key: CacheKey) {
        guard !advances.isEmpty else { return }
        _ = withTable(of: key) { $0.insert(advances, for: key) }
    }

    /// ``insert(_:for:)`` from an array.
    func insert(_ advances: [Int32], for key: CacheKey) {
        advances.withUnsafeBufferPointer { insert($0, for: key) }
    }

    func removeAll() {
        for shard in shards { shard.mutex.withLock { $0.removeAll() } }
        fontTables.removeAll()
    }

    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for shard in shards {
            total = total + shard.mutex.withLock { table -> CacheStatistics in
                var s = table.stats
                s.entries = table.count
                s.bytes = table.bytes
                return s
            }
        }
        total.bytes += Self.shardCount * Self.shardBookkeepingBytes
        total.budget = budgetBytes
        return total
    }
}
