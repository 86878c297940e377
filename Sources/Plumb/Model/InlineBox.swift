/// A box laid out inline with the text (NSTextAttachment, Flutter's placeholder): a custom
/// emoji, an avatar, a badge. It breaks like U+FFFC (or like a CSS atomic inline in the
/// `chromium` profile) and raises its line to hold it.
public struct InlineBox: Hashable, Sendable {
    /// Width in points (its advance).
    public var width: Double
    /// Height in points.
    public var height: Double
    /// Where the box's bottom sits relative to the baseline, in points (NSTextAttachment's
    /// `bounds.origin.y`): 0 sits on the baseline, negative goes below it.
    public var baselineOffset: Double
    /// The caller's id, echoed in the layout's box rects; never changes a height or a key.
    public var id: String?

    /// A box of the given size and offset.
    public init(width: Double, height: Double, baselineOffset: Double = 0, id: String? = nil) {
        self.width = width
        self.height = height
        self.baselineOffset = baselineOffset
        self.id = id
    }
}
