/// How lines wrap and where a truncated last line gets its ellipsis (UIKit's
/// `NSLineBreakMode`).
public enum LineBreakMode: String, Hashable, Sendable, CaseIterable {
    /// Greedy wrapping at UAX #14 opportunities; a word wider than the line moves to its own
    /// line and only then breaks between grapheme clusters. The default.
    case wordWrapping
    /// Wrapping at any grapheme-cluster boundary.
    case charWrapping
    /// Word wrapping; lines cut off by `maxLines` or the height limit are dropped without an
    /// ellipsis.
    case clipping
    /// Word wrapping; a truncated last visible line starts with "…".
    case truncatingHead
    /// Word wrapping; a truncated last visible line has "…" in its middle.
    case truncatingMiddle
    /// Word wrapping; a truncated last visible line ends with "…".
    case truncatingTail

    /// Where this mode puts an ellipsis, or `nil` when it never draws one.
    var ellipsisPlacement: EllipsisPlacement? {
        switch self {
        case .truncatingHead: .head
        case .truncatingMiddle: .middle
        case .truncatingTail: .tail
        case .wordWrapping, .charWrapping, .clipping: nil
        }
    }
}
