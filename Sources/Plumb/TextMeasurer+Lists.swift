/// One row of a list: its id, the cell it shows and the height around the text (paddings, a
/// separate name label, a footer…), so a feed gets its row heights in one batch.
public struct ListRow<ID: Hashable & Sendable>: Sendable {
    /// The row's id (unique in the list).
    public var id: ID
    /// The row's text, style and width.
    public var cell: Cell
    /// Points added to the text's height for this row (0: the row is the text). NaN and ±∞
    /// count as 0; a negative value shrinks the row, never below 0.
    public var extraHeight: Double
    /// The row's attributed text (runs, inline boxes), measured instead of `cell.text` when
    /// set; `cell` then carries its style and width (and its plain characters).
    public var attributedText: AttributedText? = nil

    /// A row showing `cell` with `extraHeight` points around its text.
    public init(id: ID, cell: Cell, extraHeight: Double = 0) {
        self.id = id
        self.cell = cell
        self.extraHeight = extraHeight
    }

    /// A row showing `text` in `style` at `width` points, with `extraHeight` points around it.
    public init(id: ID, text: String, style: TextStyle, width: Double, extraHeight: Double = 0) {
        self.init(id: id, cell: Cell(text: text, style: style, width: width), extraHeight: extraHeight)
    }

    /// A row showing attributed `text` (a bold name, a mention, an inline avatar…) in `style`
    /// at `width` points, with `extraHeight` points around it.
    public init(id: ID, attributedText text: AttributedText, style: TextStyle, width: Double, extraHeight: Double = 0) {
        self.init(id: id, cell: Cell(text: text.string, style: style, width: width), extraHeight: extraHeight)
        attributedText = text
    }
}

extension ListRow: Equatable where ID: Equatable {}
extension ListRow: Hashable where ID: Hashable {}

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
        var measured = try heights(
            for: rows.map { $0.attributedText == nil ? $0.cell : Cell(text: "", style: $0.cell.style, width: $0.cell.width) },
            scale: scale, workers: workers, progress: progress)
        let rich = rows.indices.filter { rows[$0].attributedText != nil }
        if !rich.isEmpty {
            let cells = rich.map { AttributedCell(text: rows[$0].attributedText!, style: rows[$0].cell.style, width: rows[$0].cell.width) }
            for (k, m) in zip(rich, heights(for: cells, scale: scale, workers: workers)) { measured[k] = m }
        }
        var ignored: [MeasureWarning] = []
        let grid = PixelGrid(scale: Sanitizer.scale(scale, warnings: &ignored))
        return try ListHeights(validating: zip(rows, measured).map { row, m in
            let extra = row.extraHeight.isFinite ? row.extraHeight : 0
            return (id: row.id, height: grid.ceil(m.height + extra))
        })
    }
}
