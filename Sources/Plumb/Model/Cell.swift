/// One cell of a batch: its content (a plain string or attributed text), its style and its
/// layout width. Every batch call takes cells, plain and attributed alike.
///
/// Equality and hashing treat a NaN width as equal to itself (so a cell can always be found
/// in a `Set`); every other field compares as its type does.
public struct Cell: Hashable, Sendable {
    /// What a cell shows.
    public enum Content: Hashable, Sendable {
        /// Characters in the style's font.
        case plain(String)
        /// Runs of their own attributes (a bold name, a mention, an inline avatar) over the
        /// style's defaults.
        case attributed(AttributedText)
    }

    /// The cell's characters: the plain text, or the attributed text's string (an inline box
    /// is U+FFFC).
    public private(set) var text: String
    /// The cell's runs when its content is attributed (`nil`: plain).
    public private(set) var attributedText: AttributedText?
    /// Font, paragraph style and drawing options (the default font of attributed runs).
    public var style: TextStyle
    /// The layout width in points (+∞ = unconstrained; NaN or ≤ 0 = unmeasurable, answered
    /// with the flagged fallback height).
    public var width: Double

    /// A cell of plain `text` laid out with `style` in `width` points.
    public init(text: String, style: TextStyle, width: Double) {
        self.text = text
        self.attributedText = nil
        self.style = style
        self.width = width
    }

    /// A cell of attributed `text` (its runs override `style`'s font fields) in `width` points.
    public init(text: AttributedText, style: TextStyle, width: Double) {
        self.text = text.string
        self.attributedText = text
        self.style = style
        self.width = width
    }

    /// A cell showing `content` in `style` at `width` points.
    public init(_ content: Content, style: TextStyle, width: Double) {
        switch content {
        case .plain(let s): self.init(text: s, style: style, width: width)
        case .attributed(let a): self.init(text: a, style: style, width: width)
        }
    }

    /// The cell's content; setting it replaces the text (and the runs).
    public var content: Content {
        get { attributedText.map(Content.attributed) ?? .plain(text) }
        set {
            switch newValue {
            case .plain(let s):
                text = s
                attributedText = nil
            case .attributed(let a):
                text = a.string
                attributedText = a
            }
        }
    }

    /// Whether the cell has runs that change its layout (attributed text whose runs all set
    /// nothing is measured as its plain string).
    var hasLayoutRuns: Bool {
        guard let attributedText else { return false }
        return !attributedText.isPlain
    }

    /// Equal content, style and width (NaN widths equal).
    public static func == (a: Cell, b: Cell) -> Bool {
        (a.width == b.width || (a.width.isNaN && b.width.isNaN))
            && a.text == b.text && a.attributedText == b.attributedText && a.style == b.style
    }

    /// Hashes the content, style and width (every NaN alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(attributedText)
        hasher.combine(style)
        hasher.combine(width.isNaN ? Double.nan.bitPattern : (width + 0).bitPattern)  // -0 + 0 = +0
    }
}
