/// A point in a text box (points, y down from the box's top).
public struct Point: Hashable, Sendable {
    /// Points from the box's left edge.
    public var x: Double
    /// Points down from the box's top edge.
    public var y: Double
    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
