/// Where each line sits horizontally in the layout box (`NSTextAlignment` without
/// justification).
///
/// Alignment moves lines, never changes them: heights, line breaks and cache keys do not
/// depend on it. The box is the layout width (on the pixel grid), or the widest line when the
/// width is unconstrained.
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
        case .natural: return direction == .rightToLeft ? free : 0
        }
    }
}
