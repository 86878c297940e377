/// The truncation token as laid out (Codable as `{"line", "rect": [x, y, w, h], "boxes"}`,
/// the CLI's `"token"`; `"boxes"` only when the token has inline boxes).
public struct TruncationTokenPlacement: Hashable, Sendable {
    /// The index of its line in `TextLayout.lines`.
    public var line: Int
    /// Its rect in the text box (points): its advance wide, its line tall.
    public var rect: Rect
    /// The inline boxes of the token (an icon in "… more ▸"), placed as drawn: x from the
    /// advances before each box in the token, y from the line's baseline and the box's offset.
    /// Offsets count in the token's text (`TextStyle.truncationToken`), not the cell's.
    public var boxes: [InlineBoxPlacement] = []
}
