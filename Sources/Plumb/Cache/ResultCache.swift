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
/// 48-byte entries at most 75 % full: ≤ 64 bytes per entry, text not retained. Each shard's
/// slots are reserved for the whole budget (address space in one ``SlotRegion``) but used
/// from a small prefix that doubles in place, so a small working set stays dense in the
/// caches and RAM is committed only as tables fill: `statistics.bytes` counts the slots in
/// use plus the shards' fixed bookkeeping. Eviction is CLOCK (second chance): hits set a
/// reference bit, the hand clears it or evicts. A full table first looks for its victim in
/// the new key's own probe chain, which it can overwrite in place (`victimInChain`).
///
/// - Thread safety: 512 shards. Writers (insert, remove, eviction) take the shard's
///   mutex. Readers do not: each shard is a seqlock (a version that is odd
///   while a writer moves entries), so a hit reads the table optimistically and retries under
///   the mutex only if a writer was active. A warm hit therefore writes no shared memory (no
///   lock word, no reference count, no counter, and the CLOCK bit only on the first hit after
///   the hand cleared it), so cores answering a warm batch do not pass cache lines back and
///   forth. Hit and miss counts go to per-thread striped counters.
/// - Complexity: O(1) expected per lookup and insertion (amortised: a table doubles in O(slots)
///   with a temporary copy of its entries); no other allocation after creation.
final class ResultCache: Sendable {
    /// Bytes per slot (48: key, sizes, counts and flags, the two widths).
    static let entryBytes = SeqlockSlots.slotBytes
    static let shardCount = 512

    /// One shard. Padded to two cache lines so that the locks of neighbouring shards
    /// (allocated back to back) never share a line between cores.
    ///
    /// - Thread safety: `version` and `mask` are atomic, the table is under `mutex`, `slots` fixed.
    private final class Shard: @unchecked Sendable {
        /// Even while the table is stable; odd while a writer changes keys or values.
        let version = Atomic<UInt64>(0)
        let mutex: Lock<Table>
        /// The table's storage, fixed for the shard's life (read optimistically).
        let slots: SeqlockSlots
        /// The table's slots in use − 1, published by writers (read optimistically).
        let mask: Atomic<Int>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

        init(slots: SeqlockSlots) {
            let table = Table(slots: slots)
            self.slots = table.slots
            mask = Atomic(table.publishedMask)
            mutex = Lock(table)
        }

        /// Runs `body` under the mutex with the version odd, so optimistic readers that
        /// overlap it retry.
        @inline(__always)
        func write<R: Sendable>(_ body: (inout sending Table) -> R) -> R {
            mutex.withLock { t in
                version.wrappingAdd(1, ordering: .relaxed)
                atomicMemoryFence(ordering: .acquiringAndReleasing)
                defer {
                    mask.store(t.publishedMask, ordering: .relaxed)
                    version.wrappingAdd(1, ordering: .releasing)
                }
                return body(&t)
            }
        }

        /// Asks for the cache lines of `key`'s home slot (from the published mask, read
        /// relaxed: a stale mask only makes the hint miss).
        @inline(__always)
        func prefetchHomeSlot(of key: CacheKey) {
            let mask = self.mask.load(ordering: .relaxed)
            guard mask >= 0 else { return }
            slots.prefetch(Int(truncatingIfNeeded: key.low) & mask)
        }

        /// The entry for `key` read without the lock: `.found`/`.absent` if no writer
        /// overlapped the read, `.retry` otherwise.
        @inline(__always)
        func optimisticLookup(_ key: CacheKey) -> OptimisticResult {
            let before = version.load(ordering: .acquiring)
            guard before & 1 == 0 else { return .retry }
            let mask = self.mask.load(ordering: .relaxed)
            // A shard never written: its slots are not read (see `Table.publishedMask`).
            guard mask >= 0 else { return .absent }
            var i = Int(truncatingIfNeeded: key.low) & mask
            var result = OptimisticResult.retry
            // At most every slot once (a torn read may see no empty slot). Wrapping
            // arithmetic: the index and the count stay within the table, no overflow checks.
            var left = mask
            while true {
                let k = slots.key(at: i)
                if k == key {
                    result = .found(slots.value(at: i))
                    break
                }
                if k.low == 0 && k.high == 0 {
                    result = .absent
                    break
                }
                guard left > 0 else { break }
                left &-= 1
                i = (i &+ 1) & mask
            }
            atomicMemoryFence(ordering: .acquiring)
            return version.load(ordering: .relaxed) == before ? result : .retry
        }
    }

