/// Row heights of a virtualized list, with fast prefix offsets, edited by row identity.
///
/// `ListHeights` stores one height (in points) per row, in display order, and
/// answers the questions a virtualized list or table asks while scrolling:
/// the content height, the y offset of a row, and which rows intersect a
/// viewport. Rows are addressed by a caller-supplied identity (`RowID`),
/// so the structure stays correct across inserts, removals and moves without
/// the caller maintaining index paths.
///
/// ## Storage
/// Rows are kept in *chunks* of at most B rows (B = 256). Each chunk holds its
/// row ids and an implicit binary sum tree over its heights; a second sum tree
/// over the chunk totals (and row counts) sits on top. A dictionary maps every
/// id to its chunk's stable key and its slot in that chunk, so locating a row
/// by id is O(1) and turning it into an index or offset is O(log n).
///
/// A chunk that overflows is split in two; a chunk that drops below B/4 rows
/// is merged with its smaller neighbour (and re-split if the result is too
/// large). Re-chunking rebuilds the top tree, O(n/B), and happens at most once
/// per ~B/4 edits of a chunk.
///
/// ## Complexity (n rows, B = 256 rows per chunk, a constant)
/// - `init(_:)`: O(n).
/// - `count`, `isEmpty`, `totalHeight`, `height(of:)`: O(1).
/// - `index(of:)`, `id(at:)`, `height(at:)`, `offset(ofRowAt:)`, `offset(of:)`,
///   `rowIndex(atOffset:)`, `rows(in:)`: O(log n).
/// - `updateHeight(of:to:)`: O(log n); `updateHeights(_:)`: O(k log n).
/// - `append(id:height:)`: O(log n) amortized.
/// - `insert`, `remove(id:)`, `move(id:toIndex:)`: O(B + log n) — one chunk's
///   rows shift and B dictionary slots are rewritten — plus O(n/B) when a chunk
///   splits or merges. No prefix sums beyond O(B + log n) tree nodes are ever
///   recomputed.
/// - `removeAll()`: O(n) (releasing storage).
///
/// ## Floating point
/// Every tree node is always *recomputed* as the sum of its two children;
/// no running totals are ever adjusted by deltas. The stored sums therefore
/// depend only on the current heights and never drift, however many edits
/// are applied: `totalHeight` is a pairwise sum of the current heights, which
/// is at least as accurate as a fresh left-to-right sum.
///
/// ## Invalid input
/// Heights that are NaN, infinite or negative are clamped to `0` on the way
/// in (the measuring engine never produces them, but callers might).
/// Duplicate ids: the inserting methods return `false` and leave the value
/// unchanged; `init(validating:)` throws `DuplicateRowID`; `init(_:)` traps,
/// like `Dictionary(uniqueKeysWithValues:)`.
///
/// `ListHeights` is a value type; copies share storage until one is mutated.
///
/// - Thread safety: `Sendable`; as any value, a copy may be read from many threads at once,
///   and a mutation needs exclusive access to the variable it mutates (as an `Array`).
public struct ListHeights<RowID: Hashable & Sendable>: Sendable {
    /// Where a row lives: its chunk's stable key and its slot in that chunk.
    @usableFromInline
    struct Location: Sendable {
        @usableFromInline
        var chunk: Int32
        @usableFromInline
        var slot: Int32

        @inlinable
        init(chunk: Int32, slot: Int32) {
            self.chunk = chunk
            self.slot = slot
        }
    }

    /// A run of consecutive rows with an implicit sum tree over their heights.
    @usableFromInline
    struct Chunk: Sendable {
        /// Stable identity of this chunk; `positionOfKey[key]` is its index in `chunks`.
        @usableFromInline
        var key: Int32
        /// Row ids, in display order.
        @usableFromInline
        var ids: [RowID]
        /// Implicit binary tree: `tree[leafBase + i]` is the height of row `i`,
        /// `tree[n] == tree[2n] + tree[2n + 1]`, `tree[1]` is the chunk total.
        /// Unused leaves are `0`; `tree[0]` is unused. `tree.count == 2 * leafBase`,
        /// `leafBase` is a power of two `>= ids.count`.
        @usableFromInline
        var tree: [Double]

