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
    /// spacing above, width = used width, height = line height (exact points, not rounded).
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
}

/// The visible parts of a truncated line around its ellipsis.
public struct LineTruncation: Hashable, Sendable {
    /// Where the ellipsis (or truncation token) sits in the line.
    public var placement: EllipsisPlacement
    /// Visible text before the ellipsis (empty for head truncation).
    public var head: Range<String.Index>
    /// Visible text after the ellipsis (empty for tail truncation).
    public var tail: Range<String.Index>
    /// The advance of the ellipsis (or truncation token) in points, included in the line's
    /// `usedWidth`.
    public var ellipsisWidth: Double
}

/// A measurement plus the geometry behind it: what fade masks, per-line covers and touch hit
/// tests need.
///
/// `Hashable` over every field, hit-testing geometry included: a layout decoded from JSON
/// equals the one encoded, and a NaN field equals NaN as in every value type.
///
/// - Thread safety: an immutable `Sendable` value; every query may run on any thread.
public struct TextLayout: Sendable {
    /// The text laid out (for a UTF-16 or UTF-8 input, the decoded and repaired string; for an
    /// attributed text, its flattened string with U+FFFC for each inline box).
    public let text: String
    /// The cell's answer: size, line count, truncation and warnings (what `measure` returns).
    public let measurement: TextMeasurement
    /// The lines kept, top to bottom (empty for an empty text and for a fallback).
    public let lines: [LayoutLine]
    /// The unrounded height (Σ line heights + gaps) before pixel ceiling, or the ink height
    /// with `usesDeviceMetrics`.
    public let exactHeight: Double
    /// The device pixels per point the sizes were ceiled to (after sanitising: an invalid
    /// scale reads 2 here).
    public let scale: Double
    /// Where each inline box of an attributed text was placed (in text order; a box on a line
    /// that was cut, or in text a truncation hid, is absent).
    public internal(set) var inlineBoxes: [InlineBoxPlacement] = []
    /// Where the truncated line's "…" (or `TextStyle.truncationToken`) was placed: a tap
    /// inside `rect` is a tap on "more". `nil` when nothing was truncated.
    public internal(set) var truncationToken: TruncationTokenPlacement? = nil
    /// Where each visible cluster is, for `characterOffset(at:unit:)` and
    /// `rects(forCharacters:unit:)`.
    var caretMap = CaretMap()
    /// Where the runs of an attributed text end (UTF-8 offsets, ascending); empty for plain
    /// text (one run).
    var runEnds: [Int] = []

    init(text: String, measurement: TextMeasurement, lines: [LayoutLine], exactHeight: Double,
         scale: Double) {
        self.text = text
        self.measurement = measurement
        self.lines = lines
        self.exactHeight = exactHeight
        self.scale = scale
    }

    /// The pixel-ceiled size, `measurement.size`.
    public var size: Size { measurement.size }
    /// The number of lines kept, `lines.count`.
    public var lineCount: Int { lines.count }

    /// The last line's rect (width = used width): what a fade-out over the end of the last
    /// line needs (its end is `maxX`, or `x` when `lines.last?.direction` is right to left).
    /// `nil` when there are no lines.
    public var lastLineRect: Rect? { lines.last?.rect }

    /// The line a touch at `y` (points from the top of the text box) is on.
    ///
    /// A line owns its rect and the gap below it (line spacing and paragraph spacing), as a
    /// TextKit line fragment does; y above the first line maps to the first line and y below
    /// the last to the last. `nil` only when there are no lines or `y` is NaN.
    ///
    /// - Complexity: O(log n).
    public func lineIndex(atY y: Double) -> Int? {
        guard !lines.isEmpty, !y.isNaN else { return nil }
        var lo = 0
        var hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].rect.y <= y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Rects that cover each line (the line's rect widened by its hanging whitespace, on the
    /// side where it hangs), for "cover every line but one" effects.
    public var lineCoverRects: [Rect] {
        lines.map {
            let hangsLeft = $0.direction == .rightToLeft
            return Rect(x: hangsLeft ? $0.rect.x - $0.hangingWidth : $0.rect.x, y: $0.rect.y,
                        width: $0.usedWidth + $0.hangingWidth, height: $0.rect.height)
        }
    }

    /// The text of line `i` (materialised on demand).
    public func text(ofLine i: Int) -> Substring { text[lines[i].range] }
}

/// An inline box as laid out: where to draw the avatar or custom emoji it stands for.
public struct InlineBoxPlacement: Hashable, Sendable {
    /// The box's caller id (`InlineBox.id`).
    public var id: String?
    /// The box as given.
    public var box: InlineBox
    /// The offset of its U+FFFC in the text, in UTF-8 bytes, Unicode scalars and UTF-16 code
    /// units (NSRange).
    public var utf8Offset: Int
    /// The offset of its U+FFFC in Unicode scalars.
    public var scalarOffset: Int
    /// The offset of its U+FFFC in UTF-16 code units (`NSRange.location`).
    public var utf16Offset: Int
    /// The index of its line in `TextLayout.lines`.
    public var line: Int
    /// Its rect in the text box (points, y down): its bottom is `baselineOffset` above the
    /// line's baseline.
    public var rect: Rect
}

/// The truncation token as laid out (Codable as `{"line", "rect": [x, y, w, h], "boxes"}`,
/// the CLI's `"token"`; `"boxes"` only when the token has inline boxes).
public struct TruncationTokenPlacement: Hashable, Sendable {
    /// The index of its line in `TextLayout.lines`.
    public var line: Int
    /// Its rect in the text box (points): its advance wide, its line tall.
    public var rect: Rect
    /// The inline boxes of the token (an icon in "… more ▸"), placed as drawn: x from the
    /// advances before each box in the token, y from the line's baseline and the box's offset.
    /// Offsets count in the token's text (`TextStyle.truncationToken`), not the cell's.
    public var boxes: [InlineBoxPlacement] = []
}
