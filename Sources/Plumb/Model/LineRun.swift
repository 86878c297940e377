/// A stretch of one run on one line: where a link, a mention or a bold name is drawn.
public struct LineRun: Hashable, Sendable {
    /// The run's index in `AttributedText.runs` (0 for plain text).
    public var run: Int
    /// The part of the run on this line, in UTF-8 bytes.
    public var utf8Range: Range<Int>
    /// The same part in UTF-16 code units (NSRange).
    public var utf16Range: Range<Int>
    /// Its rect on the line: the extent of its visible clusters, the line's height.
    public var rect: Rect
}
