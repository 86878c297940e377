/// Where a line's tabs stop, and how the text after each lines up there: a paragraph's tab
/// stops (UIKit's `NSTextTab`s, a Pango tab array), then stops every ``interval``.
///
/// Positions are from the ruler's ``origin`` (from the box's leading edge: 0 for TextKit's
/// back margin and Pango's layout edge, the head indent for CSS's content box), so a line
/// that starts at an indent starts at `lineStart − origin` on the ruler.
///
/// A tab advances the pen to its stop. For a right, center or decimal stop the gap then
/// shrinks as the text after the tab grows — by each cluster's advance, half of it, or (for
/// decimal) the advance of each cluster before the decimal point — until it is 0, after which
/// the text pushes right ("TabPen"). This is how TextKit and Pango place it, and it keeps
/// each cluster's advance ≥ 0 and a line's width monotone in its content, so the breaker's
/// greedy fit and the geometry's walk agree cluster by cluster.
///
/// - Thread safety: a value type; share freely.
struct TabRuler: Hashable, Sendable {
    /// How text lines up at a stop, in the line's direction (a right-aligned stop of a
    /// right-to-left paragraph is a leading one).
    enum Anchor: UInt8, Hashable, Sendable {
        case leading, trailing, center, decimal
    }

    /// A stop: its distance from the origin and alignment.
    struct Stop: Hashable, Sendable {
        var location: Double
        var alignment: TabStop.Alignment
    }

    /// The listed stops, ascending, all > 0.
    var stops: [Stop] = []
    /// The distance between stops after the last listed one (> 0).
    var interval = TextStyle.defaultTabInterval
    /// Stops after the last listed one continue from it every ``interval`` with its alignment
    /// (Pango: the last two stops' distance, or the one stop's location) rather than at
    /// multiples of ``interval`` from the origin, left aligned (TextKit, CSS).
    var continuesLastStop = false
    /// A stop closer than this after the pen is skipped (Blink: half a space; Pango's default
    /// tabs: a space); a stop at or before the pen always is.
    var minimumGap = 0.0
    /// A decimal stop centres the decimal point on it (Pango) rather than starting it there
    /// (TextKit).
    var centresDecimalPoint = false
    /// Where positions are counted from: points from the box's leading edge.
    var origin = 0.0

    /// The paragraph's indents: where each line starts on the ruler (``start(of:in:)``).
    var indents = LineIndents.none

    /// Every `interval` points from the origin, nothing else.
    static func every(_ interval: Double) -> TabRuler { TabRuler(interval: interval) }

    /// Where `line` of `text` starts on the ruler: its indent less the origin.
    @inline(__always)
    func start(of line: BrokenLine, in text: PreparedText) -> Double { onRuler(indents.start(of: line, in: text)) }

    /// Where a line starting `lineStart` points from the box's leading edge is on the ruler
    /// (before its origin for a CSS outdent: Blink's stops continue there, 0 included).
    @inline(__always)
    func onRuler(_ lineStart: Double) -> Double { lineStart - origin }

    /// The first stop after `position` (from the origin) at least ``minimumGap`` beyond it; an
    /// interval of 0 (CSS `tab-size: 0`) stops at the position itself.
    ///
    /// - Complexity: O(log stops) while the listed stops last, then O(1).
    func stop(after position: Double) -> Stop {
        var lo = 0, hi = stops.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if stops[mid].location > position { hi = mid } else { lo = mid + 1 }
        }
        while lo < stops.count && stops[lo].location - position < minimumGap { lo += 1 }
        if lo < stops.count { return stops[lo] }
        guard interval > 0 else { return Stop(location: position, alignment: .left) }
        if continuesLastStop, let last = stops.last {
            // The first k ≥ 1 with last + k·interval beyond the position by the gap.
            var k = max(1, ((position - last.location) / interval).rounded(.down) + 1)
            if last.location + k * interval - position < minimumGap { k += 1 }
            return Stop(location: last.location + k * interval, alignment: last.alignment)
        }
        // Multiples of the interval past the listed stops and the position.
        let floor = stops.last.map { max($0.location, position) } ?? position
        var location = (floor / interval).rounded(.down) * interval + interval
        if location - position < minimumGap { location += interval }
        return Stop(location: location, alignment: .left)
    }

    /// `alignment` in a paragraph of `direction`: TextKit's alignments are absolute, so a
    /// right-to-left line's right stop puts the text on the leading side of the stop.
    @inline(__always)
    static func anchor(_ alignment: TabStop.Alignment, _ direction: TextDirection) -> Anchor {
        switch alignment {
        case .left: direction == .rightToLeft ? .trailing : .leading
        case .right: direction == .rightToLeft ? .leading : .trailing
        case .center: .center
        case .decimal: .decimal
        }
    }
}

