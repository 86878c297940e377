/// What a point of a layout is over (`TextLayout.hit(at:unit:)`): a character, an inline box or
/// the truncation token — what a tap handler switches on.
public enum TextHit: Hashable, Sendable {
    /// A character of the text: the offset (in the query's unit) of the start of the grapheme
    /// cluster under the point, as `TextLayout.characterOffset(at:unit:)` gives it.
    case character(offset: Int)
    /// An inline box of the text (its U+FFFC): where it was placed, its `id` included.
    case inlineBox(InlineBoxPlacement)
    /// The truncation token of a truncated line ("…", or `TextStyle.truncationToken` such as
    /// "… more"), its inline boxes included: a tap on "more".
    case truncationToken
}
