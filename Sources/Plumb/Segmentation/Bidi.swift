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

    /// Whether `utf8` holds a character that can start a right-to-left run in a left-to-right
    /// paragraph: Hebrew, Arabic and the other right-to-left blocks (U+0590–U+08FF,
    /// U+FB1D–U+FDFF, U+FE70–U+FEFF, U+10800–U+10FFF, U+1E800–U+1EFFF) or an RLM, ALM, RLE,
    /// RLO or RLI. Without one, such a paragraph is a single left-to-right run (UAX #9: only
    /// strong R/AL characters, Arabic digits and these controls raise a level).
    ///
    /// - Complexity: O(bytes), no allocation.
    static func mayContainRightToLeft(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = utf8.count
        while i < n {
            let b = utf8[i]
            if b < 0xD6 { i += 1; continue }  // ASCII, continuation bytes, U+0000–U+057F
            var scalar: UInt32
            if b < 0xE0 {
                scalar = UInt32(b & 0x1F) << 6 | UInt32(i + 1 < n ? utf8[i + 1] & 0x3F : 0)
                i += 2
            } else if b < 0xF0 {
                guard i + 2 < n else { return false }
                scalar = UInt32(b & 0x0F) << 12 | UInt32(utf8[i + 1] & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F)
                i += 3
            } else {
                guard i + 3 < n else { return false }
                scalar = UInt32(b & 0x07) << 18 | UInt32(utf8[i + 1] & 0x3F) << 12 | UInt32(utf8[i + 2] & 0x3F) << 6
                    | UInt32(utf8[i + 3] & 0x3F)
                i += 4
            }
            switch scalar {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
                0x200F, 0x061C, 0x202B, 0x202E, 0x2067:
                return true
            default: continue
            }
        }
        return false
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
