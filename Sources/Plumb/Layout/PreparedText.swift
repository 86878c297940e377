/// A text measured once for one font setup, ready to be laid out at any width.
///
/// Everything here is width-independent: grapheme clusters with their advances (HarfBuzz, in
/// points, letter spacing included), break opportunities (ICU), fonts and paragraphs. Line
/// breaking over it is pure arithmetic (`LineBreaker`), so a width change never reshapes.
/// Opaque to library users on purpose, so the public API does not calcify around it.
///
/// - Thread safety: immutable; share freely.
final class PreparedText: Sendable {
    /// A font used by the text, with its metrics scaled to the style's size (points).
    ///
    /// The font object itself is opaque here (`face`): layout needs only the numbers, and the
    /// stages that shape or draw read it as a `Font` (`FontUse.font`, in Fonts).
    struct FontUse: Sendable {
        let face: AnyObject & Sendable
        let ascender: Double
        /// Below the baseline when negative (≤ 0 unless a run is raised).
        let descender: Double
        let lineGap: Double
        /// The run-style group of the face (0 for plain text): line heights take the tallest
        /// face within a group and align groups on the baseline (`LineHeightModel`).
        var group: Int32 = 0
        /// Whether the face is raised or lowered from the baseline (a run's baseline offset or
        /// an inline box), so the line's ascent and descent must be taken apart.
        var isShifted = false
        /// The face's metrics per em, for line-height rules that round them to device
        /// pixels (nil for inline boxes and hand-made test faces: their numbers are used as
        /// they are).
        var em: EmMetrics? = nil
        /// The local index of the first font of the face's run style, the strut of that
        /// style's inline box in CSS (255: none, e.g. an inline box).
        var strut: UInt8 = 255

        /// Natural line height: ascender − descender, plus the gap with font leading.
        @inline(__always)
        func lineHeight(includingLeading: Bool) -> Double {
            ascender - descender + (includingLeading ? lineGap : 0)
        }
    }

    /// A face's vertical metrics as fractions of its em, in `Float` as Skia computes them,
    /// with the run numbers a device-pixel rounding needs (`BlinkLineBox`).
    struct EmMetrics: Sendable {
        /// Ascender / upem (up is positive).
        var ascent: Float
        /// −descender / upem (down is positive).
        var descent: Float
        /// Line gap / upem.
        var lineGap: Float
        /// The run's font size (points).
        var size: Double
        /// The run's baseline offset (points, up is positive).
        var baselineOffset: Double
        /// One of the run's cascade families, not a font found by fallback.
        var isFamilyFont: Bool
    }

    /// Per-grapheme flag bits.
    struct GraphemeFlags: OptionSet, Sendable {
        let rawValue: UInt8
        /// Whitespace that hangs at a line end (never causes a wrap, not in the used width).
        static let hangingSpace = GraphemeFlags(rawValue: 1)
        /// A tab: its advance depends on the position in the line.
        static let tab = GraphemeFlags(rawValue: 2)
        /// A line may break after this grapheme (UAX #14).
        static let breakAfter = GraphemeFlags(rawValue: 4)
        /// A line must break after this grapheme (a mandatory break inside a paragraph, e.g.
        /// vertical tab or form feed).
        static let mandatoryBreakAfter = GraphemeFlags(rawValue: 8)
        /// This grapheme continues a cluster that was cut because it was too long
        /// (`TextPreparer.maximumClusterScalars`): shaped apart from the piece before it.
        static let continuesCluster = GraphemeFlags(rawValue: 16)
        /// An inline box (its U+FFFC): its advance is the box's width, its face the box's.
        static let inlineBox = GraphemeFlags(rawValue: 32)
    }

    /// Graphemes between two break opportunities: the unit of word wrapping.
    struct Word: Sendable {
        var graphemeStart: Int32
        var graphemeEnd: Int32
        /// Sum of the advances (tabs count 0 here; see `hasTab`).
        var width: Double
        /// Advance of the trailing hanging whitespace (included in `width`).
        var hangingWidth: Double
        /// Bit i set when local font i (capped at 63) draws a grapheme of the word.
        var fontMask: UInt64
        var hasTab: Bool
        var mandatoryBreakAfter: Bool
        /// Where the word ends, measured from its paragraph's start (Σ widths so far): lets
        /// the breaker find a line's last word by binary search.
        var end: Double = 0
        /// Index of the next word of the paragraph with another font mask (or the paragraph's
        /// word end): OR-ing a line's masks visits runs, not words.
        var nextMaskChange: Int32 = 0
        /// How much wider the word's last cluster is when a line ends after it than inside
        /// the run it was shaped in: kerning with the next cluster (ケー, ージ in Noto Sans CJK)
        /// does not apply across a line end. Set by the chromium profile only (Blink re-shapes
        /// such line ends; 0 elsewhere). Fits the padding: `Word` stays 56 bytes.
        var endAdjustment: Float = 0
    }

