import Synchronization

/// A value a ``ClockCache`` can hold: an immutable object that knows its heap bytes (the
/// cache charges them at insertion and gives them back at eviction).
protocol CacheCharged: AnyObject, Sendable {
    /// Heap bytes the object owns, the same for its whole life.
    var byteSize: Int { get }
}

extension PreparedText: CacheCharged {}

/// A sharded, byte-budgeted map from `CacheKey` to an object with CLOCK (second-chance)
/// eviction: a hit sets the entry's reference bit; the eviction hand skips (and clears)
/// referenced entries, so hot entries survive scans of cold ones.
///
/// Each shard is one open-addressing table of 24-byte slots — the key and the object's
/// address with the reference bit in its low bit — at most 75 % full, linear probing,
/// backward-shift deletion. A look-up reads one slot (usually one line) and then the object,
/// with no index to walk first (Decisions.md, "A flat segment tier").
///
/// - Thread safety: every operation locks one shard (`Lock`); `shardCount` (256) shards
///   keep contention low on many cores.
/// - Complexity: lookup and insertion O(1) amortised.
final class ClockCache<Value: CacheCharged>: Sendable {
    private struct Table: ~Copyable, @unchecked Sendable {  // owns its slots; used only under its shard's lock
        static var slotWords: Int { 3 }
        /// `capacity × 3` words: key low, key high, the object (retained once) | referenced.
        var words: UnsafeMutablePointer<UInt>
        var mask: Int
        var count = 0
        var hand = 0
        /// Bytes charged: each entry's `byteSize` + ``ClockCache/overheadPerEntry``.
        var bytes = 0
        var stats = CacheStatistics()

        init() {
            words = .allocate(capacity: ClockCache.initialSlots * Self.slotWords)
            words.initialize(repeating: 0, count: ClockCache.initialSlots * Self.slotWords)
            mask = ClockCache.initialSlots - 1
        }

        deinit {
            for i in 0...mask where object(i) != 0 { release(i) }
            words.deallocate()
        }

        @inline(__always) func keyLow(_ i: Int) -> UInt64 { UInt64(words[i &* 3]) }
        @inline(__always) func keyHigh(_ i: Int) -> UInt64 { UInt64(words[i &* 3 &+ 1]) }
        /// The object's address with the reference bit (0: empty slot).
        @inline(__always) func object(_ i: Int) -> UInt { words[i &* 3 &+ 2] }

