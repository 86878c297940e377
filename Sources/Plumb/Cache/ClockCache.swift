import Synchronization

/// Counters of a cache, for `--stats` and tests.
public struct CacheStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Lookups that found their entry.
    public var hits: Int = 0
    /// Lookups that did not (the value was then computed).
    public var misses: Int = 0
    /// Entries stored.
    public var insertions: Int = 0
    /// Entries dropped to stay within the budget.
    public var evictions: Int = 0
    /// Entries held now.
    public var entries: Int = 0
    /// Memory the cache holds, allocator overhead and bookkeeping included, so that it bounds
    /// the cache's share of the process's memory: tier 1 counts malloc chunks and its index
    /// and slot arrays at their worst, tier 2 the table slots in use (the only resident ones).
    /// At most `budget`.
    public var bytes: Int = 0
    /// The cache's byte budget (`TextMeasurer.Configuration`).
    public var budget: Int = 0

    /// All counters 0.
    public init() {}

    /// `hits / (hits + misses)`, 0 before any lookup.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }

    /// The counters on one line: `"hits …, misses …, …, bytes used/budget"`.
    public var description: String {
        "hits \(hits), misses \(misses), insertions \(insertions), evictions \(evictions), "
            + "entries \(entries), bytes \(bytes)/\(budget)"
    }

    static func + (a: CacheStatistics, b: CacheStatistics) -> CacheStatistics {
        var r = CacheStatistics()
        r.hits = a.hits + b.hits
        r.misses = a.misses + b.misses
        r.insertions = a.insertions + b.insertions
        r.evictions = a.evictions + b.evictions
        r.entries = a.entries + b.entries
        r.bytes = a.bytes + b.bytes
        r.budget = a.budget + b.budget
        return r
    }
}

/// A sharded, byte-budgeted map from `CacheKey` to `Value` with CLOCK (second-chance)
/// eviction: a hit sets the entry's reference bit; the eviction hand skips (and clears)
/// referenced entries, so hot entries survive scans of cold ones.
///
/// - Thread safety: every operation locks one shard (``Mutex``); `shardCount` (256) shards
///   keep contention low on many cores.
/// - Complexity: lookup and insertion O(1) amortised.
final class ClockCache<Value: Sendable>: Sendable {
    /// 32 bytes for a reference or array value: the key (stored only here: the index
    /// keeps a tag), the value, the charge in 32 bits, the reference bit.
    private struct Slot {
        var key: CacheKey
        var value: Value?
        var bytes: UInt32
        var referenced: Bool
    }

    private struct Shard: ~Copyable {
        var index = KeyIndex()
        var slots: [Slot] = []
        var free: [Int32] = []
        var hand: Int = 0
        var bytes: Int = 0
        var stats = CacheStatistics()

        /// The slot holding `key` (the index keeps tags; the slot has the whole key).
        @inline(__always)
        func slot(of key: CacheKey) -> Int32? {
            index.slot(of: key, keyOf: { slots[Int($0)].key })
        }
    }

    static var shardCount: Int { 256 }
    /// Bookkeeping charged per entry besides the caller's payload, at its worst so that the
    /// budget bounds memory: the slot in `slots` (an array grown by a quarter: up to 1.25 slots per
    /// entry, ``growSlots(_:)``), the index (a tag and a slot number, grown at 50 % load: up
    /// to 4 per entry) and the free list (up to 2 slot numbers per entry). 80 bytes for a
    /// reference value (88 with the slots grown by half, 168 when the index held whole keys,
    /// the slot a 64-bit charge and the slot array doubled).
    static var overheadPerEntry: Int {
        MemoryLayout<Slot>.stride * 5 / 4 + 4 * KeyIndex.entryBytes + 2 * 4
    }

    /// The slot array's first capacity (counted with the shard's fixed bookkeeping).
    private static var firstSlotCapacity: Int { 4 }

    /// Makes room for one more slot: capacity × 1.25 (not the array's doubling), so the slots
    /// take at most 1.25 per entry, plus one array header and malloc's rounding per shard
    /// (each growth copies the slots: four copies per slot amortised, on insertion only).
    @inline(__always)
    private static func growSlots(_ slots: inout [Slot]) {
        guard slots.count == slots.capacity else { return }
        slots.reserveCapacity(max(firstSlotCapacity, slots.count + slots.count / 4))
    }

    /// Heap bytes of one shard besides its entries' share: its lock object, the mutex's TSan
    /// tag, the index's first 16 entries, the slot array's first capacity and, for any later
    /// one, its header and malloc's rounding (48 bytes), as malloc chunks.
    static var shardBookkeepingBytes: Int {
        HeapCost.object(storedBytes: MemoryLayout<Shard>.stride + 16) + HeapCost.malloc(1)
            + HeapCost.malloc(32 + 16 * KeyIndex.entryBytes)
            + HeapCost.malloc(32 + firstSlotCapacity * MemoryLayout<Slot>.stride) + 48
    }

    /// One lock per shard (a class so an array can hold the non-copyable `Mutex`).
    private final class ShardLock: Sendable {
        let mutex = Mutex(Shard())
        @inline(__always)
        func withLock<R>(_ body: (inout Shard) throws -> R) rethrows -> R {
            try mutex.withLock { try body(&$0) }
        }
    }

    private let shards: [ShardLock]
    /// The same shards without reference counting (kept alive by `shards`): a look-up on the
    /// hot path then writes no shared reference count.
    private let shardRefs: [Unmanaged<ShardLock>]
    let budgetBytes: Int
    private let shardBudget: Int

