/// How a family cascade resolves on this machine and which font draws each cluster of a text:
/// the answer to "which font is this?" (`plumb fonts`).
public struct FontReport: Sendable {
    /// A resolved face.
    public struct Face: Sendable, Hashable {
        public var family: String
        public var path: String
        public var faceIndex: Int
        public var unitsPerEm: Double
        /// hhea (or OS/2 typo with USE_TYPO_METRICS) values in font units.
        public var ascender: Double
        public var descender: Double
        public var lineGap: Double
        public var hasColorGlyphs: Bool
    }

    /// One grapheme cluster of the sample text and the face that draws it.
    public struct ClusterFont: Sendable, Hashable {
        public var cluster: String
        public var face: Face
        /// No installed font has every character of the cluster (.notdef is drawn).
        public var isMissing: Bool
    }

    public var cascade: [Face]
    public var emojiFace: Face?
    public var cjkFace: Face?
    public var warnings: [MeasureWarning]
    public var clusters: [ClusterFont]
}

extension TextMeasurer {
    /// Resolves `families` and reports the faces and the font of every cluster of `text`.
    public func fontReport(families: [String], weight: Int = 400, italic: Bool = false, text: String = "")
        -> FontReport
    {
        let cascade = fonts.cascade(for: FontDescriptor(families: families, size: 17, weight: weight, italic: italic))
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
