/// A map from `CacheKey` to a slot number (≥ 0) of a table that stores the keys itself
/// (`ClockCache`'s slots): open addressing with linear probing and backward-shift deletion,
/// grown at 50 % load. An entry is 8 bytes — the key's low 32 bits as a tag and the slot
/// number — instead of the 20 of a key and a slot: a probe compares tags and confirms a
/// match with the slot's key (`keyOf`), so the key is stored once. Keys are already
/// uniformly random, so the tag's low bits index the table directly — no hashing, unlike
/// `Dictionary` (SipHash; timings: Decisions.md, "Timings from code comments").
///
/// - Complexity: O(1) expected for lookup, insertion and removal.
/// - Thread safety: none; owners lock around it.
struct KeyIndex {
    private struct Entry {
        var tag: UInt32
        /// −1: empty.
        var slot: Int32
    }

    private var entries: [Entry]
    private var mask: Int
    private(set) var count = 0

    /// Bytes of one entry (the table holds up to 4 per key: grown at 50 % load).
    static var entryBytes: Int { MemoryLayout<Entry>.stride }

    init() {
        entries = [Entry](repeating: Entry(tag: 0, slot: -1), count: 16)
        mask = 15
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private static func tag(_ key: CacheKey) -> UInt32 { UInt32(truncatingIfNeeded: key.low) }

    /// The slot of `key`, whose stored key `keyOf` returns; nil when absent.
    @inline(__always)
    func slot(of key: CacheKey, keyOf: (Int32) -> CacheKey) -> Int32? {
        let tag = Self.tag(key)
        return entries.withUnsafeBufferPointer { e -> Int32? in
            var i = Int(tag) & mask
            while true {
                let x = e[i]
                if x.slot < 0 { return nil }
                if x.tag == tag && keyOf(x.slot) == key { return x.slot }
                i = (i &+ 1) & mask
            }
        }
    }

    /// Adds `key` at `slot`; `key` must be absent.
    mutating func insert(_ key: CacheKey, slot: Int32) {
        precondition(slot >= 0, "slot numbers are ≥ 0")
        if (count + 1) * 2 > mask + 1 { grow() }
        place(Entry(tag: Self.tag(key), slot: slot))
        count += 1
    }

    private mutating func place(_ entry: Entry) {
        var i = Int(entry.tag) & mask
        while entries[i].slot >= 0 { i = (i &+ 1) & mask }
        entries[i] = entry
    }

    /// Removes the entry of `key`, which is stored at `slot`; returns whether it was there.
    @discardableResult
    mutating func remove(_ key: CacheKey, slot: Int32) -> Bool {
        let tag = Self.tag(key)
        var i = Int(tag) & mask
        while entries[i].slot >= 0 {
            if entries[i].slot == slot && entries[i].tag == tag {
                var hole = i
                var j = i
                while true {
                    j = (j &+ 1) & mask
                    if entries[j].slot < 0 { break }
                    let home = Int(entries[j].tag) & mask
                    let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
                    if !inRange {
                        entries[hole] = entries[j]
                        hole = j
                    }
                }
                entries[hole].slot = -1
                count -= 1
                return true
            }
            i = (i &+ 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let old = entries
        let capacity = (mask + 1) * 2
        precondition(capacity <= 1 << 32, "tags index at most 2³² entries")
        entries = [Entry](repeating: Entry(tag: 0, slot: -1), count: capacity)
        mask = capacity - 1
        for e in old where e.slot >= 0 { place(e) }
    }
}