    enum OptimisticResult {
        case found(CachedResult)
        case absent
        case retry
    }

    /// Hit and miss counters striped by thread, each stripe on its own cache lines.
    ///
    /// - Thread safety: only atomics (and constant padding).
    private final class CounterStripe: @unchecked Sendable {
        let hits = Atomic<Int>(0)
        let misses = Atomic<Int>(0)
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// One shard's table. Only the writer holding the shard's mutex calls these methods.
    struct Table: ~Copyable {
        /// The whole budget's slots, reserved once; only the first `mask + 1` are in use (and
        /// only their pages resident).
        let slots: SeqlockSlots
        /// Slots in use − 1 (a power of two − 1): the table starts small and doubles in place up
        /// to the full allocation, so a small working set stays dense in the caches. The
        /// storage never moves, so optimistic readers never read freed memory.
        var mask: Int
        var count = 0
        var maxCount: Int
        var hand = 0
        var insertions = 0
        var evictions = 0
        /// Whether the slots in use were ever written. Until then nobody reads them: reading
        /// an untouched page maps the kernel's zero page, and the first write must then
        /// replace it, a fault that flushes the TLB of every core running the process (an
        /// inter-processor interrupt; 512 shards, 512 of them per cold engine). Written first,
        /// a page is simply allocated.
        private(set) var isWritten = false

        /// The mask readers see: −1 until the slots are written (the shard is empty).
        var publishedMask: Int { isWritten ? mask : -1 }

        static let initialSlots = 16

        init(slots: SeqlockSlots) {
            self.slots = slots
            mask = min(slots.count, Self.initialSlots) - 1
            maxCount = max(1, (mask + 1) * 3 / 4)
        }

        /// Doubles the slots in use and reinserts every entry (O(slots); amortised O(1)).
        mutating func grow() {
            var old: [(CacheKey, CachedResult)] = []
            old.reserveCapacity(count)
            for i in 0...mask where !slots.isEmpty(i) { old.append((slots.key(at: i), slots.value(at: i))) }
            let n = min(slots.count, (mask + 1) * 2)
            for i in 0..<n { slots.store(key: CacheKey(low: 0, high: 0), at: i) }
            mask = n - 1
            maxCount = max(1, n * 3 / 4)
            hand = 0
            for (key, value) in old {
                let i = emptySlot(for: key)
                slots.store(value: value, at: i)
                slots.store(key: key, at: i)
            }
        }

        /// The first empty slot of `key`'s chain (the table has one: it is at most 75 % full).
        @inline(__always)
        func emptySlot(for key: CacheKey) -> Int {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while !slots.isEmpty(i) { i = (i &+ 1) & mask }
            return i
        }

        /// Where `key`'s chain ends: at the key (`found`) or at the empty slot after it.
        @inline(__always)
        func chainEnd(of key: CacheKey) -> (slot: Int, found: Bool) {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while true {
                let k = slots.key(at: i)
                if k == key { return (i, true) }
                if k.low == 0 && k.high == 0 { return (i, false) }
                i = (i &+ 1) & mask
            }
        }

        @inline(__always)
        func find(_ key: CacheKey) -> Int? {
            guard isWritten else { return nil }
            let end = chainEnd(of: key)
            return end.found ? end.slot : nil
        }

        mutating func insert(_ key: CacheKey, _ value: CachedResult) {
            if !isWritten {
                for i in 0...mask { slots.store(key: CacheKey(low: 0, high: 0), at: i) }
                isWritten = true
            }
            // One probe: the chain ends at the key or at the empty slot a new key takes
            // (unless the table grows or evicts first, which moves entries).
            let end = chainEnd(of: key)
            if end.found {
                slots.store(value: value, at: end.slot)
                return
            }
            var i = end.slot
            if count >= maxCount {
                if mask + 1 < slots.count {
                    grow()
                } else if let victim = victimInChain(of: key, before: end.slot) {
                    // Replaced in place: the slot stays occupied, so every chain through it
                    // stays intact and nothing moves.
                    slots.store(value: value, at: victim)
                    slots.store(key: key, at: victim)
                    evictions += 1
                    insertions += 1
                    return
                } else {
                    evictOne()
                }
                i = emptySlot(for: key)
            }
            slots.store(value: value, at: i)
            slots.store(key: key, at: i)
            count += 1
            insertions += 1
        }

