/// The visible parts of a truncated line around its ellipsis.
public struct LineTruncation: Hashable, Sendable {
    /// Where the ellipsis (or truncation token) sits in the line.
    public var placement: EllipsisPlacement
    /// Visible text before the ellipsis (empty for head truncation).
    public var head: Range<String.Index>
    /// Visible text after the ellipsis (empty for tail truncation).
    public var tail: Range<String.Index>
    /// The advance of the ellipsis (or truncation token) in points, included in the line's
    /// `usedWidth`.
    public var ellipsisWidth: Double
}
