/// One shard of the shaped-segment tier: an open-addressing table whose 64-byte slots hold
/// the key and, for a segment of at most ``inlineCapacity`` clusters (nearly every word),
/// the advances themselves.
///
/// A hit is one probe of one cache line: the line holds the key, the cluster count, the
/// CLOCK bit and the advances, where a general map follows dependent pointers for the same
/// answer (an index, a slot, the value's array buffer), each a cache and TLB miss on a cold
/// pass (Decisions.md, "A flat segment tier").
///
/// Slots: key (16 bytes), cluster count (4; 0 marks an empty slot), CLOCK bit (4), then 40
/// bytes: up to ten `Int32` advances inline, or a pointer to a malloc'd buffer of them for a
/// longer segment. Linear probing from the key's low bits (the shard is chosen by its high
/// bits), at most 75 % full, backward-shift deletion, so no tombstones.
///
/// - Thread safety: none; ``SegmentCache`` locks each shard around it.
/// - Complexity: O(1) expected per look-up, insertion and eviction; growth rehashes O(slots).
struct SegmentTable: ~Copyable, @unchecked Sendable {  // owns its memory; used only under its shard's lock
    static let slotBytes = 64
    /// Advances stored in the slot itself.
    static let inlineCapacity = 10
    /// The first table's slots (allocated on the first insertion: a fresh engine's 256
    /// shards allocate nothing).
    static let initialSlots = 16

    private static let countOffset = 16
    private static let referencedOffset = 20
    private static let payloadOffset = 24

    /// `capacity × slotBytes` bytes aligned to a cache line, or nil before the first insertion.
    private var base: UnsafeMutableRawPointer?
    private var mask = -1
    /// Entries held.
    private(set) var count = 0
    private var hand = 0
    /// Heap bytes of the table (its allocation, as malloc holds it) and of the buffers of
    /// long segments: what the shard holds, checked against `budget`.
    private(set) var bytes = 0
    /// The most bytes this shard may hold.
    let budget: Int
    var stats = CacheStatistics()

    init(budget: Int) { self.budget = budget }

    deinit {
        guard let base else { return }
        for i in 0...mask { Self.freePayload(base + i * Self.slotBytes) }
        base.deallocate()
    }

    /// Heap bytes of a table of `slots` slots (the aligned allocation's worst case).
    static func tableBytes(slots: Int) -> Int { HeapCost.malloc(slots * slotBytes + slotBytes) }

    /// Heap bytes of the advances of a segment of `clusters` clusters outside its slot.
    static func payloadBytes(clusters: Int) -> Int { clusters <= inlineCapacity ? 0 : HeapCost.malloc(clusters * 4) }

    // MARK: Slots

    @inline(__always)
    private static func clusterCount(_ slot: UnsafeMutableRawPointer) -> Int {
        Int(slot.load(fromByteOffset: countOffset, as: UInt32.self))
    }