        /// An entry of `key`'s chain (its home slot up to `end`, the empty slot the chain ends
        /// at) whose CLOCK bit is clear, clearing the bits it passes (their second chance); nil
        /// when the chain is empty or every entry in it was referenced.
        ///
        /// A full table evicts here first: `key` may take any slot of its own chain, since
        /// every slot from its home to there is occupied. The global hand (`evictOne`) removes
        /// an entry by backward shift instead, which walks and moves the rest of its cluster —
        /// ~16 slots at 75 % load, lines a scan has pushed out of cache.
        ///
        /// - Complexity: the chain's length, already read by the probe for `key`.
        @inline(__always)
        mutating func victimInChain(of key: CacheKey, before end: Int) -> Int? {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while i != end {
                let flags = slots.value(at: i).flags
                if flags & CachedResult.referenced == 0 { return i }
                slots.setFlags(flags & ~CachedResult.referenced, at: i)
                i = (i &+ 1) & mask
            }
            return nil
        }

        mutating func evictOne() {
            while true {
                let i = hand & mask
                hand &+= 1
                if slots.isEmpty(i) { continue }
                let flags = slots.value(at: i).flags
                if flags & CachedResult.referenced != 0 {
                    slots.setFlags(flags & ~CachedResult.referenced, at: i)
                    continue
                }
                remove(at: i)
                evictions += 1
                return
            }
        }

        /// Backward-shift deletion keeps probe chains intact without tombstones.
        mutating func remove(at index: Int) {
            let slots = self.slots, mask = self.mask
            let hole = LinearProbing.closeHole(
                at: index, mask: mask, isEmpty: { slots.isEmpty($0) },
                home: { Int(truncatingIfNeeded: slots.key(at: $0).low) & mask }, move: { slots.move(from: $0, to: $1) })
            slots.store(key: CacheKey(low: 0, high: 0), at: hole)
            count -= 1
        }

        mutating func removeAll() {
            guard isWritten else { return }
            for i in 0...mask { slots.store(key: CacheKey(low: 0, high: 0), at: i) }
            count = 0
        }
    }

    /// The slots of every shard (outlives them: released with the cache).
    private let region: SlotRegion
    private let shards: [Shard]
    /// The same shards without reference counting: a lookup must not write the shard's
    /// reference count (a shared cache line). `shards` keeps them alive.
    private let shardRefs: [Unmanaged<Shard>]
    private let stripes: [Unmanaged<CounterStripe>]
    private let stripeObjects: [CounterStripe]
    let budgetBytes: Int

    /// - Parameter budgetBytes: memory for all tables; the cache holds at most
    ///   budget / 64 entries.
    init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        let perShard = max(0, budgetBytes) / Self.shardCount / Self.entryBytes
        var capacity = 2
        while capacity * 2 <= perShard { capacity *= 2 }
        let region = SlotRegion(shards: Self.shardCount, slotsPerShard: capacity)
        self.region = region
        shards = (0..<Self.shardCount).map { Shard(slots: region.slots(ofShard: $0)) }
        shardRefs = shards.map { Unmanaged.passUnretained($0) }
        stripeObjects = (0..<Self.stripeCount).map { _ in CounterStripe() }
        stripes = stripeObjects.map { Unmanaged.passUnretained($0) }
    }

    static let stripeCount = 16

    /// Heap bytes of one shard besides its slots: the `Shard` object (two cache lines, as a
    /// 192-byte malloc chunk) and its mutex's TSan tag (a 32-byte chunk), rounded up.
    static let shardBookkeepingBytes = 256

    /// Bytes of a `Shard` object as allocated (its two padded cache lines and header).
    static let shardObjectBytes = 192

    /// Bytes of the slot region resident in RAM (`mincore`), for tests.
    var residentSlotBytes: Int { region.residentBytes }

    @inline(__always)
    private static func normalise(_ key: CacheKey) -> CacheKey {
        key.low == 0 && key.high == 0 ? CacheKey(low: 0, high: 1) : key
    }

    /// This thread's counter stripe.
    @inline(__always)
    private func stripeIndex() -> Int { ThreadStripe.index(of: Self.stripeCount) }

