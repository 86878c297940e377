/// Where a paragraph's lines start and end in the layout box: `NSParagraphStyle`'s
/// first-line head, head and tail indents (CSS `text-indent` and inline paddings under the
/// `chromium` profile), sanitised and, under layout-unit arithmetic, on Blink's 1/64-px grid.
///
/// Positions are from the box's leading edge (the left in a left-to-right paragraph, the
/// right in a right-to-left one). A line's width is its end minus its start; the breaker fits
/// each line into its own width.
///
/// - Thread safety: a value type; share freely.
struct LineIndents: Hashable, Sendable {
    /// Where a first line starts (`TextStyle.firstLineHeadIndent`).
    var firstLineStart = 0.0
    /// Where every other line starts (`TextStyle.headIndent`).
    var otherLinesStart = 0.0
    /// `TextStyle.tailIndent`: above 0 the line end from the leading edge, else the distance
    /// of the line end inside the trailing edge.
    var tail = 0.0
    /// Whether every paragraph's first line starts at ``firstLineStart`` (UIKit, Pango, CSS
    /// `each-line`) or only the text's first (CSS `text-indent`).
    var everyParagraph = true

    /// No indents: every line from 0 to the box's width.
    static let none = LineIndents()

    /// Whether every line starts at 0 and ends at the box's trailing edge.
    var isNone: Bool { firstLineStart == 0 && otherLinesStart == 0 && tail == 0 }

    /// Where a line of paragraph `paragraph` starts; `first`: it is the paragraph's first line;
    /// `afterLineSeparator`: the paragraph follows a line separator (U+2028, NEL), which
    /// continues the paragraph before it, so that its first line is not a first line.
    @inline(__always)
    func start(first: Bool, paragraph: Int32, afterLineSeparator: Bool = false) -> Double {
        first && !afterLineSeparator && (everyParagraph || paragraph == 0) ? firstLineStart : otherLinesStart
    }

    /// Where `line` of `text` starts: its paragraph's first line or another.
    @inline(__always)
    func start(of line: BrokenLine, in text: PreparedText) -> Double {
        let paragraph = text.paragraphs[Int(line.paragraph)]
        return start(
            first: line.graphemeStart == paragraph.graphemeStart, paragraph: line.paragraph,
            afterLineSeparator: paragraph.followsLineSeparator)
    }

    /// Where lines end in a box `box` wide (∞ when the width is unconstrained).
    @inline(__always)
    func end(box: Double) -> Double { tail > 0 ? min(tail, box) : box + tail }

    /// The width of a line starting at `start` in a box `box` wide (never below 0).
    @inline(__always)
    func width(box: Double, start: Double) -> Double { max(0, end(box: box) - start) }

    /// The narrowest box that holds a line starting at `start` whose content is `used` wide:
    /// what a measurement reports as its width, so that a layout at the width it reports has
    /// the same lines.
    @inline(__always)
    func box(holding used: Double, from start: Double) -> Double { max(0, start + used - min(tail, 0)) }
}
