/// A point of a glyph outline, in font units (y up).
public struct GlyphPoint: Hashable, Sendable {
    /// x in font units.
    public var x: Double
    /// y in font units, up from the baseline.
    public var y: Double

    /// A point at (`x`, `y`) in font units.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