    /// Counts a hit or a miss on this thread's counter stripe.
    @inline(__always)
    private func countHit(_ hit: Bool) {
        _ = stripes[stripeIndex()]._withUnsafeGuaranteedRef {
            if hit { $0.hits.wrappingAdd(1, ordering: .relaxed) } else { $0.misses.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    /// Adds lookups counted by the caller (batches count per chunk, not per cell).
    func recordLookups(hits: Int, misses: Int) {
        let stripe = stripeIndex()
        stripes[stripe]._withUnsafeGuaranteedRef {
            $0.hits.add(hits, ordering: .relaxed)
            $0.misses.add(misses, ordering: .relaxed)
        }
    }

    /// The result for `key`, marking it recently used.
    ///
    /// - Parameter counted: false when the caller records the lookup itself
    ///   (``recordLookups(hits:misses:)``).
    /// - Complexity: O(1) expected; a warm hit takes no lock and writes no shared memory.
    @inline(__always)
    func value(for key: CacheKey, counted: Bool = true) -> CachedResult? {
        let key = Self.normalise(key)
        return shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { shard in
            switch shard.optimisticLookup(key) {
            case .found(var v) where v.flags & CachedResult.referenced != 0:
                if counted { countHit(true) }
                v.flags &= ~CachedResult.referenced
                return v
            case .absent:
                if counted { countHit(false) }
                return nil
            case .found, .retry:
                break
            }
            // A writer overlapped, or the CLOCK bit must be set: under the mutex. Setting the
            // bit moves no entry, so it needs no version change (readers ignore the bit).
            let v = shard.mutex.withLock { t -> CachedResult? in
                guard let i = t.find(key) else { return nil }
                var v = t.slots.value(at: i)
                t.slots.setFlags(v.flags | CachedResult.referenced, at: i)
                v.flags &= ~CachedResult.referenced
                return v
            }
            if counted { countHit(v != nil) }
            return v
        }
    }

    /// Prefetch hints for a look-up or insertion of `key` a little later, in two steps: the
    /// shard object first (its lines; a cold batch finds them evicted), then — once that
    /// has had time to arrive — the key's home slot, whose address needs the shard's mask.
    /// The batch engine issues them one and two misses ahead of the one it measures.
    ///
    /// - Complexity: O(1); hints only: no lock, no shared memory written, no result changed.
    /// - Thread safety: any thread, any time.
    @inline(__always)
    func prefetchShard(of key: CacheKey) {
        let shard = shardRefs[Self.normalise(key).shard(of: Self.shardCount)].toOpaque()
        Prefetch.forWrite(shard, bytes: Self.shardObjectBytes)
    }

    /// The second step of ``prefetchShard(of:)``: `key`'s home slot.
    @inline(__always)
    func prefetchHomeSlot(of key: CacheKey) {
        let key = Self.normalise(key)
        shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { $0.prefetchHomeSlot(of: key) }
    }

    func insert(_ value: CachedResult, for key: CacheKey) {
        guard budgetBytes > 0 else { return }
        let key = Self.normalise(key)
        var v = value
        v.flags &= ~CachedResult.referenced
        shardRefs[key.shard(of: Self.shardCount)]._withUnsafeGuaranteedRef { $0.write { $0.insert(key, v) } }
    }

    @discardableResult
    func remove(_ key: CacheKey) -> Bool {
        let key = Self.normalise(key)
        return shards[key.shard(of: Self.shardCount)].write { t in
            guard let i = t.find(key) else { return false }
            t.remove(at: i)
            return true
        }
    }

    func removeAll() {
        for s in shards { s.write { $0.removeAll() } }
    }

    var statistics: CacheStatistics {
        var total = CacheStatistics()
        for s in shards {
            s.mutex.withLock { t in
                total.insertions += t.insertions
                total.evictions += t.evictions
                total.entries += t.count
                total.bytes += (t.mask + 1) * Self.entryBytes + Self.shardBookkeepingBytes
            }
        }
        for stripe in stripeObjects {
            total.hits += stripe.hits.load(ordering: .relaxed)
            total.misses += stripe.misses.load(ordering: .relaxed)
        }
        total.budget = budgetBytes
        return total
    }
}

extension CachedResult {
    /// This result as a measurement at `scale`, without warnings (a cacheable style's only
    /// warnings, skipped families, are added by the caller: styles with fallback warnings are
    /// never cached).
    @inline(__always)
    func measurement(scale: Double) -> TextMeasurement {
        TextMeasurement(
            size: Size(width: Double(widthPixels) / scale, height: Double(heightPixels) / scale),
            lineCount: Int(lineCount), isTruncated: flags & CachedResult.truncated != 0,
            warnings: [])
    }

    /// ``measurement(scale:)`` with warnings (kept apart so an ordinary hit passes none).
    func measurement(scale: Double, warnings: [MeasureWarning]) -> TextMeasurement {
        TextMeasurement(
            size: Size(width: Double(widthPixels) / scale, height: Double(heightPixels) / scale),
            lineCount: Int(lineCount), isTruncated: flags & CachedResult.truncated != 0,
            warnings: warnings)
    }
}
