/// What the caches' open-addressing tables share (tier 1's `SegmentTable` and `ClockCache`,
/// tier 2's `ResultCache`): linear probing from a key's home slot, deletion without
/// tombstones.
enum LinearProbing {
    /// Backward-shift deletion: empties slot `index` of a table of `mask + 1` slots by moving
    /// back every later entry of its cluster whose home is not in (hole, entry] (cyclically),
    /// so every probe chain stays unbroken. The caller has released what slot `index` held;
    /// it clears the slot returned (the hole left at the end), after which no chain crosses it.
    ///
    /// - Parameters:
    ///   - isEmpty: whether a slot is empty (ends the cluster).
    ///   - home: an occupied slot's home (its key's probe start).
    ///   - move: copies the entry of the first slot into the second.
    /// - Complexity: O(cluster length).
    @inline(__always)
    static func closeHole(
        at index: Int, mask: Int, isEmpty: (Int) -> Bool, home: (Int) -> Int, move: (_ from: Int, _ to: Int) -> Void
    ) -> Int {
        var hole = index
        var j = index
        while true {
            j = (j &+ 1) & mask
            if isEmpty(j) { return hole }
            let h = home(j)
            let inRange = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j)
            if !inRange {
                move(j, hole)
                hole = j
            }
        }
    }
}
