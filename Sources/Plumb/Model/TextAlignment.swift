/// Where each line sits horizontally in the layout box (`NSTextAlignment`, CSS `text-align`).
///
/// Alignment moves lines and, when justified, the clusters inside them; it never changes a
/// line break, a height, a measurement or a cache key. The box is the layout width (on the
/// pixel grid), or the widest line when the width is unconstrained.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    /// Left in a left-to-right paragraph, right in a right-to-left one. A paragraph's
    /// direction is that of its first strong character (UAX #9 P2–P3; left to right when it
    /// has none), as in TextKit with the natural writing direction and Pango's auto-dir.
    case natural
    /// Every line's left edge at the box's left edge, whatever the paragraph's direction.
    case left
    /// Every line's right edge at the box's right edge, whatever the paragraph's direction.
    case right
    /// Every line centred in the box (its leftover width split evenly on both sides).
    case center
    /// Every line but a paragraph's last spans the width between its indents: the leftover
    /// width is spread over the line's justification opportunities as the profile's engine
    /// spreads it (`LayoutLine.justificationWidth`); a paragraph's last line takes
    /// `TextStyle.lastLineAlignment` (natural by default). A line without opportunities, or
    /// one that overflows, stays natural.
    case justified
}

extension TextAlignment {
    /// A line's x in a box of `box` points. A line wider than the box (an overflow the
    /// chromium profile allows by 1/64 px, or clipping) starts at 0 whatever the alignment.
    static func lineX(usedWidth: Double, box: Double, alignment: TextAlignment, direction: TextDirection) -> Double {
        let free = max(0, box - usedWidth)
        switch alignment {
        case .left: return 0
        case .right: return free
        case .center: return free / 2
        // A justified line that was stretched has no free width left; one that was not
        // (no opportunity) sits where a natural line does.
        case .natural, .justified: return direction == .rightToLeft ? free : 0
        }
    }
}

extension TextStyle {
    /// The alignment of a paragraph's last line: `lastLineAlignment`, else natural after
    /// justified lines (CSS `text-align-last: auto`, TextKit, Pango), else `alignment`.
    var resolvedLastLineAlignment: TextAlignment {
        lastLineAlignment ?? (alignment == .justified ? .natural : alignment)
    }

    /// Whether any line may be justified.
    var justifiesLines: Bool { alignment == .justified || lastLineAlignment == .justified }
}