        @inlinable
        init<H: Collection<Double>>(key: Int32, ids: [RowID], heights: H) {
            self.key = key
            self.ids = ids
            let base = ListHeights.powerOfTwo(atLeast: ids.count)
            tree = [Double](repeating: 0, count: 2 * base)
            var leaf = base
            for height in heights {
                tree[leaf] = height
                leaf += 1
            }
            refreshSums(fromLeaf: base, throughLeaf: 2 * base - 1)
        }

        @inlinable
        var count: Int { ids.count }
        @inlinable
        var leafBase: Int { tree.count >> 1 }
        @inlinable
        var total: Double { tree[1] }

        @inlinable
        func height(at slot: Int) -> Double { tree[leafBase + slot] }

        /// Recomputes every ancestor of the leaves `first...last` (tree indices). O(last - first + log B).
        @inlinable
        mutating func refreshSums(fromLeaf first: Int, throughLeaf last: Int) {
            var lo = first >> 1
            var hi = last >> 1
            while lo >= 1 {
                for node in lo...hi {
                    tree[node] = tree[2 &* node] + tree[2 &* node &+ 1]
                }
                lo >>= 1
                hi >>= 1
            }
        }

        /// Sets one height and refreshes its ancestors. O(log B).
        @inlinable
        mutating func setHeight(_ height: Double, at slot: Int) {
            var node = leafBase + slot
            tree[node] = height
            node >>= 1
            while node >= 1 {
                tree[node] = tree[2 &* node] + tree[2 &* node &+ 1]
                node >>= 1
            }
        }

        /// Inserts a row at `slot`. O(B).
        @inlinable
        mutating func insert(_ id: RowID, height: Double, at slot: Int) {
            let oldCount = count
            if oldCount == leafBase {
                // Full: double the leaf capacity.
                let oldBase = leafBase
                var grown = [Double](repeating: 0, count: 4 * oldBase)
                for i in 0..<oldCount { grown[2 * oldBase + i] = tree[oldBase + i] }
                tree = grown
                refreshSums(fromLeaf: 2 * oldBase, throughLeaf: 4 * oldBase - 1)
            }
            let base = leafBase
            var leaf = base + oldCount
            while leaf > base + slot {
                tree[leaf] = tree[leaf - 1]
                leaf -= 1
            }
            tree[base + slot] = height
            ids.insert(id, at: slot)
            refreshSums(fromLeaf: base + slot, throughLeaf: base + oldCount)
        }

        /// Removes the row at `slot` and returns its height. O(B).
        @inlinable
        mutating func remove(at slot: Int) -> Double {
            let oldCount = count
            let base = leafBase
            let height = tree[base + slot]
            var leaf = base + slot
            while leaf < base + oldCount - 1 {
                tree[leaf] = tree[leaf + 1]
                leaf += 1
            }
            tree[base + oldCount - 1] = 0
            ids.remove(at: slot)
            refreshSums(fromLeaf: base + slot, throughLeaf: base + oldCount - 1)
            return height
        }

        /// Sum of the heights of slots `0..<slot`, added onto `start` node by node
        /// along the root-to-leaf path (the same additions `rowIndex` performs). O(log B).
        @inlinable
        func offset(ofSlot slot: Int, startingAt start: Double) -> Double {
            var acc = start
            var node = 1
            var bit = leafBase >> 1
            while bit > 0 {
                let left = node << 1
                if slot & bit != 0 {
                    acc = acc + tree[left]
                    node = left | 1
                } else {
                    node = left
                }
                bit >>= 1
            }
            return acc
        }
    }

    /// Default maximum number of rows per chunk.
    @inlinable
    static var defaultChunkCapacity: Int { 256 }

