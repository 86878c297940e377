/// Accumulates the arrays of a `PreparedText`.
struct PreparedTextBuilder {
    struct FontEntry {
        let font: Font
        let id: Int
        let upem: Double
        /// `Font.bitmapStrikePPEM` (0 for outline fonts).
        let strikePPEM: Double
        /// FreeType's 16.16 `x_scale` at the builder's size (`AdvanceScaling.freeTypeFixedPoint`; see
        /// ``PreparedTextBuilder/advance(units:font:)``).
        let freeTypeXScale: Double

        init(_ font: Font, size: Double) {
            self.font = font
            id = font.id
            upem = font.upem
            strikePPEM = font.bitmapStrikePPEM
            freeTypeXScale = ((size * 64).rounded() * 65536 / font.upem).rounded()
        }
    }

    let cascade: ResolvedCascade
    let size: Double
    let letterSpacing: Double
    var fontList: [FontEntry] = []
    var graphemeStarts: [Int32] = []
    var graphemeEnds: [Int32] = []
    var advances: [Double] = []
    /// With `reshapesLineEnds`: per grapheme, alone − as shaped (see `PreparedText.cutAdjustments`).
    var cutAdjustments: [Float] = []
    var flags: [PreparedText.GraphemeFlags] = []
    var graphemeFonts: [UInt8] = []
    var words: [PreparedText.Word] = []
    var paragraphs: [PreparedText.Paragraph] = []
    var missingGlyphClusters = 0
    /// The conventions every phase reads.
    let conventions: LayoutConventions
    /// `conventions.advanceScaling == .freeTypeFixedPoint`, read per cluster.
    private let scalesLikeFreeType: Bool

    init(cascade: ResolvedCascade, size: Double, letterSpacing: Double, conventions: LayoutConventions) {
        self.cascade = cascade
        self.size = size
        self.letterSpacing = letterSpacing
        self.conventions = conventions
        scalesLikeFreeType = conventions.advanceScaling == .freeTypeFixedPoint
        // Local font 0 is always the cascade's primary font (empty lines use it).
        _ = localIndex(of: cascade.primary)
    }

    /// A cluster's advance in points from its shaped advance in font units, with letter
    /// spacing, never negative.
    ///
    /// `AdvanceScaling.freeTypeFixedPoint` scales like Chromium on Linux, whose glyph advances come from
    /// FreeType in 16.16 fixed point: the size in 26.6, the scale `x_scale = round(size₂₆.₆ ·
    /// 2¹⁶ / upem)`, the advance `round(units · x_scale / 64)` / 2¹⁶ px. A full-width glyph at
    /// 15 px is then 15 + 7/65536 px, and ten of them do not fit a 150 px line in Chromium.
    /// (HarfBuzz applies kerning at the exact scale; folding a cluster's kerning into the
    /// FreeType scale is off by under 10⁻⁵ px per cluster.) A bitmap-only color font (Noto
    /// Color Emoji) advances in whole pixels at its strike, scaled to the size: 136 px at 109
    /// ppem is 18.7156 px at 15 px (exact scaling: 18.6768).
    ///
    /// - Complexity: O(1), a few floating-point operations (the FreeType scale is per font).
    @inline(__always)
    func advance(units: Int32, font: FontEntry) -> Double {
        let points: Double
        if scalesLikeFreeType && font.strikePPEM > 0 {
            // A bitmap font: whole pixels at the strike, scaled to the size (16.16).
            let atStrike = (Double(units) * font.strikePPEM / font.upem).rounded()
            points = (atStrike * size / font.strikePPEM * 65536).rounded() / 65536
        } else if scalesLikeFreeType {
            let magnitude = ((Double(units.magnitude) * font.freeTypeXScale + 32) / 64).rounded(.down)
            points = (units < 0 ? -magnitude : magnitude) / 65536
        } else {
            points = Double(units) * size / font.upem
        }
        return max(0, points + letterSpacing)
    }

    mutating func reserve(graphemes n: Int) {
        graphemeStarts.reserveCapacity(n)
        graphemeEnds.reserveCapacity(n)
        advances.reserveCapacity(n)
        flags.reserveCapacity(n)
        graphemeFonts.reserveCapacity(n)
    }

    /// Local indexes of the cascade's fonts, once known (255: not yet).
    private var cascadeLocal: [UInt8] = []

    /// The local index of the cascade's font `i`, without touching the font object after the
    /// first time (no reference counting per cluster).
    @inline(__always)
    mutating func localIndex(ofCascadeFont i: Int) -> UInt8 {
        if i < cascadeLocal.count, cascadeLocal[i] != 255 { return cascadeLocal[i] }
        if cascadeLocal.count < cascade.fonts.count {
            cascadeLocal = [UInt8](repeating: 255, count: cascade.fonts.count)
        }
        let local = localIndex(of: cascade.fonts[i])
        cascadeLocal[i] = local
        return local
    }

    /// The local index of `font`, adding it on first use (at most 255 distinct fonts).
    mutating func localIndex(of font: Font) -> UInt8 {
        let id = font.id
        for i in fontList.indices where fontList[i].id == id { return UInt8(i) }
        guard fontList.count < 255 else { return 0 }
        fontList.append(FontEntry(font, size: size))
        return UInt8(fontList.count - 1)
    }

    /// The prepared text, with the layout knobs it carries (`trailingSpaces`, `lineFit`).
    func finish(utf8Count: Int, ellipsisFont: UInt8, ellipsisWidth: Double) -> PreparedText {
        let uses = fontList.map { entry -> PreparedText.FontUse in
            let m = entry.font.metrics
            return PreparedText.FontUse(
                font: entry.font, ascender: m.ascender(atSize: size),
                descender: m.descender(atSize: size), lineGap: m.lineGap(atSize: size))
        }
        return PreparedText(
            fonts: uses, graphemeStarts: graphemeStarts, graphemeEnds: graphemeEnds,
            advances: advances, cutAdjustments: cutAdjustments, flags: flags, graphemeFonts: graphemeFonts, words: words,
            paragraphs: paragraphs, ellipsisFont: ellipsisFont, ellipsisWidth: ellipsisWidth,
            utf8Count: utf8Count, missingGlyphClusters: missingGlyphClusters,
            trailingSpaces: conventions.trailingSpaces, lineFit: conventions.lineFit)
    }
}
