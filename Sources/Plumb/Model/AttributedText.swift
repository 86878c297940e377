/// Text whose runs carry their own character attributes, with inline boxes: a feed row's bold
/// name, regular message, smaller timestamp, monospace code span and inline avatar in one cell
/// (UIKit's `NSAttributedString` with `NSTextAttachment`s; SkParagraph's styles and
/// placeholders).
///
/// Paragraph-level settings (line spacing, line heights, alignment, line break mode, maximum
/// lines, drawing options, compatibility) stay on the cell's `TextStyle`; a run's attributes
/// override the style's font fields for its characters. An inline box stands for one U+FFFC
/// (OBJECT REPLACEMENT CHARACTER) in `string`.
///
/// Build one by appending:
/// ```swift
/// var row = AttributedText("Alice ", TextAttributes(weight: 700))
/// row.append("replied ")
/// row.append(InlineBox(width: 18, height: 18, baselineOffset: -3, id: "avatar"))
/// row.append(" 同意", TextAttributes(size: 17))
/// ```
///
/// - Thread safety: a value type; share freely.
public struct AttributedText: Hashable, Sendable {
    /// The characters, an inline box being one U+FFFC.
    public private(set) var string: String
    /// The runs in order, covering `string` without gaps; adjacent runs never have equal
    /// attributes (appending merges them), and a box is always a run of its own.
    public private(set) var runs: [Run]

    /// A stretch of `string` with one set of attributes, or one inline box.
    public struct Run: Hashable, Sendable {
        /// The run's UTF-8 byte range in `string`.
        public var utf8Range: Range<Int>
        /// Its character attributes (a box's attributes matter for drawing only).
        public var attributes: TextAttributes
        /// The inline box this run stands for (its one character is U+FFFC), if any.
        public var inlineBox: InlineBox?
    }

    /// The empty text.
    public init() {
        string = ""
        runs = []
    }

    /// One run of `string` with `attributes` (by default the style's own).
    public init(_ string: String, _ attributes: TextAttributes = TextAttributes()) {
        self.init()
        append(string, attributes)
    }

    /// Appends `string` with `attributes`; merges it into the last run when the attributes are
    /// equal (so splitting a run changes nothing).
    ///
    /// - Complexity: amortised O(`string.utf8.count`).
    public mutating func append(_ string: String, _ attributes: TextAttributes = TextAttributes()) {
        guard !string.isEmpty else { return }
        let start = self.string.utf8.count
        self.string += string
        let end = self.string.utf8.count
        if let last = runs.last, last.inlineBox == nil, last.attributes == attributes {
            runs[runs.count - 1].utf8Range = last.utf8Range.lowerBound..<end
        } else {
            runs.append(Run(utf8Range: start..<end, attributes: attributes, inlineBox: nil))
        }
    }

    /// Appends an inline box (one U+FFFC); `attributes` are carried for drawing only.
    public mutating func append(_ box: InlineBox, _ attributes: TextAttributes = TextAttributes()) {
        let start = string.utf8.count
        string.unicodeScalars.append(AttributedText.objectReplacement)
        runs.append(Run(utf8Range: start..<string.utf8.count, attributes: attributes, inlineBox: box))
    }

    /// Appends every run of `other`.
    public mutating func append(_ other: AttributedText) {
        for run in other.runs {
            if let box = run.inlineBox {
                append(box, run.attributes)
            } else {
                append(other.substring(utf8: run.utf8Range), run.attributes)
            }
        }
    }

    /// The text of a run's range.
    func substring(utf8 range: Range<Int>) -> String {
        let utf8 = string.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(string[start..<end])
    }

    /// Whether every run uses the style's own attributes and there is no box: then the text
    /// is measured exactly as the plain string.
    public var isPlain: Bool {
        runs.allSatisfy { $0.inlineBox == nil && $0.attributes.isLayoutNeutral }
    }

    /// The inline boxes in order, with the UTF-8 offset of their U+FFFC.
    public var inlineBoxes: [(utf8Offset: Int, box: InlineBox)] {
        runs.compactMap { run in run.inlineBox.map { (run.utf8Range.lowerBound, $0) } }
    }

    /// U+FFFC, the character an inline box stands for.
    public static let objectReplacement: Unicode.Scalar = "\u{FFFC}"
}
