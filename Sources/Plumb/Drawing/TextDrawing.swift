/// What the engine draws for a cell: its layout and, per line, the glyphs from left to right
/// at the positions the layout measured. A renderer (SVG, Core Graphics, a canvas) needs
/// nothing else from the engine: glyph outlines, color bitmaps and ink boxes come from each
/// glyph's `FontFace`.
///
/// Get one from `TextMeasurer.drawing(_:style:width:scale:)`.
public struct TextDrawing: Sendable {
    /// The cell's layout: the same value `TextMeasurer.layout` returns for the same input.
    public let layout: TextLayout
    /// The width of the box the lines are aligned in (points): the layout width on the device
    /// grid, or the widest line when the width is unconstrained (+∞); `nil` when the width is
    /// unusable (NaN, ≤ 0), where the measurement is a flagged fallback and there are no lines.
    public let boxWidth: Double?
    /// One list per line of `layout.lines`, in visual order (left to right).
    public let lines: [[PlacedGlyph]]
}

/// A glyph to draw: which glyph of which face, where, and at what scale.
public struct PlacedGlyph: Hashable, Sendable {
    /// The face the glyph comes from.
    public let face: FontFace
    /// The glyph's id in `face`.
    public let glyph: UInt32
    /// Pen x (the glyph's origin) in points from the left of the text box.
    public let x: Double
    /// y of the glyph's baseline (its origin) in points from the top of the text box.
    public let baseline: Double
    /// Points per font unit (font size / units per em): font-unit coordinates × `scale`, with
    /// y flipped, are points from the glyph's origin.
    public let scale: Double
    /// Part of the "…" of a truncated line.
    public let isEllipsis: Bool
    /// The run's drawing colour (`TextAttributes.color`, CSS syntax) in an attributed text;
    /// `nil` draws in the renderer's text colour.
    public let color: String?
    /// A synthetic oblique: the outline's x moves by `skew` × its y (font units, y up), 0.25
    /// under `chromium` (Skia), 0.2 under `pango` (fontconfig); 0 when the face is slanted
    /// already, upright was asked for, or the profile (`standard`, UIKit) never synthesises.
    public let skew: Double
    /// A synthetic bold: the width (points) of a stroke of the glyph's own colour around its
    /// outline, as Skia and FreeType embolden a face lighter than the weight asked for; 0 for
    /// none. Advances never change: the layout measured the face as it is.
    public let emboldening: Double
}

/// One of the engine's loaded font faces, as a renderer sees it: names, metrics in font units
/// and the glyphs' outlines, color bitmaps and ink boxes.
///
/// Equal faces are the same loaded face. Glyph queries ask HarfBuzz each time (nothing is
/// cached); a renderer that draws a glyph many times keeps its outline.
///
/// - Thread safety: immutable; safe from any thread, concurrently.
public struct FontFace: Hashable, Sendable {
    let font: Font

    init(_ font: Font) { self.font = font }

    /// The family name fontconfig gave the face.
    public var familyName: String { font.familyName }
    /// The font file.
    public var path: String { font.path }
    /// The face's index in a collection file (0 for a single-face file).
    public var faceIndex: Int { font.faceIndex }
    /// Font units per em.
    public var unitsPerEm: Double { font.upem }
    /// The ascender the engine measures with, in font units (y up).
    public var ascender: Double { font.metrics.ascender }
    /// Whether the face carries color glyphs (CBDT/sbix/COLR/SVG), e.g. Noto Color Emoji.
    public var hasColorGlyphs: Bool { font.hasColorGlyphs }

    /// The outline of `glyph` in font units (y up), empty for a blank glyph (a space).
    ///
    /// - Complexity: O(outline points).
    public func outline(ofGlyph glyph: UInt32) -> [GlyphPathElement] { GlyphDrawing.outline(of: glyph, in: font) }

    /// The PNG image of a color glyph (CBDT/sbix), or `nil` when the face has none for it.
    public func colorImage(ofGlyph glyph: UInt32) -> [UInt8]? { GlyphDrawing.png(of: glyph, in: font) }

