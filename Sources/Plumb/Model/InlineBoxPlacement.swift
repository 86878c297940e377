/// An inline box as laid out: where to draw the avatar or custom emoji it stands for.
public struct InlineBoxPlacement: Hashable, Sendable {
    /// The box's caller id (`InlineBox.id`).
    public var id: String?
    /// The box as given.
    public var box: InlineBox
    /// The offset of its U+FFFC in the text, in UTF-8 bytes, Unicode scalars and UTF-16 code
    /// units (NSRange).
    public var utf8Offset: Int
    /// The offset of its U+FFFC in Unicode scalars.
    public var scalarOffset: Int
    /// The offset of its U+FFFC in UTF-16 code units (`NSRange.location`).
    public var utf16Offset: Int
    /// The index of its line in `TextLayout.lines`.
    public var line: Int
    /// Its rect in the text box (points, y down): its bottom is `baselineOffset` above the
    /// line's baseline.
    public var rect: Rect
}
