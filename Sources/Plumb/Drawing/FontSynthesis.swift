/// The synthetic bold and oblique each engine draws on a face lighter or more upright than
/// the style asks for. Drawing only: the engines measured (Chromium 156, Pango 1.50 on
/// HarfBuzz 6) give synthesised text the face's own advances and metrics.
extension LayoutConventions.FontSynthesis {
    /// Skia's fake-bold stroke as a fraction of the size: 1/24 at 9 px and below, 1/32 at 36 px
    /// and above, linear between (`kStdFakeBoldInterpKeys`, `kStdFakeBoldInterpValues`).
    static let skiaBoldRatio = (smallSize: 9.0, smallRatio: 1.0 / 24, largeSize: 36.0, largeRatio: 1.0 / 32)
    /// Skia's fake-italic skew (`SkFont::setSkewX(-1/4)` in its y-down space).
    static let skiaSkew = 0.25
    /// fontconfig's synthetic-oblique shear (`90-synthetic.conf`: the matrix's xy of 0.2).
    static let fontconfigShear = 0.2
    /// FreeType's emboldening strength as a fraction of the em (`FT_GlyphSlot_Embolden`).
    static let freeTypeBoldRatio = 1.0 / 24

    /// The skew and stroke (points) that draw `font` for `weight` and `italic` at `size`
    /// points: (0, 0) when the face has what is asked for, when it draws colour glyphs, or
    /// under `none`.
    ///
    /// - Complexity: O(1).
    func drawing(of font: Font, weight: Int, italic: Bool, size: Double) -> (skew: Double, emboldening: Double) {
        guard !font.hasColorGlyphs else { return (0, 0) }
        let oblique = italic && !font.drawsItalic
        switch self {
        case .none:
            return (0, 0)
        case .skia:
            let bold = weight >= 600 && font.drawnWeight < 600
            return (oblique ? Self.skiaSkew : 0, bold ? size * Self.skiaBoldRatio(atSize: size) : 0)
        case .fontconfig:
            let bold = weight >= 700 && font.drawnWeight <= 500
            return (oblique ? Self.fontconfigShear : 0, bold ? size * Self.freeTypeBoldRatio : 0)
        }
    }

    /// `SkScalarInterpFunc` over Skia's two fake-bold keys, clamped at both ends.
    static func skiaBoldRatio(atSize size: Double) -> Double {
        let k = skiaBoldRatio
        let t = min(max((size - k.smallSize) / (k.largeSize - k.smallSize), 0), 1)
        return k.smallRatio + t * (k.largeRatio - k.smallRatio)
    }
}