    /// - Parameter budgetBytes: the most bytes all entries may be charged; 0 disables the cache.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        // Each shard's fixed bookkeeping comes out of its share, so `statistics.bytes` never
        // exceeds the budget.
        self.shardBudget = max(0, max(0, budgetBytes) / Self.shardCount - Self.shardBookkeepingBytes)
        self.shards = (0..<Self.shardCount).map { _ in ShardLock() }
        self.shardRefs = shards.map { Unmanaged.passUnretained($0) }
    }

    /// The shard of `key`, reached without retaining it.
    @inline(__always)
    private func withShard<R>(of key: CacheKey, _ body: (inout Shard) throws -> R) rethrows -> R {
        try shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { try $0.withLock(body) }
    }

    /// The value for `key`, marking it recently used.
    @inline(__always)
    func value(for key: CacheKey) -> Value? {
        withShard(of: key) { shard -> Value? in
            if let i = shard.slot(of: key) {
                shard.slots[Int(i)].referenced = true
                shard.stats.hits += 1
                return shard.slots[Int(i)].value
            }
            shard.stats.misses += 1
            return nil
        }
    }

    /// `body` applied to the value for `key` under the shard's lock, marking it recently used;
    /// `nil` when absent. The value is borrowed, not copied: no reference count is touched
    /// (a copy-out of an array's elements, for instance, retains nothing).
    ///
    /// - Complexity: one shard lock and index probe, plus `body`.
    @inline(__always)
    func withValue<R>(for key: CacheKey, _ body: (borrowing Value) -> R) -> R? {
        withShard(of: key) { shard -> R? in
            guard let i = shard.slot(of: key) else {
                shard.stats.misses += 1
                return nil
            }
            return shard.slots.withUnsafeMutableBufferPointer { slots -> R? in
                // Through the slot's address: the value is borrowed in place, not copied out.
                let slot = slots.baseAddress.unsafelyUnwrapped + Int(i)
                guard slot.pointee.value != nil else { return nil }
                slot.pointee.referenced = true
                return body(slot.pointee.value.unsafelyUnwrapped)
            }.map { r in
                shard.stats.hits += 1
                return r
            }
        }
    }

    /// Inserts or replaces `value`, charging `bytes` (payload estimate) against the budget and
    /// evicting cold entries of the same shard as needed. A value larger than a shard's budget
    /// is not stored, nor a new one that would evict when `admitWhenFull` (asked under the
    /// shard's lock, only then) says no: an admission filter against scans
    /// (`ScanAdmission.seenBefore`) applied where the shard is full, not before.
    ///
    /// - Returns: whether the value was stored.
    @discardableResult
    func insert(
        _ value: Value, bytes payload: Int, for key: CacheKey, admitWhenFull: ((CacheKey) -> Bool)? = nil
    ) -> Bool {
        let cost = payload + Self.overheadPerEntry
        guard cost <= shardBudget, cost <= Int(UInt32.max) else { return false }
        return withShard(of: key) { shard -> Bool in
            if let i = shard.slot(of: key) {
                shard.bytes += cost - Int(shard.slots[Int(i)].bytes)
                shard.slots[Int(i)] = Slot(key: key, value: value, bytes: UInt32(cost), referenced: true)
            } else {
                if shard.bytes + cost > shardBudget, let admitWhenFull, !admitWhenFull(key) { return false }
                while shard.bytes + cost > shardBudget, !shard.index.isEmpty {
                    Self.evictOne(&shard)
                }
                let slot = Slot(key: key, value: value, bytes: UInt32(cost), referenced: false)
                let i: Int32
                if let f = shard.free.popLast() {
                    i = f
                    shard.slots[Int(f)] = slot
                } else {
                    i = Int32(shard.slots.count)
                    Self.growSlots(&shard.slots)
                    shard.slots.append(slot)
                }
                shard.index.insert(key, slot: i)
                shard.bytes += cost
                shard.stats.insertions += 1
            }
            return true
        }
    }

    private static func evictOne(_ shard: inout Shard) {
        let n = shard.slots.count
        while true {
            if shard.hand >= n { shard.hand = 0 }
            let h = shard.hand
            shard.hand += 1
            guard shard.slots[h].value != nil else { continue }
            if shard.slots[h].referenced {
                shard.slots[h].referenced = false
                continue
            }
            shard.index.remove(shard.slots[h].key, slot: Int32(h))
            shard.bytes -= Int(shard.slots[h].bytes)
            shard.slots[h].value = nil
            shard.free.append(Int32(h))
            shard.stats.evictions += 1
            return
        }
    }

    /// Removes one entry; returns whether it existed.
    @discardableResult
    func remove(_ key: CacheKey) -> Bool {
        withShard(of: key) { shard in
            guard let i = shard.slot(of: key) else { return false }
            shard.index.remove(key, slot: i)
            shard.bytes -= Int(shard.slots[Int(i)].bytes)
            shard.slots[Int(i)].value = nil
            shard.free.append(i)
            return true
        }
    }

    /// Empties the cache (statistics other than counts of entries and bytes are kept).
    func removeAll() {
        for shard in shards {
            shard.withLock { shard in
                let stats = shard.stats
                shard = Shard()
                shard.stats = stats
            }
        }
    }

    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for shard in shards {
            let s = shard.withLock { shard -> CacheStatistics in
                var s = shard.stats
                s.entries = shard.index.count
                s.bytes = shard.bytes
                return s
            }
            total = total + s
        }
        total.bytes += Self.shardCount * Self.shardBookkeepingBytes
        total.budget = budgetBytes
        return total
    }
}
