/// A map from `CacheKey` to a slot number (≥ 0): open addressing with linear probing and
/// backward-shift deletion, grown at 50 % load. Keys are already uniformly random, so the low
/// bits index the table directly — no hashing, unlike `Dictionary` (SipHash; timings:
/// Decisions.md, "Timings from code comments").
///
/// - Complexity: O(1) expected for lookup, insertion and removal.
/// - Thread safety: none; owners lock around it.
struct KeyIndex {
    private var keys: [CacheKey]
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    init() {
        keys = [CacheKey](repeating: CacheKey(low: 0, high: 0), count: 16)
        values = [Int32](repeating: -1, count: 16)
        mask = 15
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func isEmptySlot(_ i: Int) -> Bool { values[i] < 0 }

    subscript(key: CacheKey) -> Int32? {
        get {
            var i = Int(truncatingIfNeeded: key.low) & mask
            while !isEmptySlot(i) {
                if keys[i] == key { return values[i] }
                i = (i + 1) & mask
            }
            return nil
        }
        set {
            if let newValue { insert(key, newValue) } else { _ = removeValue(forKey: key) }
        }
    }

    private mutating func insert(_ key: CacheKey, _ value: Int32) {
        if (count + 1) * 2 > mask + 1 { grow() }
        var i = Int(truncatingIfNeeded: key.low) & mask
        while !isEmptySlot(i) {
            if keys[i] == key {
                values[i] = value
                return
            }
            i = (i + 1) & mask
        }
        keys[i] = key
        values[i] = value
        count += 1
    }

    @discardableResult
    mutating func removeValue(forKey key: CacheKey) -> Int32? {
        var i = Int(truncatingIfNeeded: key.low) & mask
        while !isEmptySlot(i) {
            if keys[i] == key {
                let removed = values[i]
                var hole = i
                var j = i
                while true {
                    j = (j + 1) & mask
                    if isEmptySlot(j) { break }
                    let home = Int(truncatingIfNeeded: keys[j].low) & mask
                    let inRange = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
                    if !inRange {
                        keys[hole] = keys[j]
                        values[hole] = values[j]
                        hole = j
                    }
                }
                values[hole] = -1
                count -= 1
                return removed
            }
            i = (i + 1) & mask
        }
        return nil
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let capacity = (mask + 1) * 2
        keys = [CacheKey](repeating: CacheKey(low: 0, high: 0), count: capacity)
        values = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
        count = 0
        for (k, v) in zip(oldKeys, oldValues) where v >= 0 { insert(k, v) }
    }
}
