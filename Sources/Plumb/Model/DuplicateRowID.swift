/// A row id that appears twice in the rows given to `ListHeights(validating:)` (or
/// `TextMeasurer.listHeights(for:)`).
public struct DuplicateRowID<RowID: Hashable & Sendable>: Error, CustomStringConvertible {
    /// The repeated id.
    public let id: RowID
    /// The index of the second row with it.
    public let index: Int

    /// The error for the row at `index` whose id `id` an earlier row already has.
    @inlinable
    public init(id: RowID, index: Int) {
        self.id = id
        self.index = index
    }

    /// `"duplicate row id <id> at row <index>"`.
    public var description: String { "duplicate row id \(id) at row \(index)" }
}
