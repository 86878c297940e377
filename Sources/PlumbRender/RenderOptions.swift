/// What `SVGRenderer` draws besides the glyphs.
public struct RenderOptions: Sendable {
    /// Diagnostic overlays, each switchable.
    public struct Overlays: OptionSet, Sendable, Hashable {
        /// The overlays' bits.
        public let rawValue: UInt16
        /// The overlays whose bits are set in `rawValue`.
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// The exact text box (Σ line heights + gaps) and the pixel-ceiled box.
        public static let boxes = Overlays(rawValue: 1)
        /// Each line's rect.
        public static let lineRects = Overlays(rawValue: 2)
        /// Each line's baseline.
        public static let baselines = Overlays(rawValue: 4)
        /// Line- and paragraph-spacing gaps, shaded and labelled with their values.
        public static let gaps = Overlays(rawValue: 8)
        /// The ellipsis of a truncated line, highlighted.
        public static let ellipsis = Overlays(rawValue: 16)
        /// Warnings as a caption.
        public static let warnings = Overlays(rawValue: 32)
        /// Every overlay.
        public static let all: Overlays = [.boxes, .lineRects, .baselines, .gaps, .ellipsis, .warnings]
    }

    /// Which edge of a scroll viewport fades.
    public enum Edge: String, Sendable {
        /// The viewport's top edge.
        case top
        /// The viewport's bottom edge.
        case bottom
    }

    /// Reveal one line of a covered text.
    public enum Reveal: Sendable, Equatable {
        /// Line `n` (0-based); no line when out of range.
        case line(Int)
        /// The line under a touch at y (points from the top of the text box), through
        /// `TextLayout.lineIndex(atY:)`.
        case y(Double)
    }

    /// The diagnostic overlays drawn over the text. (default: none)
    public var overlays: Overlays = []
    /// Fade out the last `width` points of the last line's used width.
    public var fadeLastLine: Double? = nil
    /// Fill text glyphs with one linear gradient across the text's box — from the leftmost line
    /// start to the rightmost line end, top to bottom — (colors spread evenly; angle in
    /// degrees, 0 = left to right, 90 = top to bottom; at 0° the first color is at the left end
    /// of the box and the last at its right end); emoji keep their colors.
    public var gradient: (colors: [String], angle: Double)? = nil
    /// Show the text inside a viewport of this height, fading `fadeEdge` points at `edge`.
    public var viewport: (height: Double, fadeEdge: Double, edge: Edge)? = nil
    /// Cover every line by its own rect except the revealed one.
    public var cover: Reveal? = nil
    /// The glyphs' fill without a gradient (an SVG color).
    public var textColor = "#1d1d1f"
    /// Margin around the drawing, in points.
    public var padding = 8.0

    /// No overlays and no effects.
    public init() {}
}
