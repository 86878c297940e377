/// Where the ellipsis of a truncated line sits.
public enum EllipsisPlacement: String, Hashable, Sendable, CaseIterable {
    /// "…" replaces the start of the line (`truncatingHead`).
    case head
    /// "…" replaces the middle of the line (`truncatingMiddle`).
    case middle
    /// "…" replaces the end of the line (`truncatingTail`, and a height limit's cut with
    /// `DrawingOptions.truncatesLastVisibleLine`).
    case tail
}