        @inline(__always)
        func value(_ i: Int) -> Value {
            Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: object(i) & ~1).unsafelyUnwrapped).takeUnretainedValue()
        }

        /// Drops the table's reference to slot `i`'s object.
        func release(_ i: Int) {
            Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: object(i) & ~1).unsafelyUnwrapped).release()
        }

        /// The slot holding `key`, or nil.
        @inline(__always)
        func find(_ key: CacheKey) -> Int? {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while true {
                if object(i) == 0 { return nil }
                if keyLow(i) == key.low && keyHigh(i) == key.high { return i }
                i = (i &+ 1) & mask
            }
        }

        func emptySlot(for low: UInt64) -> Int {
            var i = Int(truncatingIfNeeded: low) & mask
            while object(i) != 0 { i = (i &+ 1) & mask }
            return i
        }

        mutating func markReferenced(_ i: Int) {
            if words[i &* 3 &+ 2] & 1 == 0 { words[i &* 3 &+ 2] |= 1 }
        }

        /// Stores `value` (retained) for `key` in an empty slot, growing first if that would
        /// leave the table over 75 % full.
        mutating func place(_ value: Value, for key: CacheKey, referenced: Bool) {
            if (count + 1) * 4 > (mask + 1) * 3 { grow() }
            let i = emptySlot(for: key.low)
            words[i &* 3] = UInt(key.low)
            words[i &* 3 &+ 1] = UInt(key.high)
            words[i &* 3 &+ 2] = UInt(bitPattern: Unmanaged.passRetained(value).toOpaque()) | (referenced ? 1 : 0)
            count += 1
        }

        /// Doubles the slots, moving every entry (objects keep their references).
        mutating func grow() {
            let old = words
            let oldCapacity = mask + 1
            let capacity = oldCapacity * 2
            words = .allocate(capacity: capacity * Self.slotWords)
            words.initialize(repeating: 0, count: capacity * Self.slotWords)
            mask = capacity - 1
            for j in 0..<oldCapacity where old[j &* 3 &+ 2] != 0 {
                let i = emptySlot(for: UInt64(old[j &* 3]))
                for w in 0..<Self.slotWords { words[i &* 3 &+ w] = old[j &* 3 &+ w] }
            }
            old.deallocate()
        }

        /// Empties slot `index` (its object already released), shifting the entries after it
        /// back so that every chain stays unbroken.
        mutating func remove(at index: Int) {
            let words = self.words, mask = self.mask
            let hole = LinearProbing.closeHole(
                at: index, mask: mask, isEmpty: { words[$0 &* 3 &+ 2] == 0 },
                home: { Int(truncatingIfNeeded: words[$0 &* 3]) & mask },
                move: { from, to in for w in 0..<Self.slotWords { words[to &* 3 &+ w] = words[from &* 3 &+ w] } })
            words[hole &* 3 &+ 2] = 0
            count -= 1
        }

        /// Removes slot `i`'s entry, giving back its charge.
        mutating func evict(at i: Int) {
            bytes -= value(i).byteSize + ClockCache.overheadPerEntry
            release(i)
            remove(at: i)
        }

        /// CLOCK: the hand skips (and clears) referenced entries and evicts the first other one.
        mutating func evictOne() {
            while true {
                let i = hand & mask
                hand &+= 1
                let o = object(i)
                guard o != 0 else { continue }
                if o & 1 != 0 {
                    words[i &* 3 &+ 2] = o & ~1
                    continue
                }
                evict(at: i)
                stats.evictions += 1
                return
            }
        }
    }

    static var shardCount: Int { 256 }
    /// Each shard's first table (counted with its fixed bookkeeping).
    static var initialSlots: Int { 16 }
    /// Bookkeeping charged per entry besides the object's bytes, at its worst so that the
    /// budget bounds memory: the 24-byte slot in a table at most 75 % full that doubles, so
    /// after a doubling up to 8/3 slots per entry (the first table is the shard's). 64 bytes
    /// (80 with an index of tags beside an array of 32-byte slots).
    static var overheadPerEntry: Int { Table.slotWords * MemoryLayout<UInt>.stride * 8 / 3 }

    /// Heap bytes of one shard besides its entries' share: its lock object, the mutex's TSan
    /// tag and its first table, as malloc chunks.
    static var shardBookkeepingBytes: Int {
        HeapCost.object(storedBytes: MemoryLayout<Lock<Table>>.stride) + HeapCost.malloc(1)
            + HeapCost.malloc(initialSlots * Table.slotWords * MemoryLayout<UInt>.stride)
    }

    /// One lock per shard (a class so an array can hold the non-copyable `Lock`).
    private final class Shard: Sendable {
        let mutex = Lock(Table())
    }

    private let shards: [Shard]
    /// The same shards without reference counting (kept alive by `shards`): a look-up on the
    /// hot path then writes no shared reference count.
    private let shardRefs: [Unmanaged<Shard>]
    let budgetBytes: Int
    private let shardBudget: Int

    /// - Parameter budgetBytes: the most bytes all entries may be charged; 0 disables the cache.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        // Each shard's fixed bookkeeping comes out of its share, so `statistics.bytes` never
        // exceeds the budget.
        self.shardBudget = max(0, max(0, budgetBytes) / Self.shardCount - Self.shardBookkeepingBytes)
        self.shards = (0..<Self.shardCount).map { _ in Shard() }
        self.shardRefs = shards.map { Unmanaged.passUnretained($0) }
    }

    /// The shard of `key`, reached without retaining it.
    @inline(__always)
    private func withTable<R: Sendable>(of key: CacheKey, _ body: (inout sending Table) -> R) -> R {
        shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { $0.mutex.withLock { body(&$0) } }
    }

    /// The value for `key`, marking it recently used.
    ///
    /// - Complexity: one shard lock and, expected, one slot probe.
    @inline(__always)
    func value(for key: CacheKey) -> Value? {
        withTable(of: key) { table -> Value? in
            guard let i = table.find(key) else {
                table.stats.misses += 1
                return nil
            }
            table.markReferenced(i)
            table.stats.hits += 1
            return table.value(i)
        }
    }

    /// Inserts or replaces `value`, charging its `byteSize` plus ``overheadPerEntry``
    /// against the budget and evicting cold entries of the same shard as needed. A value
    /// larger than a shard's budget is not stored, nor a new one that would evict when
    /// `admitWhenFull` (asked under the shard's lock, only then) says no: an admission filter
    /// against scans (`ScanAdmission.seenBefore`) applied where the shard is full, not before.
    ///
    /// - Returns: whether the value was stored.
    @discardableResult
    func insert(_ value: Value, for key: CacheKey, admitWhenFull: ((CacheKey) -> Bool)? = nil) -> Bool {
        let cost = value.byteSize + Self.overheadPerEntry
        guard cost <= shardBudget else { return false }
        let budget = shardBudget
        return withTable(of: key) { table -> Bool in
            // A replaced entry stays recently used.
            var replaces = false
            if let i = table.find(key) {
                table.evict(at: i)
                replaces = true
            }
            if !replaces {
                if table.bytes + cost > budget, let admitWhenFull, !admitWhenFull(key) { return false }
                table.stats.insertions += 1
            }
            while table.bytes + cost > budget, table.count > 0 { table.evictOne() }
            table.place(value, for: key, referenced: replaces)
            table.bytes += cost
            return true
        }
    }

    /// Removes one entry; returns whether it existed.
    @discardableResult
    func remove(_ key: CacheKey) -> Bool {
        withTable(of: key) { table -> Bool in
            guard let i = table.find(key) else { return false }
            table.evict(at: i)
            return true
        }
    }

    /// Empties the cache (statistics other than counts of entries and bytes are kept).
    func removeAll() {
        for shard in shards {
            shard.mutex.withLock { table in
                let stats = table.stats
                table = Table()
                table.stats = stats
            }
        }
    }

    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for shard in shards {
            let s = shard.mutex.withLock { table -> CacheStatistics in
                var s = table.stats
                s.entries = table.count
                s.bytes = table.bytes
                return s
            }
            total = total + s
        }
        total.bytes += Self.shardCount * Self.shardBookkeepingBytes
        total.budget = budgetBytes
        return total
    }
}
