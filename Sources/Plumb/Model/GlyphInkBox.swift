/// The ink box of a glyph in font units, y up.
public struct GlyphInkBox: Hashable, Sendable {
    /// x of the ink's left edge from the glyph's origin.
    public var left: Double
    /// y of the ink's top above the baseline.
    public var top: Double
    /// Width of the ink (≥ 0).
    public var width: Double
    /// Height of the ink, downwards from `top` (≥ 0).
    public var height: Double
}
