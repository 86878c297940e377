/// One row of a list: its id, the cell it shows and the height around the text (paddings, a
/// separate name label, a footer…), so a feed gets its row heights in one batch.
public struct ListRow<ID: Hashable & Sendable>: Sendable {
    /// The row's id (unique in the list).
    public var id: ID
    /// The row's content (plain or attributed), style and width.
    public var cell: Cell
    /// Points added to the text's height for this row (0: the row is the text). NaN and ±∞
    /// count as 0; a negative value shrinks the row, never below 0.
    public var extraHeight: Double

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
        self.init(id: id, cell: Cell(text: text, style: style, width: width), extraHeight: extraHeight)
    }

    /// The row's runs when its cell is attributed (`cell.attributedText`).
    public var attributedText: AttributedText? { cell.attributedText }
}

extension ListRow: Equatable where ID: Equatable {
    /// Equal ids, cells and extra heights (NaN extra heights equal, as `Cell`'s NaN widths).
    public static func == (a: ListRow, b: ListRow) -> Bool {
        a.id == b.id && a.cell == b.cell
            && (a.extraHeight == b.extraHeight || (a.extraHeight.isNaN && b.extraHeight.isNaN))
    }
}

extension ListRow: Hashable where ID: Hashable {
    /// Hashes the id, the cell and the extra height (every NaN alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(cell)
        hasher.combine(extraHeight.isNaN ? Double.nan.bitPattern : (extraHeight + 0).bitPattern)  // -0 + 0 = +0
    }
}

/// A row in the wire shape of a `plumb measure` line: `"id"` and `"extraHeight"` beside the
/// cell's flat fields (`"text"` or `"runs"`, `"width"`, the style's).
extension ListRow: Codable where ID: Codable {
    private enum RowJSONKey: String, CodingKey {
        case id, extraHeight
    }

    /// Decodes `id` (required), `extraHeight` (optional, 0) and the cell.
    ///
    /// - Throws: `DecodingError` for a missing `id` and whatever `Cell(from:)` throws.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: RowJSONKey.self)
        self.init(
            id: try c.decode(ID.self, forKey: .id), cell: try Cell(from: decoder),
            extraHeight: try c.decodeIfPresent(Double.self, forKey: .extraHeight) ?? 0)
    }

    /// Encodes `id`, `extraHeight` and the cell's fields.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: RowJSONKey.self)
        try c.encode(id, forKey: .id)
        try c.encode(extraHeight, forKey: .extraHeight)
        try cell.encode(to: encoder)
    }
}
