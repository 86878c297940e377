import Synchronization

/// A measured result in the compact form tier 2 stores: sizes in device pixels (they are on
/// the grid), the line count and what width-range reuse needs.
struct CachedResult: Equatable, Sendable {
    var heightPixels: UInt32
    var widthPixels: UInt32
    var lineCount: UInt32
    /// Bit 0: truncated; bit 1: some line broke inside a word; bit 31: CLOCK reference.
    var flags: UInt32
    /// The widest line's used width (unrounded) and the layout width it was laid out at:
    /// the same lines come out for every width in [widest, layoutWidth].
    var widestLine: Double
    var layoutWidth: Double

    static let truncated: UInt32 = 1
    static let brokeInsideWord: UInt32 = 2
    static let referenced: UInt32 = 1 << 31

    var isReusableAcrossWidths: Bool { flags & (Self.truncated | Self.brokeInsideWord) == 0 }
}

/// Tier 2: results keyed by XXH3-128 of (text, style, width, scale, salt), plus one
/// width-range entry per (text, style, scale) for answering nearby widths.
///
/// Storage is an open-addressing table per shard (linear probing, backward-shift deletion),
/// 48-byte entries at most 75 % full: ≤ 64 bytes per entry, text not retained. Eviction is
/// CLOCK (second chance): hits set a reference bit, the hand clears it or evicts.
///
/// - Thread safety: 64 shards, each behind a `Synchronization.Mutex`.
/// - Complexity: O(1) expected per lookup and insertion; no allocation after creation.
final class ResultCache: Sendable {
    struct Entry {
        var key: CacheKey
        var value: CachedResult
    }

    static let entryBytes = MemoryLayout<Entry>.stride  // 48
    static let shardCount = 512

    /// One shard. Padded to two cache lines so that the locks and counters of neighbouring
    /// shards (allocated back to back) never share a line between cores.
    private final class Shard: @unchecked Sendable {
        let mutex: Mutex<Table>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        init(capacity: Int) { mutex = Mutex(Table(capacity: capacity)) }
    }

    /// One shard's table.
    struct Table: ~Copyable {
        var entries: UnsafeMutableBufferPointer<Entry>
        var mask: Int
        var count = 0
        var maxCount: Int
        var hand = 0
        var hits = 0
        var misses = 0
        var insertions = 0
        var evictions = 0

        init(capacity: Int) {
            let cap = max(2, capacity)
            entries = .allocate(capacity: cap)
            entries.initialize(repeating: Entry(key: CacheKey(low: 0, high: 0), value: CachedResult(heightPixels: 0, widthPixels: 0, lineCount: 0, flags: 0, widestLine: 0, layoutWidth: 0)))
            mask = cap - 1
            maxCount = max(1, cap * 3 / 4)
        }

        deinit { entries.deallocate() }

        @inline(__always)
        func find(_ key: CacheKey) -> Int? {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while true {
                let k = entries[i].key
                if k == key { return i }
                if k.low == 0 && k.high == 0 { return nil }
                i = (i + 1) & mask
            }
        }

        mutating func insert(_ key: CacheKey, _ value: CachedResult) {
            if let i = find(key) {
                entries[i].value = value
                return
            }
            if count >= maxCount { evictOne() }
            var i = Int(truncatingIfNeeded: key.low) & mask
            while !(entries[i].key.low == 0 && entries[i].key.high == 0) { i = (i + 1) & mask }
            entries[i] = Entry(key: key, value: value)
            count += 1
            insertions += 1
        }

        mutating func evictOne() {
            while true {
                let i = hand & mask
                hand &+= 1
                let k = entries[i].key
                if k.low == 0 && k.high == 0 { continue }
                if entries[i].value.flags & CachedResult.referenced != 0 {
                    entries[i].value.flags &= ~CachedResult.referenced
                    continue
                }
                remove(at: i)
                evictions += 1
                return
            }
        }

        /// Backward-shift deletion keeps probe chains intact without tombstones.
        mutating func remove(at index: Int) {
            var hole = index
            var j = index
            while true {
                j = (j + 1) & mask
                let k = entries[j].key
                if k.low == 0 && k.high == 0 { break }
                let home = Int(truncatingIfNeeded: k.low) & mask
                // Move j into the hole if its home is not in (hole, j] cyclically.
                let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
                if !inRange {
                    entries[hole] = entries[j]
                    hole = j
                }
            }
            entries[hole].key = CacheKey(low: 0, high: 0)
            count -= 1
        }

        mutating func removeAll() {
            for i in 0...mask { entries[i].key = CacheKey(low: 0, high: 0) }
            count = 0
        }
    }

    private let shards: [Shard]
    let budgetBytes: Int

    /// - Parameter budgetBytes: memory for all tables; the cache holds at most
    ///   budget / 64 entries.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        let perShard = max(0, budgetBytes) / Self.shardCount / Self.entryBytes
        var capacity = 2
        while capacity * 2 <= perShard { capacity *= 2 }
        shards = (0..<Self.shardCount).map { _ in Shard(capacity: capacity) }
    }

    @inline(__always)
    private static func normalise(_ key: CacheKey) -> CacheKey {
        key.low == 0 && key.high == 0 ? CacheKey(low: 0, high: 1) : key
    }

    /// The result for `key`, marking it recently used.
    @inline(__always)
    func value(for key: CacheKey) -> CachedResult? {
        let key = Self.normalise(key)
        return shards[key.shard(of: Self.shardCount)].mutex.withLock { t -> CachedResult? in
            if let i = t.find(key) {
                t.entries[i].value.flags |= CachedResult.referenced
                t.hits += 1
                var v = t.entries[i].value
                v.flags &= ~CachedResult.referenced
                return v
            }
            t.misses += 1
            return nil
        }
    }

    func insert(_ value: CachedResult, for key: CacheKey) {
        guard budgetBytes > 0 else { return }
        let key = Self.normalise(key)
        var v = value
        v.flags &= ~CachedResult.referenced
        shards[key.shard(of: Self.shardCount)].mutex.withLock { $0.insert(key, v) }
    }

    @discardableResult
    func remove(_ key: CacheKey) -> Bool {
        let key = Self.normalise(key)
        return shards[key.shard(of: Self.shardCount)].mutex.withLock { t in
            guard let i = t.find(key) else { return false }
            t.remove(at: i)
            return true
        }
    }

    func removeAll() {
        for s in shards { s.mutex.withLock { $0.removeAll() } }
    }

    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for s in shards {
            s.mutex.withLock { t in
                total.hits += t.hits
                total.misses += t.misses
                total.insertions += t.insertions
                total.evictions += t.evictions
                total.entries += t.count
                total.bytes += (t.mask + 1) * Self.entryBytes
            }
        }
        total.budget = budgetBytes
        return total
    }
}
