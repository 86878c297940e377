/// The font part of a style: a CSS-like family cascade, a size, a weight, a slant and a width,
/// with OpenType features and variation axes.
///
/// Families are tried in order for every grapheme cluster; clusters none of them can render
/// fall back through fontconfig (see `FontResolver`). No C type appears here.
public struct FontDescriptor: Hashable, Sendable {
    /// Family names in cascade order, e.g. `["Noto Sans", "Noto Sans CJK SC"]`.
    public var families: [String]
    /// Size in points (em size). Invalid sizes (NaN, ∞, ≤ 0) are replaced by
    /// `FontDescriptor.defaultSize` with a warning when measured.
    public var size: Double
    /// CSS weight, 1...1000 (400 regular, 700 bold).
    public var weight: Int
    /// Whether an italic (or oblique) face is requested.
    public var italic: Bool
    /// The CSS `font-stretch` percentage (100 normal, 50 ultra-condensed … 200
    /// ultra-expanded): picks among a family's widths and sets a variable font's `wdth` axis.
    public var width: Double
    /// OpenType features for every font of the text (`tnum`, `liga` 0, …): see ``FontFeature``.
    public var features: [FontFeature]
    /// Explicit variation axis settings (CSS `font-variation-settings`); they override the
    /// weight, width and optical size: see ``FontVariation``.
    public var variations: [FontVariation]
    /// Whether a variable font's optical size axis (`opsz`) follows the font size, as CSS
    /// `font-optical-sizing: auto` and CoreText do (the default); `false` keeps the axis's
    /// default.
    public var opticalSizing: Bool

    /// UIKit's default body size.
    public static let defaultSize: Double = 17
    /// The cascade used when none is given.
    public static let defaultFamilies = ["Noto Sans", "Noto Sans CJK SC"]
    /// CSS's `normal` weight (regular).
    static let regularWeight = 400
    /// CSS's `normal` width (`font-stretch: 100%`).
    static let normalWidth: Double = 100

    /// A font; every argument has UIKit-like defaults (the default cascade, 17 pt, regular,
    /// upright). Values are checked when measured, not here.
    public init(
        families: [String] = FontDescriptor.defaultFamilies, size: Double = FontDescriptor.defaultSize,
        weight: Int = 400, italic: Bool = false, width: Double = 100, features: [FontFeature] = [],
        variations: [FontVariation] = [], opticalSizing: Bool = true
    ) {
        self.families = families
        self.size = size
        self.weight = weight
        self.italic = italic
        self.width = width
        self.features = features
        self.variations = variations
        self.opticalSizing = opticalSizing
    }
}
