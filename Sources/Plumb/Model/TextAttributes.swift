/// Character attributes of a run: each set field overrides the cell style's font field; `nil`
/// keeps the style's.
public struct TextAttributes: Hashable, Sendable {
    /// The family cascade (overrides `TextStyle.font.families`).
    public var families: [String]?
    /// The font size in points.
    public var size: Double?
    /// The CSS weight, 1...1000.
    public var weight: Int?
    /// Whether an italic face is requested.
    public var italic: Bool?
    /// Added to every cluster's advance (UIKit's `kern`), in points.
    public var letterSpacing: Double?
    /// Raises the run's glyphs above the baseline (points; negative lowers them), as UIKit's
    /// `baselineOffset`: it moves where the run's ascent and descent fall on the line.
    public var baselineOffset: Double
    /// A colour for drawing (CSS syntax, e.g. `#1d9bf0`); never changes a height or a key.
    public var color: String?
    /// The CSS `font-stretch` percentage (``FontDescriptor/width``).
    public var width: Double?
    /// OpenType features; they replace the style's (``FontDescriptor/features``).
    public var features: [FontFeature]?
    /// Variation axis settings; they replace the style's (``FontDescriptor/variations``).
    public var variations: [FontVariation]?
    /// The run's language (BCP 47); it replaces the style's (``TextStyle/language``) for the
    /// hyphenation dictionary of the run's words under ``Hyphenation/auto``.
    public var language: String?

    /// Attributes overriding the given fields.
    public init(
        families: [String]? = nil, size: Double? = nil, weight: Int? = nil, italic: Bool? = nil,
        letterSpacing: Double? = nil, baselineOffset: Double = 0, color: String? = nil,
        width: Double? = nil, features: [FontFeature]? = nil, variations: [FontVariation]? = nil,
        language: String? = nil
    ) {
        self.language = language
        self.width = width
        self.features = features
        self.variations = variations
        self.families = families
        self.size = size
        self.weight = weight
        self.italic = italic
        self.letterSpacing = letterSpacing
        self.baselineOffset = baselineOffset
        self.color = color
    }

    /// No field that changes a layout is set (a colour may be).
    public var isLayoutNeutral: Bool {
        families == nil && size == nil && weight == nil && italic == nil && letterSpacing == nil
            && baselineOffset == 0 && width == nil && features == nil && variations == nil && language == nil
    }
}
