internal import CICUShim

/// The parts of the Unicode Bidirectional Algorithm (UAX #9) Plumb needs, through ICU.
///
/// Line breaking and heights do not depend on direction (a line's width is the sum of its
/// advances in any order); direction decides where a line sits in its box (natural
/// alignment) and the order in which its runs are drawn.
///
/// - Thread safety: every function is safe from any thread.
enum Bidi {
    /// A paragraph's base direction (rules P2–P3: its first strong character outside
    /// isolates), or `nil` when it has none.
    ///
    /// - Complexity: O(bytes up to the first strong character).
    static func firstStrongDirection(_ utf8: UnsafeBufferPointer<UInt8>) -> TextDirection? {
        guard let base = utf8.baseAddress, !utf8.isEmpty else { return nil }
        switch plumb_bidi_first_strong(base, Int32(utf8.count)) {
        case 0: return .leftToRight
        case 1: return .rightToLeft
        default: return nil
        }
    }

    /// One run of a line in visual order: a UTF-8 byte range of the line and its direction.
    struct VisualRun: Hashable, Sendable {
        var bytes: Range<Int>
        var direction: TextDirection
    }

    /// The runs of one line from left to right (rules up to L2), byte ranges relative to
    /// `utf8`. On an ICU error the whole line is one run in the paragraph's direction.
    ///
    /// - Complexity: O(bytes); allocates ICU state per call (drawing only, not measuring).
    static func visualRuns(_ utf8: UnsafeBufferPointer<UInt8>, paragraph: TextDirection) -> [VisualRun] {
        guard let base = utf8.baseAddress, !utf8.isEmpty else { return [] }
        let capacity = utf8.count + 1
        var starts = [Int32](repeating: 0, count: capacity)
        var ends = [Int32](repeating: 0, count: capacity)
        var rtl = [UInt8](repeating: 0, count: capacity)
        var status: Int32 = 0
        let n = plumb_bidi_visual_runs(base, Int32(utf8.count), paragraph == .rightToLeft ? 1 : 0,
                                       &starts, &ends, &rtl, Int32(capacity), &status)
        guard n >= 0 else { return [VisualRun(bytes: 0..<utf8.count, direction: paragraph)] }
        return (0..<Int(n)).map {
            VisualRun(bytes: Int(starts[$0])..<Int(ends[$0]), direction: rtl[$0] == 1 ? .rightToLeft : .leftToRight)
        }
    }
}
