/// A size in points.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent in points.
    public var width: Double
    /// The vertical extent in points.
    public var height: Double
    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// 0 × 0.
    public static let zero = Size(width: 0, height: 0)
    /// `"width × height"`, e.g. `"84.5 × 20.5"`.
    public var description: String { "\(width) × \(height)" }
}