/// The pen's tab state across one line: the gap before an aligned stop still to be taken up
/// by the text after it (``TabRuler``).
///
/// - Thread safety: a value type.
struct TabPen: Hashable, Sendable {
    /// What is left of the gap in front of an aligned stop's text (0: none pending).
    var gap = 0.0
    var anchor = TabRuler.Anchor.leading
    /// A decimal stop's text has reached its decimal point.
    var pastDecimalPoint = false

    /// A tab at `x` on a line starting `lineStart` points along the ruler: its advance to the
    /// stop, and the pending gap the text after it takes up.
    ///
    /// - Complexity: O(stops).
    @inline(__always)
    mutating func tab(at x: Double, lineStart: Double, _ ruler: TabRuler, direction: TextDirection) -> Double {
        let position = lineStart + x
        let stop = ruler.stop(after: position)
        let advance = stop.location - position
        anchor = TabRuler.anchor(stop.alignment, direction)
        gap = anchor == .leading ? 0 : advance
        pastDecimalPoint = false
        return advance
    }

    /// The pen's advance over a cluster of `advance` points after the tab: less the share of
    /// it the pending gap takes up (`isDecimalPoint`: the cluster is a decimal point).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func advance(_ advance: Double, isDecimalPoint: Bool, centresDecimalPoint: Bool) -> Double {
        guard gap > 0 else { return advance }
        var share: Double
        switch anchor {
        case .leading: share = 0
        case .trailing: share = advance
        case .center: share = advance / 2
        case .decimal:
            if pastDecimalPoint {
                share = 0
            } else if isDecimalPoint {
                share = centresDecimalPoint ? advance / 2 : 0
                pastDecimalPoint = true
            } else {
                share = advance
            }
        }
        let taken = min(share, gap)
        gap -= taken
        return advance - taken
    }
}

extension TabRuler {
    /// Each tab's advance on a line as the breaker placed it: the line's graphemes `ranges`
    /// in logical order (a truncated line's head and tail, `ellipsis` points between them),
    /// the line starting `start` along the ruler. An aligned stop's tab is what is left of its
    /// gap once the text after it (to the next tab or the line's end) has taken its share.
    /// Empty for a text without tabs.
    ///
    /// - Complexity: O(graphemes of the line) when the text has tabs, else O(1).
    func tabAdvances(
        _ ranges: [Range<Int32>], ellipsis: Double = 0, in text: PreparedText, start: Double, direction: TextDirection
    ) -> [Int32: Double] {
        guard text.tabFacts != nil else { return [:] }
        var out: [Int32: Double] = [:]
        var pen = TabPen()
        var x = 0.0
        var lastTab: Int32? = nil
        for (i, range) in ranges.enumerated() {
            if i > 0 { x += ellipsis }
            for g in range {
                if text.flags[Int(g)].contains(.tab) {
                    let advance = pen.tab(at: x, lineStart: start, self, direction: direction)
                    out[g] = advance
                    lastTab = g
                    x += advance
                } else {
                    let a = text.advances[Int(g)]
                    let moved = pen.gap > 0
                        ? pen.advance(a, isDecimalPoint: text.isDecimalPoint(g), centresDecimalPoint: centresDecimalPoint) : a
                    // What the gap took up narrows the tab before it.
                    if moved < a, let t = lastTab { out[t, default: 0] -= a - moved }
                    x += moved
                }
            }
        }
        return out
    }
}
