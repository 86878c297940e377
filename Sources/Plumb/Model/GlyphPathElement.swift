/// One element of a glyph outline (as HarfBuzz's draw API gives it), in font units with y up.
public enum GlyphPathElement: Hashable, Sendable {
    /// Starts a contour.
    case move(to: GlyphPoint)
    /// A straight segment.
    case line(to: GlyphPoint)
    /// A quadratic Bézier segment (TrueType outlines).
    case quadCurve(to: GlyphPoint, control: GlyphPoint)
    /// A cubic Bézier segment (CFF outlines).
    case curve(to: GlyphPoint, control1: GlyphPoint, control2: GlyphPoint)
    /// Closes the current contour.
    case closeSubpath
}
