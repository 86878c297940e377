/// List heights: a feed's rows, plain and attributed, measured as one batch.
extension TextMeasurer {
    /// Row heights with prefix offsets for a virtualized list whose rows have their own
    /// styles, widths and extra heights, measured as one batch.
    ///
    /// A row's height is its text's height plus its `extraHeight`, ceiled to the device-pixel
    /// grid of `scale` (`ceil((text + extra) × scale) / scale`, within 1e-4 px of a grid line
    /// staying on it, as every measured size): what a cell with that much padding lays out to.
    ///
    /// - Parameters:
    ///   - rows: ids (unique), cells (plain or attributed) and extra heights in display order.
    ///   - scale: device pixels per point (NaN/∞/≤ 0 → 2, as when measuring).
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    ///   - progress: optional progress/cancellation object.
    /// - Throws: `BatchCancelled` if `progress` was cancelled; `DuplicateRowID` if an id
    ///   appears twice.
    /// - Complexity: as `heights(for:scale:workers:)`, plus O(n) to build the list.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [ListRow<ID>], scale: Double = 2, workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> ListHeights<ID> {
        let measured = try heights(for: rows.map(\.cell), scale: scale, workers: workers, progress: progress)
        var ignored: [MeasureWarning] = []
        let grid = PixelGrid(scale: Sanitizer.scale(scale, warnings: &ignored))
        return try ListHeights(validating: zip(rows, measured).map { row, m in
            let extra = row.extraHeight.isFinite ? row.extraHeight : 0
            return (id: row.id, height: grid.ceil(m.height + extra))
        })
    }
}
