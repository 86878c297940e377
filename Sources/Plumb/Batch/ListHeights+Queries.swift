extension ListHeights {
    /// The number of rows.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var count: Int { topCounts[1] }

    /// Whether the list has no rows.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { chunks.isEmpty }

    /// The content height: the sum of all row heights.
    ///
    /// Computed as a pairwise (tree-shaped) sum of the current heights, so it does
    /// not drift however many edits have been applied. `0` when empty.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var totalHeight: Double { topHeights[1] }

    /// The height of the row at `index`.
    ///
    /// `index` must be in `0..<count`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func height(at index: Int) -> Double {
        precondition(index >= 0 && index < count, "ListHeights.height(at:): index out of range")
        let (p, slot, _) = locate(index)
        return chunks[p].height(at: slot)
    }

    /// The height of the row with identity `id`, or `nil` if there is no such row.
    ///
    /// - Complexity: O(1) (one hash lookup).
    @inlinable
    public func height(of id: RowID) -> Double? {
        guard let location = locations[id] else { return nil }
        return chunks[position(of: location)].height(at: Int(location.slot))
    }

    /// The index of the row with identity `id`, or `nil` if there is no such row.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func index(of id: RowID) -> Int? {
        guard let location = locations[id] else { return nil }
        return rowsBefore(chunk: position(of: location)) + Int(location.slot)
    }

    /// The identity of the row at `index`.
    ///
    /// `index` must be in `0..<count`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func id(at index: Int) -> RowID {
        precondition(index >= 0 && index < count, "ListHeights.id(at:): index out of range")
        let (p, slot, _) = locate(index)
        return chunks[p].ids[slot]
    }

    /// The y offset of the top of the row at `index`: the sum of the heights of
    /// the rows before it.
    ///
    /// `index` must be in `0...count`; `offset(ofRowAt: count)` is `totalHeight`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func offset(ofRowAt index: Int) -> Double {
        precondition(index >= 0 && index <= count, "ListHeights.offset(ofRowAt:): index out of range")
        if index == count { return totalHeight }
        let (p, slot, before) = locate(index)
        return chunks[p].offset(ofSlot: slot, startingAt: before)
    }

    /// The y offset of the top of the row with identity `id`, or `nil` if there is no such row.
    ///
    /// Equal to `offset(ofRowAt: index(of: id)!)`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func offset(of id: RowID) -> Double? {
        guard let index = index(of: id) else { return nil }
        return offset(ofRowAt: index)
    }

    /// The index of the row containing the y offset `y`.
    ///
    /// Returns the `i` with `offset(ofRowAt: i) <= y < offset(ofRowAt: i + 1)`,
    /// so rows of height `0` are never returned for `y` inside the content.
    /// Offsets are compared exactly as `offset(ofRowAt:)` computes them; only a
    /// `y` within one rounding error of a row boundary can land on a neighbour.
    /// `y < 0` (and NaN) gives `0`, `y >= totalHeight` gives the last row, and an
    /// empty list gives `nil`.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func rowIndex(atOffset y: Double) -> Int? {
        let n = count
        guard n > 0 else { return nil }
        guard y >= 0 else { return 0 }
        guard y < totalHeight else { return n - 1 }
        // Descend the top tree by height, then the chunk's tree. `acc` is built
        // with the same additions `offset(ofRowAt:)` performs, so comparisons agree.
        let base = topBase
        var node = 1
        var acc = 0.0
        var rowsBefore = 0
        while node < base {
            let left = node << 1
            let next = acc + topHeights[left]
            if y < next {
                node = left
            } else {
                acc = next
                rowsBefore += topCounts[left]
                node = left | 1
            }
        }
        let p = node - base
        guard p < chunks.count else { return n - 1 }  // rounding gap past the last chunk
        let chunk = chunks[p]
        let leafBase = chunk.leafBase
        node = 1
        while node < leafBase {
            let left = node << 1
            let next = acc + chunk.tree[left]
            if y < next {
                node = left
            } else {
                acc = next
                node = left | 1
            }
        }
        return rowsBefore + min(node - leafBase, chunk.count - 1)
    }

    /// The rows that intersect a viewport spanning `range` in content coordinates.
    ///
    /// A row intersects when its extent `offset(ofRowAt: i)..<offset(ofRowAt: i + 1)`
    /// meets the closed range; this is
    /// `rowIndex(atOffset: range.lowerBound)! ... rowIndex(atOffset: range.upperBound)!`.
    /// Zero-height rows between two visible rows are included. Returns an empty
    /// range (`0..<0` or `count..<count`) when the viewport lies entirely above
    /// or below the content, or the list is empty.
    ///
    /// - Complexity: O(log n).
    @inlinable
    public func rows(in range: ClosedRange<Double>) -> Range<Int> {
        let n = count
        if n == 0 || range.upperBound < 0 { return 0..<0 }
        if range.lowerBound >= totalHeight { return n..<n }
        let first = rowIndex(atOffset: range.lowerBound)!
        let last = rowIndex(atOffset: range.upperBound)!
        return first..<(last + 1)
    }
}
