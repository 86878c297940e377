/// The `NSStringDrawingOptions` that change a measurement.
public struct DrawingOptions: OptionSet, Hashable, Sendable {
    /// The options as bits (`usesLineFragmentOrigin` is bit 0, … `truncatesLastVisibleLine` bit 3).
    public let rawValue: UInt8
    /// The options whose bits are set in `rawValue` (other bits are kept and ignored).
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Lay the text out in a box of the given width (wrapping). Without it every paragraph is
    /// one line and the width is the natural width (UIKit's baseline-origin mode).
    public static let usesLineFragmentOrigin = DrawingOptions(rawValue: 1 << 0)
    /// Add each font's line gap (leading) to its line height. Leaving it out is the classic
    /// "last line cut in half" bug, so it is on by default.
    public static let usesFontLeading = DrawingOptions(rawValue: 1 << 1)
    /// Measure the union of glyph ink bounds instead of typographic line boxes.
    public static let usesDeviceMetrics = DrawingOptions(rawValue: 1 << 2)
    /// When a height limit cuts lines off, end the last kept line with an ellipsis.
    public static let truncatesLastVisibleLine = DrawingOptions(rawValue: 1 << 3)

    /// `[.usesLineFragmentOrigin, .usesFontLeading]`, what multi-line cells need.
    public static let standard: DrawingOptions = [.usesLineFragmentOrigin, .usesFontLeading]
}
