/// How a family cascade resolves on this machine and which font draws each cluster of a text:
/// the answer to "which font is this?" (`plumb fonts`).
public struct FontReport: Sendable {
    /// A resolved face.
    public struct Face: Sendable, Hashable {
        /// The family name fontconfig reports for the face (e.g. "Noto Sans CJK SC").
        public var family: String
        /// The font file's path ("" for the stand-in used when fontconfig finds no font).
        public var path: String
        /// The face's index in its file (collections such as `.ttc` hold several).
        public var faceIndex: Int
        /// The font's design units per em (`head.unitsPerEm`, e.g. 1000 or 2048).
        public var unitsPerEm: Double
        /// Baseline to the top of the line box, in font units, positive: hhea's ascender (or
        /// OS/2's typo ascender when the font sets USE_TYPO_METRICS), as HarfBuzz reads it.
        public var ascender: Double
        /// Baseline to the bottom of the line box, in font units, negative or zero (same
        /// tables as `ascender`).
        public var descender: Double
        /// The extra space the font asks for between lines, in font units (≥ 0; counted with
        /// `DrawingOptions.usesFontLeading`).
        public var lineGap: Double
        /// Whether the face has color glyphs (a CBDT/sbix bitmap, COLR layers or SVG table):
        /// the emoji fonts.
        public var hasColorGlyphs: Bool
    }

    /// One grapheme cluster of the sample text and the face that draws it.
    public struct ClusterFont: Sendable, Hashable {
        /// The cluster (one extended grapheme cluster of the sample text).
        public var cluster: String
        /// The face that draws it: the cascade's first face that has all its characters, else
        /// the fallback fontconfig chose (for a `.missing` cluster, the face drawing .notdef).
        public var face: Face
        /// No installed font has every character of the cluster (.notdef is drawn).
        public var isMissing: Bool
    }

    /// The requested families as resolved, in order (families the machine lacks are left
    /// out; at least one face).
    public var cascade: [Face]
    /// The color emoji face the cascade falls back to for emoji clusters, if one is installed.
    public var emojiFace: Face?
    /// The CJK face the cascade falls back to for Han, kana and hangul (in the requested
    /// weight and slant, fontconfig's nearest), if one is installed.
    public var cjkFace: Face?
    /// Unknown families, or the default family standing in when none is installed.
    public var warnings: [MeasureWarning]
    /// The sample text's clusters in order, each with the face that draws it.
    public var clusters: [ClusterFont]
}

extension TextMeasurer {
    /// Resolves `families` and reports the faces and the font of every cluster of `text`.
    ///
    /// The cascade is resolved at 17 pt in the given weight and slant, as a measurement
    /// would resolve it; a cluster that needs no glyph (only joiners, variation selectors,
    /// controls) is reported with the previous cluster's face.
    ///
    /// - Parameters:
    ///   - families: the family cascade, first preferred.
    ///   - weight: CSS weight, 1–1000 (400 regular, 700 bold).
    ///   - italic: whether to ask for italic or oblique faces.
    ///   - text: the sample text whose clusters are reported ("" for the cascade alone).
    /// - Complexity: O(n) in the text's clusters (fontconfig is asked once per new fallback
    ///   cluster, then cached in the cascade).
    /// - Thread safety: safe from any thread, concurrently.
    public func fontReport(families: [String], weight: Int = 400, italic: Bool = false, text: String = "")
        -> FontReport
    {
        let cascade = fonts.cascade(for: FontDescriptor(families: families, weight: weight, italic: italic))
        func face(_ f: Font) -> FontReport.Face {
            FontReport.Face(
                family: f.familyName, path: f.path, faceIndex: f.faceIndex, unitsPerEm: f.upem,
                ascender: f.metrics.ascender, descender: f.metrics.descender,
                lineGap: f.metrics.lineGap, hasColorGlyphs: f.hasColorGlyphs)
        }
        var clusters: [FontReport.ClusterFont] = []
        var previous = cascade.primary
        for character in text {
            let scalars = Array(character.unicodeScalars)
            let choice = scalars.withUnsafeBufferPointer { cascade.choose(forCluster: $0) }
            switch choice {
            case .inherit: clusters.append(.init(cluster: String(character), face: face(previous), isMissing: false))
            case .font(let f):
                previous = f
                clusters.append(.init(cluster: String(character), face: face(f), isMissing: false))
            case .missing(let f):
                clusters.append(.init(cluster: String(character), face: face(f), isMissing: true))
            }
        }
        return FontReport(
            cascade: cascade.fonts.map(face), emojiFace: cascade.emojiFont.map(face),
            cjkFace: cascade.cjkFont.map(face), warnings: cascade.warnings, clusters: clusters)
    }
}
