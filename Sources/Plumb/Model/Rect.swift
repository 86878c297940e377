/// A rectangle in points, origin at the top-left of the text box, y growing downwards.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The left edge, points from the box's left.
    public var x: Double
    /// The top edge, points down from the box's top.
    public var y: Double
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double
    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The right edge, `x + width`.
    public var maxX: Double { x + width }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// The bottom edge, `y + height`.
    public var maxY: Double { y + height }
    /// `"(x, y, width, height)"`.
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}