    /// The chunks, in display order. Never contains an empty chunk.
    @usableFromInline
    var chunks: [Chunk]
    /// Row id → chunk key and slot.
    @usableFromInline
    var locations: [RowID: Location]
    /// Chunk key → index in `chunks`, or -1 for a free key.
    @usableFromInline
    var positionOfKey: [Int32]
    /// Keys available for reuse.
    @usableFromInline
    var freeKeys: [Int32]
    /// Sum tree over chunk totals: leaf `topBase + p` is `chunks[p].total`.
    @usableFromInline
    var topHeights: [Double]
    /// Sum tree over chunk row counts, same shape as `topHeights`.
    @usableFromInline
    var topCounts: [Int]
    /// Maximum rows per chunk; chunks below `minChunkCount` are merged.
    @usableFromInline
    let chunkCapacity: Int

    @inlinable
    var minChunkCount: Int { max(1, chunkCapacity / 4) }
    @inlinable
    var topBase: Int { topHeights.count >> 1 }

    /// Creates an empty list.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init() {
        self.init(chunkCapacity: Self.defaultChunkCapacity)
    }

    /// Creates a list from `(id, height)` pairs in display order.
    ///
    /// Invalid heights (NaN, ±∞, negative) are stored as `0`.
    /// Every id must be unique; a duplicate id is a programming error and traps,
    /// like `Dictionary(uniqueKeysWithValues:)`. For ids from outside the program (a
    /// server's feed, where overlapping pages repeat items) use `init(validating:)`.
    ///
    /// - Complexity: O(n) for n rows.
    @inlinable
    public init<S: Sequence>(_ rows: S) where S.Element == (id: RowID, height: Double) {
        self.init(rows, chunkCapacity: Self.defaultChunkCapacity)
    }

    /// Creates a list from `(id, height)` pairs in display order, or reports the first id that
    /// appears twice.
    ///
    /// - Throws: `DuplicateRowID` with the repeated id and the index of its second row.
    /// - Complexity: O(n) for n rows.
    @inlinable
    public init<S: Sequence>(validating rows: S) throws(DuplicateRowID<RowID>) where S.Element == (id: RowID, height: Double) {
        try self.init(validating: rows, chunkCapacity: Self.defaultChunkCapacity)
    }

    /// Creates an empty list whose chunks hold at most `chunkCapacity` rows (for tests and tuning).
    @inlinable
    init(chunkCapacity: Int) {
        precondition(chunkCapacity >= 2, "ListHeights: chunk capacity must be at least 2")
        self.chunkCapacity = chunkCapacity
        chunks = []
        locations = [:]
        positionOfKey = []
        freeKeys = []
        topHeights = [0, 0]
        topCounts = [0, 0]
    }

    /// Creates a list from `rows` with the given chunk capacity; traps on a duplicate id. O(n).
    @inlinable
    init<S: Sequence>(_ rows: S, chunkCapacity: Int) where S.Element == (id: RowID, height: Double) {
        do {
            try self.init(validating: rows, chunkCapacity: chunkCapacity)
        } catch {
            preconditionFailure("ListHeights.init: \(error)")
        }
    }

    /// Creates a list from `rows` with the given chunk capacity, or throws on a duplicate id.
    /// O(n).
    @inlinable
    init<S: Sequence>(validating rows: S, chunkCapacity: Int) throws(DuplicateRowID<RowID>)
        where S.Element == (id: RowID, height: Double)
    {
        self.init(chunkCapacity: chunkCapacity)
        var ids: [RowID] = []
        var heights: [Double] = []
        ids.reserveCapacity(rows.underestimatedCount)
        heights.reserveCapacity(rows.underestimatedCount)
        for row in rows {
            ids.append(row.id)
            heights.append(Self.sanitized(row.height))
        }
        locations.reserveCapacity(ids.count)
        // Fill chunks to about 3/4 of capacity so early inserts don't split at once.
        let fill = max(1, chunkCapacity * 3 / 4)
        let pieces = (ids.count + fill - 1) / fill
        chunks.reserveCapacity(pieces)
        var start = 0
        for piece in 0..<pieces {
            let size = ids.count / pieces + (piece < ids.count % pieces ? 1 : 0)
            let key = allocateKey()
            let chunk = Chunk(key: key, ids: Array(ids[start..<start + size]), heights: heights[start..<start + size])
            for slot in 0..<size {
                let previous = locations.updateValue(Location(chunk: key, slot: Int32(slot)), forKey: chunk.ids[slot])
                if previous != nil { throw DuplicateRowID(id: chunk.ids[slot], index: start + slot) }
            }
            chunks.append(chunk)
            start += size
        }
        rebuildTop()
    }

    // MARK: - Internal helpers

    /// Clamps NaN, ±∞ and negative heights to `0`.
    @inlinable
    static func sanitized(_ height: Double) -> Double {
        height.isFinite && height > 0 ? height : 0
    }

    /// Smallest power of two `>= n` (1 for n <= 1).
    @inlinable
    static func powerOfTwo(atLeast n: Int) -> Int {
        n <= 1 ? 1 : 1 << (Int.bitWidth - (n - 1).leadingZeroBitCount)
    }

    @inlinable
    mutating func allocateKey() -> Int32 {
        if let key = freeKeys.popLast() { return key }
        positionOfKey.append(-1)
        return Int32(positionOfKey.count - 1)
    }

    @inlinable
    mutating func freeKey(_ key: Int32) {
        positionOfKey[Int(key)] = -1
        freeKeys.append(key)
    }

    /// Index in `chunks` of the chunk holding a row.
    @inlinable
    func position(of location: Location) -> Int {
        Int(positionOfKey[Int(location.chunk)])
    }

    /// Rebuilds both top trees and the key → position table. O(n / B).
    @inlinable
    mutating func rebuildTop() {
        let base = Self.powerOfTwo(atLeast: max(chunks.count, 1))
        var heights = [Double](repeating: 0, count: 2 * base)
        var counts = [Int](repeating: 0, count: 2 * base)
        for p in chunks.indices {
            heights[base + p] = chunks[p].total
            counts[base + p] = chunks[p].count
            positionOfKey[Int(chunks[p].key)] = Int32(p)
        }
        var node = base - 1
        while node >= 1 {
            heights[node] = heights[2 * node] + heights[2 * node + 1]
            counts[node] = counts[2 * node] + counts[2 * node + 1]
            node -= 1
        }
        topHeights = heights
        topCounts = counts
    }

    /// Copies chunk `p`'s total and count into the top trees and refreshes the ancestors. O(log n).
    @inlinable
    mutating func refreshTop(at p: Int) {
        var node = topBase + p
        topHeights[node] = chunks[p].total
        topCounts[node] = chunks[p].count
        node >>= 1
        while node >= 1 {
            topHeights[node] = topHeights[2 &* node] + topHeights[2 &* node &+ 1]
            topCounts[node] = topCounts[2 &* node] &+ topCounts[2 &* node &+ 1]
            node >>= 1
        }
    }

    /// Finds the chunk and slot of row `index` (which must be in `0..<count`) and
    /// the summed heights of all chunks before it. O(log n).
    @inlinable
    func locate(_ index: Int) -> (position: Int, slot: Int, offset: Double) {
        let base = topBase
        var node = 1
        var remaining = index
        var acc = 0.0
        while node < base {
            let left = node << 1
            let leftCount = topCounts[left]
            if remaining < leftCount {
                node = left
            } else {
                remaining -= leftCount
                acc = acc + topHeights[left]
                node = left | 1
            }
        }
        return (node - base, remaining, acc)
    }

    /// Number of rows in the chunks before chunk `p`. O(log n).
    @inlinable
    func rowsBefore(chunk p: Int) -> Int {
        var node = topBase + p
        var total = 0
        while node > 1 {
            if node & 1 == 1 { total += topCounts[node - 1] }
            node >>= 1
        }
        return total
    }

    /// Rewrites the locations of chunk `p`'s rows from `slot` to its end. O(B).
    @inlinable
    mutating func reindex(chunk p: Int, from slot: Int) {
        let key = chunks[p].key
        let ids = chunks[p].ids
        var s = slot
        while s < ids.count {
            locations[ids[s]] = Location(chunk: key, slot: Int32(s))
            s += 1
        }
    }

    /// Redistributes the rows of `chunks[range]` into evenly sized chunks of at
    /// most `chunkCapacity` rows (none if the range holds no rows), reusing keys,
    /// then rebuilds the top trees. O(rows in range + n / B).
    @inlinable
    mutating func rechunk(_ range: Range<Int>) {
        var ids: [RowID] = []
        var heights: [Double] = []
        var keys: [Int32] = []
        for p in range {
            ids.append(contentsOf: chunks[p].ids)
            for slot in 0..<chunks[p].count { heights.append(chunks[p].height(at: slot)) }
            keys.append(chunks[p].key)
        }
        let n = ids.count
        let pieces = (n + chunkCapacity - 1) / chunkCapacity
        var replacement: [Chunk] = []
        replacement.reserveCapacity(pieces)
        var start = 0
        for piece in 0..<pieces {
            let size = n / pieces + (piece < n % pieces ? 1 : 0)
            let key = piece < keys.count ? keys[piece] : allocateKey()
            let chunk = Chunk(key: key, ids: Array(ids[start..<start + size]), heights: heights[start..<start + size])
            for slot in 0..<size {
                locations[chunk.ids[slot]] = Location(chunk: key, slot: Int32(slot))
            }
            replacement.append(chunk)
            start += size
        }
        for piece in pieces..<max(pieces, keys.count) { freeKey(keys[piece]) }
        chunks.replaceSubrange(range, with: replacement)
        rebuildTop()
    }

    /// Verifies every internal invariant; traps with a message on the first violation.
    /// For tests. O(n).
    func checkInvariants() {
        var seen = 0
        for (p, chunk) in chunks.enumerated() {
            precondition(chunk.count > 0, "empty chunk \(p)")
            precondition(chunk.count <= chunkCapacity, "oversized chunk \(p)")
            precondition(chunks.count == 1 || chunk.count >= minChunkCount, "undersized chunk \(p)")
            precondition(positionOfKey[Int(chunk.key)] == Int32(p), "stale key table for chunk \(p)")
            let base = chunk.leafBase
            precondition(base >= chunk.count && base & (base - 1) == 0, "bad leaf base in chunk \(p)")
            for leaf in (base + chunk.count)..<(2 * base) { precondition(chunk.tree[leaf] == 0, "dirty padding leaf") }
            for node in 1..<base {
                precondition(chunk.tree[node] == chunk.tree[2 * node] + chunk.tree[2 * node + 1], "stale chunk sum")
            }
            for (slot, id) in chunk.ids.enumerated() {
                let location = locations[id]
                precondition(location?.chunk == chunk.key && location?.slot == Int32(slot), "stale location for \(id)")
                let height = chunk.height(at: slot)
                precondition(height.isFinite && height >= 0, "invalid stored height")
            }
            seen += chunk.count
            precondition(topHeights[topBase + p] == chunk.total && topCounts[topBase + p] == chunk.count, "stale top leaf")
        }
        precondition(seen == locations.count, "location table size mismatch")
        for leaf in (topBase + chunks.count)..<(2 * topBase) {
            precondition(topHeights[leaf] == 0 && topCounts[leaf] == 0, "dirty top padding")
        }
        for node in 1..<max(topBase, 1) {
            precondition(topHeights[node] == topHeights[2 * node] + topHeights[2 * node + 1], "stale top sum")
            precondition(topCounts[node] == topCounts[2 * node] + topCounts[2 * node + 1], "stale top count")
        }
        precondition(topCounts[1] == seen, "count mismatch")
        for key in freeKeys { precondition(positionOfKey[Int(key)] == -1, "free key in use") }
        precondition(freeKeys.count + chunks.count == positionOfKey.count, "leaked chunk key")
    }
}
