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