    /// A paragraph: text between hard breaks.
    struct Paragraph: Sendable {
        /// UTF-8 byte range of the paragraph's content (hard-break characters excluded).
        var byteStart: Int32
        var byteEnd: Int32
        var graphemeStart: Int32
        var graphemeEnd: Int32
        var wordStart: Int32
        var wordEnd: Int32
        /// No tabs and no mandatory breaks inside: lines can be found by binary search.
        var isSimple: Bool = false
        /// The font mask shared by every word, or 0 when words use different fonts.
        var uniformMask: UInt64 = 0
        /// Base direction (UAX #9 P2–P3; left to right without a strong character).
        var direction: TextDirection = .leftToRight
    }

    let fonts: [FontUse]
    /// The fonts' vertical metrics as plain numbers (no font references): what line heights
    /// need, read on every line without reference counting.
    let fontLines: [FontLine]

    /// Ascender and natural line heights of a font at the text's size.
    struct FontLine: Sendable {
        let ascender: Double
        let heightWithLeading: Double
        let heightWithoutLeading: Double
        /// `FontUse.group`.
        let group: Int32
        /// `FontUse.isShifted`.
        let isShifted: Bool
        /// `FontUse.em`.
        let em: EmMetrics?
        /// `FontUse.strut`.
        var strut: UInt8 = 255
    }
    let graphemeStarts: [Int32]
    let graphemeEnds: [Int32]
    let advances: [Double]
    let flags: [GraphemeFlags]
    let graphemeFonts: [UInt8]
    /// Chromium profile only (empty otherwise): per grapheme, how much wider it is re-shaped
    /// alone than as shaped with the cluster after it (kerning, `t|e`). Blink re-shapes the
    /// cluster where `overflow-wrap` cuts a word, so the cut fits only with that width.
    let cutAdjustments: [Float]
    let words: [Word]
    let paragraphs: [Paragraph]
    /// The font (local index) and advance of "…" for truncation.
    let ellipsisFont: UInt8
    let ellipsisWidth: Double
    /// The local fonts of the truncation token (`fontBit(ellipsisFont)` for "…"): they count
    /// for the height of the line the token ends.
    let ellipsisMask: UInt64
    /// The truncation token's own text and per-face pieces, when a token replaces "…" (for
    /// drawing); `nil` for the plain ellipsis.
    let token: PreparedToken?
    let utf8Count: Int
    let missingGlyphClusters: Int
    /// How much trailing whitespace hangs (`LayoutConventions.trailingSpaces`).
    let trailingSpaces: LayoutConventions.TrailingSpaceRule
    /// How a line's width is compared with the box (`LayoutConventions.lineFit`): the line
    /// breaker is specialised per arithmetic.
    let lineFit: LayoutConventions.LineFitArithmetic

    init(
        fonts: [FontUse], graphemeStarts: [Int32], graphemeEnds: [Int32], advances: [Double],
        cutAdjustments: [Float] = [], flags: [GraphemeFlags], graphemeFonts: [UInt8], words: [Word], paragraphs: [Paragraph],
        ellipsisFont: UInt8, ellipsisWidth: Double, ellipsisMask: UInt64? = nil, token: PreparedToken? = nil,
        utf8Count: Int, missingGlyphClusters: Int,
        trailingSpaces: LayoutConventions.TrailingSpaceRule = .allHang,
        lineFit: LayoutConventions.LineFitArithmetic = .exact(tolerance: LayoutConventions.exactFitTolerance)
    ) {
        self.trailingSpaces = trailingSpaces
        self.lineFit = lineFit
        self.fonts = fonts
        self.fontLines = fonts.map {
            FontLine(ascender: $0.ascender, heightWithLeading: $0.lineHeight(includingLeading: true),
                     heightWithoutLeading: $0.lineHeight(includingLeading: false), group: $0.group,
                     isShifted: $0.isShifted, em: $0.em, strut: $0.strut)
        }
        self.graphemeStarts = graphemeStarts
        self.graphemeEnds = graphemeEnds
        self.advances = advances
        self.flags = flags
        self.graphemeFonts = graphemeFonts
        self.cutAdjustments = cutAdjustments
        self.words = words
        self.paragraphs = paragraphs
        self.ellipsisFont = ellipsisFont
        self.ellipsisWidth = ellipsisWidth
        self.ellipsisMask = ellipsisMask ?? Self.fontBit(ellipsisFont)
        self.token = token
        self.utf8Count = utf8Count
        self.missingGlyphClusters = missingGlyphClusters
    }

    /// The font bit of local font index `i` (indices ≥ 63 share the last bit).
    @inline(__always) static func fontBit(_ i: UInt8) -> UInt64 { 1 << UInt64(min(i, 63)) }
}

/// A truncation token as prepared: its text and its pieces of one face each, in order, with
/// their advances (points). Drawn where the layout puts "…".
struct PreparedToken: Sendable {
    /// The token's UTF-8 bytes.
    let utf8: [UInt8]
    /// Byte ranges of one face each, their local font and advance.
    let pieces: [(bytes: Range<Int>, font: UInt8, width: Double, isBox: Bool)]
}