    @inline(__always)
    private static func advances(_ slot: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Int32> {
        if clusterCount(slot) <= inlineCapacity {
            return (slot + payloadOffset).assumingMemoryBound(to: Int32.self)
        }
        return slot.load(fromByteOffset: payloadOffset, as: UnsafeMutablePointer<Int32>.self)
    }

    @inline(__always)
    private static func key(_ slot: UnsafeMutableRawPointer) -> CacheKey {
        CacheKey(low: slot.load(as: UInt64.self), high: slot.load(fromByteOffset: 8, as: UInt64.self))
    }

    private static func freePayload(_ slot: UnsafeMutableRawPointer) {
        if clusterCount(slot) > inlineCapacity { advances(slot).deallocate() }
    }

    @inline(__always)
    private func slot(_ i: Int) -> UnsafeMutableRawPointer { base.unsafelyUnwrapped + i &* Self.slotBytes }

    /// The slot holding `key`, or nil.
    @inline(__always)
    private func find(_ key: CacheKey) -> Int? {
        guard base != nil else { return nil }
        var i = Int(truncatingIfNeeded: key.low) & mask
        while true {
            let s = slot(i)
            if Self.clusterCount(s) == 0 { return nil }
            if s.load(as: UInt64.self) == key.low && s.load(fromByteOffset: 8, as: UInt64.self) == key.high { return i }
            i = (i &+ 1) & mask
        }
    }

    /// The first empty slot of `key`'s chain (there is one: the table is at most 75 % full).
    private func emptySlot(for key: CacheKey) -> Int {
        var i = Int(truncatingIfNeeded: key.low) & mask
        while Self.clusterCount(slot(i)) != 0 { i = (i &+ 1) & mask }
        return i
    }

    // MARK: Look-up

    /// Copies the advances of `key` into `out` if it is held with exactly `out.count`
    /// clusters, setting its CLOCK bit; returns whether it did. Counts a hit or a miss.
    @inline(__always)
    mutating func copy(_ key: CacheKey, into out: UnsafeMutableBufferPointer<Int32>) -> Bool {
        guard let i = find(key) else {
            stats.misses += 1
            return false
        }
        let s = slot(i)
        guard Self.clusterCount(s) == out.count else { return false }
        s.storeBytes(of: 1, toByteOffset: Self.referencedOffset, as: UInt32.self)
        let source = Self.advances(s)
        for k in 0..<out.count { out[k] = source[k] }
        stats.hits += 1
        return true
    }

    /// The advances of `key` as an array (for tests and diagnostics), setting its CLOCK bit.
    mutating func advances(for key: CacheKey) -> [Int32]? {
        guard let i = find(key) else { return nil }
        let s = slot(i)
        s.storeBytes(of: 1, toByteOffset: Self.referencedOffset, as: UInt32.self)
        return Array(UnsafeBufferPointer(start: Self.advances(s), count: Self.clusterCount(s)))
    }

    // MARK: Insertion and eviction

    /// Stores `advances` (at least one) for `key`, replacing what it held, evicting cold
    /// entries while the shard would exceed its budget; returns whether it stored them (not
    /// when they alone exceed it).
    mutating func insert(_ advances: UnsafeBufferPointer<Int32>, for key: CacheKey) -> Bool {
        precondition(!advances.isEmpty && advances.count <= Int(UInt32.max), "a segment has 1…2³² − 1 clusters")
        let payload = Self.payloadBytes(clusters: advances.count)
        // A replaced entry (two workers that missed the same segment) is not a new insertion.
        var replaces = false
        if let i = find(key) {
            bytes -= Self.payloadBytes(clusters: Self.clusterCount(slot(i)))
            Self.freePayload(slot(i))
            remove(at: i)
            replaces = true
        }
        guard makeRoom(forPayload: payload) else { return false }
        let s = slot(emptySlot(for: key))
        s.storeBytes(of: key.low, as: UInt64.self)
        s.storeBytes(of: key.high, toByteOffset: 8, as: UInt64.self)
        s.storeBytes(of: UInt32(advances.count), toByteOffset: Self.countOffset, as: UInt32.self)
        s.storeBytes(of: 0, toByteOffset: Self.referencedOffset, as: UInt32.self)
        let target: UnsafeMutablePointer<Int32>
        if advances.count <= Self.inlineCapacity {
            target = (s + Self.payloadOffset).assumingMemoryBound(to: Int32.self)
        } else {
            target = .allocate(capacity: advances.count)
            s.storeBytes(of: target, toByteOffset: Self.payloadOffset, as: UnsafeMutablePointer<Int32>.self)
        }
        target.update(from: advances.baseAddress!, count: advances.count)
        bytes += payload
        count += 1
        if !replaces { stats.insertions += 1 }
        return true
    }

    /// Grows the table or evicts until one more entry with `payload` heap bytes fits the
    /// budget and leaves the table at most 75 % full; false if it cannot fit at all.
    private mutating func makeRoom(forPayload payload: Int) -> Bool {
        if base == nil {
            guard Self.tableBytes(slots: Self.initialSlots) + payload <= budget else { return false }
            allocate(slots: Self.initialSlots)
        }
        while true {
            let capacity = mask + 1
            if (count + 1) * 4 > capacity * 3 {
                let grown = bytes - Self.tableBytes(slots: capacity) + Self.tableBytes(slots: capacity * 2)
                if grown + payload <= budget {
                    grow()
                    continue
                }
            } else if bytes + payload <= budget {
                return true
            }
            guard count > 0 else { return false }
            evictOne()
        }
    }

    private mutating func allocate(slots: Int) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: slots * Self.slotBytes, alignment: Self.slotBytes)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: slots * Self.slotBytes)
        base = p
        mask = slots - 1
        hand = 0
        bytes += Self.tableBytes(slots: slots)
    }

    /// Doubles the slots, moving every entry (its long advances stay where they are).
    private mutating func grow() {
        let old = base.unsafelyUnwrapped
        let oldCapacity = mask + 1
        bytes -= Self.tableBytes(slots: oldCapacity)
        allocate(slots: oldCapacity * 2)
        for i in 0..<oldCapacity {
            let s = old + i * Self.slotBytes
            guard Self.clusterCount(s) != 0 else { continue }
            slot(emptySlot(for: Self.key(s))).copyMemory(from: s, byteCount: Self.slotBytes)
        }
        old.deallocate()
    }

    /// CLOCK: the hand skips (and clears) referenced entries and evicts the first other one.
    private mutating func evictOne() {
        while true {
            let i = hand & mask
            hand &+= 1
            let s = slot(i)
            guard Self.clusterCount(s) != 0 else { continue }
            if s.load(fromByteOffset: Self.referencedOffset, as: UInt32.self) != 0 {
                s.storeBytes(of: 0, toByteOffset: Self.referencedOffset, as: UInt32.self)
                continue
            }
            bytes -= Self.payloadBytes(clusters: Self.clusterCount(s))
            Self.freePayload(s)
            remove(at: i)
            stats.evictions += 1
            return
        }
    }

    /// Empties slot `index` (its payload already released), shifting the entries after it
    /// back so that every chain stays unbroken.
    private mutating func remove(at index: Int) {
        let mask = self.mask
        let hole = LinearProbing.closeHole(
            at: index, mask: mask, isEmpty: { Self.clusterCount(slot($0)) == 0 },
            home: { Int(truncatingIfNeeded: slot($0).load(as: UInt64.self)) & mask },
            move: { slot($1).copyMemory(from: slot($0), byteCount: Self.slotBytes) })
        slot(hole).storeBytes(of: 0, toByteOffset: Self.countOffset, as: UInt32.self)
        count -= 1
    }

    /// Drops every entry and the table (counters other than entries and bytes are kept).
    mutating func removeAll() {
        if let base {
            for i in 0...mask { Self.freePayload(base + i * Self.slotBytes) }
            base.deallocate()
        }
        base = nil
        mask = -1
        count = 0
        hand = 0
        bytes = 0
    }
}
