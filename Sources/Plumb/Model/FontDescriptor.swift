/// The font part of a style: a CSS-like family cascade, a size, a weight and a slant.
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

    /// UIKit's default body size.
    public static let defaultSize: Double = 17
    /// The cascade used when none is given.
    public static let defaultFamilies = ["Noto Sans", "Noto Sans CJK SC"]

    /// A font; every argument has UIKit-like defaults (the default cascade, 17 pt, regular,
    /// upright). Values are checked when measured, not here.
    public init(
        families: [String] = FontDescriptor.defaultFamilies, size: Double = FontDescriptor.defaultSize,
        weight: Int = 400, italic: Bool = false
    ) {
        self.families = families
        self.size = size
        self.weight = weight
        self.italic = italic
    }
}
