/// One laid-out line: where it is in the text and on screen.
public struct LayoutLine: Hashable, Sendable {
    /// The line's text range (hanging spaces included, hard breaks excluded). For a truncated
    /// line it spans everything the line stands for; see `truncation` for what is visible.
    public var range: Range<String.Index>
    /// The same range as Unicode-scalar offsets from the start of the text.
    public var scalarRange: Range<Int>
    /// The same range as UTF-8 byte offsets.
    public var utf8Range: Range<Int>
    /// The same range as UTF-16 code-unit offsets: `NSRange(location: lowerBound, length:
    /// count)` for UIKit/`NSString`, or JavaScript string indices (`text.slice(lower, upper)`).
    /// An emoji outside the BMP is 2 units; a combining mark is 1.
    public var utf16Range: Range<Int>
    /// The line box: x from the style's alignment (0 for left-aligned lines), y includes all
    /// spacing above, width = used width plus `justificationWidth`, height = line height
    /// (exact points, not rounded).
    /// Hanging whitespace lies after the rect in the paragraph's direction: to its right in a
    /// left-to-right paragraph, to its left in a right-to-left one.
    public var rect: Rect
    /// Width of the visible content (hanging trailing whitespace excluded; ellipsis included).
    public var usedWidth: Double
    /// Width of the trailing whitespace hanging past `usedWidth`.
    public var hangingWidth: Double
    /// y of the baseline from the top of the text box.
    public var baseline: Double
    /// Height before the multiple and min/max clamps (fonts' ascender − descender [+ gap]).
    public var naturalHeight: Double
    /// Space below this line before the next one (0 for the last line).
    public var gapAfter: Double
    /// Whether the line is the last of its paragraph (it ends at a hard break or at the end
    /// of the text): the gap after it is `lineSpacing` plus the paragraph spacings.
    public var endsParagraph: Bool
    /// The base direction of the line's paragraph: where the line starts and ends visually
    /// (a fade over a line's end covers its left edge in a right-to-left paragraph).
    public var direction: TextDirection
    /// Set on a truncated last line: where the ellipsis is and which text stays visible.
    public var truncation: LineTruncation?
    /// The advance of the hyphen the line ends with where it breaks a word (after a soft
    /// hyphen or at a hyphenation point; 0: none). It is the end of `usedWidth`: drawn after
    /// the line's last cluster (`TextMeasurer.drawing` places its glyph).
    public var hyphenWidth: Double = 0
    /// The width justification added to the line (`TextAlignment.justified`), spread over its
    /// clusters as the profile's engine spreads it (the caret map and drawing place them); 0
    /// for a line at its natural width. `usedWidth` stays the natural width the line broke at.
    public var justificationWidth: Double = 0
}