    /// The ink box of `glyph` in font units (y up), or `nil` for a glyph without ink.
    public func inkBox(ofGlyph glyph: UInt32) -> GlyphInkBox? { GlyphDrawing.extents(of: glyph, in: font) }

    /// Faces are equal when they are the same loaded face.
    public static func == (a: FontFace, b: FontFace) -> Bool { a.font === b.font }

    /// Hashes the face's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(font)) }
}

/// The width-independent data behind a layout that drawing needs (internal: `TextLayout`
/// carries none of it).
struct DrawingSource: Sendable {
    let prepared: PreparedText
    /// The style's font size: the size of every face of a plain text, and of the ellipsis.
    let fontSize: Double
    /// Where the text's tabs stop, and where each line starts on that ruler.
    let tabs: TabRuler
    let lineTabStarts: [Double]
    /// Per line: the grapheme ranges drawn, in logical order; a truncated line has its ellipsis
    /// after the first range (head, ellipsis, tail).
    let lineGraphemes: [(visible: [Range<Int32>], hasEllipsis: Bool)]
    /// Per line: the font and width of its "…" (truncated lines only; a text of several run
    /// styles takes the style at the truncation point).
    var lineEllipses: [(font: UInt8, width: Double)?] = []
    /// Per line, how a justified line stretches (empty when no line is).
    var justifications: [LineJustification?] = []
    /// An attributed text's runs as drawn (empty for plain text: one run at `fontSize`).
    var runs: [DrawingRun] = []
    /// The truncation token's runs (`TextStyle.truncationToken`), byte ends in the token's
    /// text; empty for the plain "…".
    var tokenRuns: [DrawingRun] = []
    /// The style's weight and slant (what a face may lack) and the profile's synthesis rule.
    var weight = 400
    var italic = false
    var synthesis: LayoutConventions.FontSynthesis = .none

    /// How a run's glyphs are drawn: its own size, colour, weight and slant, or the style's.
    func style(of run: DrawingRun?) -> DrawnStyle {
        DrawnStyle(
            size: run?.size ?? fontSize, color: run?.color, weight: run?.weight ?? weight, italic: run?.italic ?? italic,
            synthesis: synthesis)
    }

    /// The "…" of line `i`: its own when the line was truncated, else the text's.
    func ellipsis(ofLine i: Int) -> (font: UInt8, width: Double) {
        (i < lineEllipses.count ? lineEllipses[i] : nil) ?? (prepared.ellipsisFont, prepared.ellipsisWidth)
    }

    /// How line `i` stretches (`nil`: natural width).
    func justification(ofLine i: Int) -> LineJustification? { i < justifications.count ? justifications[i] : nil }

    /// The index of the run holding UTF-8 offset `byte` (binary search), or nil for plain
    /// text.
    func run(atByte byte: Int32) -> Int? { Self.run(atByte: byte, in: runs) }

    /// The run of `runs` holding `byte` (binary search), or nil when there are none.
    static func run(atByte byte: Int32, in runs: [DrawingRun]) -> Int? {
        guard !runs.isEmpty else { return nil }
        var lo = 0
        var hi = runs.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].byteEnd <= Int(byte) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// One run of an attributed text as drawing needs it: the size its faces are scaled to, how
/// far its glyphs are raised, its colour.
struct DrawingRun: Sendable {
    /// UTF-8 offset where the run ends.
    let byteEnd: Int
    /// The run's resolved font size (points).
    let size: Double
    /// Raises the run's glyphs above the baseline (points).
    let baselineOffset: Double
    let color: String?
    /// The weight and slant the run asks for (its faces may lack them).
    var weight: Int
    var italic: Bool
}

/// What drawing one run of glyphs needs besides the glyphs: the size they are scaled to, their
/// colour, and the weight and slant asked for, with the profile's rule for synthesising them.
struct DrawnStyle {
    var size: Double
    var color: String?
    var weight: Int
    var italic: Bool
    var synthesis: LayoutConventions.FontSynthesis
}
