/// The attributed cell of earlier releases: every `Cell` now holds plain or attributed text.
/// Unavailable rather than an alias, because `Cell.text` is the plain string where
/// `AttributedCell.text` was the runs: code reading it must say which it wants
/// (`attributedText`, `content`).
@available(*, unavailable, renamed: "Cell", message: "use Cell(text: AttributedText, style:width:); its runs are `attributedText`")
public typealias AttributedCell = Cell
