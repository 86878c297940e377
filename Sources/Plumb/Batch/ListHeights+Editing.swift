extension ListHeights {
    /// Adds a row at the end of the list.
    ///
    /// Invalid heights (NaN, ±∞, negative) are stored as `0`.
    /// If a row with identity `id` already exists, nothing changes and `false` is returned.
    ///
    /// - Returns: `true` if the row was added.
    /// - Complexity: O(log n) amortized: O(log n) per call, plus O(B + n/B) for
    ///   B = 256 rows per chunk once every ~B/2 appends, when the last chunk splits.
    @discardableResult
    @inlinable
    public mutating func append(id: RowID, height: Double) -> Bool {
        guard locations[id] == nil else { return false }
        insertNew(id, height: Self.sanitized(height), at: count)
        return true
    }

    /// Inserts a row so that it ends up at `index`.
    ///
    /// `index` must be in `0...count`. Invalid heights (NaN, ±∞, negative) are
    /// stored as `0`. If a row with identity `id` already exists, nothing changes
    /// and `false` is returned.
    ///
    /// - Returns: `true` if the row was inserted.
    /// - Complexity: O(B + log n) for B = 256 rows per chunk: shifts one chunk's
    ///   rows, rewrites their slots and refreshes O(B + log n) sums; O(n/B) more
    ///   when the chunk splits (at most once per ~B/2 inserts into it).
    @discardableResult
    @inlinable
    public mutating func insert(id: RowID, height: Double, at index: Int) -> Bool {
        precondition(index >= 0 && index <= count, "ListHeights.insert(id:height:at:): index out of range")
        guard locations[id] == nil else { return false }
        insertNew(id, height: Self.sanitized(height), at: index)
        return true
    }

    /// Inserts a row directly after the row with identity `anchor`.
    ///
    /// Returns `false` and changes nothing if `id` already exists or `anchor` does not.
    /// Invalid heights are stored as `0`.
    ///
    /// - Returns: `true` if the row was inserted.
    /// - Complexity: Same as `insert(id:height:at:)`: O(B + log n).
    @discardableResult
    @inlinable
    public mutating func insert(id: RowID, height: Double, after anchor: RowID) -> Bool {
        guard locations[id] == nil, let anchorIndex = index(of: anchor) else { return false }
        insertNew(id, height: Self.sanitized(height), at: anchorIndex + 1)
        return true
    }

    /// Inserts a row directly before the row with identity `anchor`.
    ///
    /// Returns `false` and changes nothing if `id` already exists or `anchor` does not.
    /// Invalid heights are stored as `0`.
    ///
    /// - Returns: `true` if the row was inserted.
    /// - Complexity: Same as `insert(id:height:at:)`: O(B + log n).
    @discardableResult
    @inlinable
    public mutating func insert(id: RowID, height: Double, before anchor: RowID) -> Bool {
        guard locations[id] == nil, let anchorIndex = index(of: anchor) else { return false }
        insertNew(id, height: Self.sanitized(height), at: anchorIndex)
        return true
    }

    /// Removes the row with identity `id`.
    ///
    /// - Returns: The removed row's height, or `nil` (and no change) if there is no such row.
    /// - Complexity: O(B + log n) for B = 256 rows per chunk; O(n/B) more when the
    ///   chunk drops below B/4 rows and is merged with a neighbour.
    @discardableResult
    @inlinable
    public mutating func remove(id: RowID) -> Double? {
        guard let location = locations.removeValue(forKey: id) else { return nil }
        let p = position(of: location)
        let slot = Int(location.slot)
        let height = chunks[p].remove(at: slot)
        reindex(chunk: p, from: slot)
        let remaining = chunks[p].count
        if remaining == 0 {
            rechunk(p..<(p + 1))  // drops the empty chunk
        } else if remaining < minChunkCount && chunks.count > 1 {
            // Merge with the smaller neighbour (re-split if the result overflows).
            let neighbour: Int
            if p == 0 {
                neighbour = 1
            } else if p == chunks.count - 1 {
                neighbour = p - 1
            } else {
                neighbour = chunks[p - 1].count <= chunks[p + 1].count ? p - 1 : p + 1
            }
            rechunk(min(p, neighbour)..<(max(p, neighbour) + 1))
        } else {
            refreshTop(at: p)
        }
        return height
    }

    /// Moves the row with identity `id` so that it ends up at `index`.
    ///
    /// `index` must be in `0..<count`; afterwards `index(of: id) == index`.
    /// The row keeps its height.
    ///
    /// - Returns: `true` if the row exists (and was moved); `false` and no change otherwise.
    /// - Complexity: O(B + log n): one removal and one insertion.
    @discardableResult
    @inlinable
    public mutating func move(id: RowID, toIndex index: Int) -> Bool {
        precondition(index >= 0 && index < count, "ListHeights.move(id:toIndex:): index out of range")
        guard let height = remove(id: id) else { return false }
        insertNew(id, height: height, at: index)
        return true
    }

    /// Changes the height of the row with identity `id` (e.g. after a reload).
    ///
    /// Invalid heights (NaN, ±∞, negative) are stored as `0`.
    ///
    /// - Returns: `true` if the row exists; `false` and no change otherwise.
    /// - Complexity: O(log n).
    @discardableResult
    @inlinable
    public mutating func updateHeight(of id: RowID, to height: Double) -> Bool {
        guard let location = locations[id] else { return false }
        let p = position(of: location)
        chunks[p].setHeight(Self.sanitized(height), at: Int(location.slot))
        refreshTop(at: p)
        return true
    }

    /// Changes the heights of several rows, in order (a later change to the same
    /// id wins). Ids that don't exist are skipped.
    ///
    /// Invalid heights (NaN, ±∞, negative) are stored as `0`.
    ///
    /// - Returns: The number of changes applied.
    /// - Complexity: O(k log n) for k changes.
    @discardableResult
    @inlinable
    public mutating func updateHeights(_ changes: [(RowID, Double)]) -> Int {
        var applied = 0
        for (id, height) in changes {
            if updateHeight(of: id, to: height) { applied += 1 }
        }
        return applied
    }

    /// Removes every row.
    ///
    /// - Complexity: O(n) to release storage.
    @inlinable
    public mutating func removeAll() {
        self = ListHeights(chunkCapacity: chunkCapacity)
    }

    /// Inserts a row known to be new, with an already sanitized height, at `index` in `0...count`.
    @inlinable
    mutating func insertNew(_ id: RowID, height: Double, at index: Int) {
        if chunks.isEmpty {
            let key = allocateKey()
            chunks.append(Chunk(key: key, ids: [id], heights: CollectionOfOne(height)))
            locations[id] = Location(chunk: key, slot: 0)
            rebuildTop()
            return
        }
        let p: Int
        let slot: Int
        if index == count {
            p = chunks.count - 1
            slot = chunks[p].count
        } else {
            (p, slot, _) = locate(index)
        }
        chunks[p].insert(id, height: height, at: slot)
        reindex(chunk: p, from: slot)
        if chunks[p].count > chunkCapacity {
            rechunk(p..<(p + 1))  // split in two
        } else {
            refreshTop(at: p)
        }
    }
}
