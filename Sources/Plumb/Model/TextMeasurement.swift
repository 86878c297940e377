/// The answer for one cell: its size on the pixel grid, line count and flags.
///
/// Every number is finite, ≥ 0 and on the device-pixel grid of the scale it was measured at.
public struct TextMeasurement: Hashable, Sendable, CustomStringConvertible {
    /// Width (widest line's used width) and height, pixel-ceiled.
    public var size: Size
    /// The number of lines kept (after `maxLines` and the height limit; 0 for an empty text
    /// and for a fallback).
    public var lineCount: Int
    /// Lines were cut off by `maxLines` or the height limit.
    public var isTruncated: Bool
    /// What was substituted or repaired (empty for an ordinary result).
    public var warnings: [MeasureWarning] {
        get { warningStorage ?? [] }
        set { warningStorage = newValue.isEmpty ? nil : newValue }
    }
    /// `warnings.count` without materialising an empty array (the cached path compares it
    /// with the style's per cell).
    var warningCount: Int { warningStorage?.count ?? 0 }
    /// `nil` when there are no warnings: an ordinary result holds no reference, so batches
    /// copy results between threads without any reference counting.
    private var warningStorage: [MeasureWarning]?
    /// The size is a stand-in (see `MeasureWarning.isFallback`); never cached.
    public var isFallback: Bool

    /// A measurement; `isFallback` is derived from the warnings (`MeasureWarning.isFallback`).
    public init(size: Size, lineCount: Int, isTruncated: Bool, warnings: [MeasureWarning]) {
        self.size = size
        self.lineCount = lineCount
        self.isTruncated = isTruncated
        self.warningStorage = warnings.isEmpty ? nil : warnings
        self.isFallback = warnings.contains { $0.isFallback }
    }

    /// `size.height`: the row height a table needs.
    public var height: Double { size.height }
    /// `size.width`: the widest line's used width, pixel-ceiled.
    public var width: Double { size.width }

    /// `"width × height, n line(s)"`, then ", truncated" and the warnings when there are any.
    public var description: String {
        "\(size.width) × \(size.height), \(lineCount) line(s)" + (isTruncated ? ", truncated" : "")
            + (warnings.isEmpty ? "" : ", warnings: \(warnings.map(\.description))")
    }
}
