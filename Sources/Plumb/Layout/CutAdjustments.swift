/// The chromium profile's cut adjustments of a prepared text (``PreparedText/cutAdjustments``),
/// stored sparsely: the graphemes whose adjustment is not +0 (bit for bit), ascending, and
/// their values. Every other grapheme reads 0. About 5 % of a text's graphemes have one (a
/// kerned or ligated cluster), so a dense column of one `Float` per grapheme would be mostly
/// zeros.
///
/// A collection of one value per grapheme when any is stored, else empty (what the line
/// breaker takes for all zeros). A 64-bit mask of the stored graphemes' indexes modulo 64
/// answers most reads of a zero without the search.
///
/// - Complexity: subscript O(1) for most graphemes without an adjustment, else O(log k) for
///   k stored adjustments.
/// - Thread safety: an immutable view into the owning `PreparedText`.
struct CutAdjustments: RandomAccessCollection, @unchecked Sendable {
    /// Bit `g % 64` set for every stored grapheme `g`.
    let mask: UInt64
    /// The graphemes with an adjustment, ascending (`stored` of them).
    let graphemes: UnsafePointer<Int32>?
    /// Their adjustments, in the same order.
    let values: UnsafePointer<Float>?
    let stored: Int
    /// The text's grapheme count when any adjustment is stored, else 0.
    let count: Int

    static let none = CutAdjustments(mask: 0, graphemes: nil, values: nil, stored: 0, count: 0)

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Grapheme `g`'s adjustment (0 when none is stored for it).
    @inline(__always)
    subscript(g: Int) -> Float {
        guard mask & (1 &<< UInt64(g & 63)) != 0, let graphemes, let values else { return 0 }
        var lo = 0, hi = stored
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if Int(graphemes[mid]) < g { lo = mid &+ 1 } else { hi = mid }
        }
        return lo < stored && Int(graphemes[lo]) == g ? values[lo] : 0
    }

}

/// The column's layout in a prepared text's storage: the mask, the grapheme indexes, the values.
extension CutAdjustments {
    /// The column of `stored` adjustments at `column` (as ``write(_:into:)`` lays it out: the
    /// mask, then the grapheme indexes, then the values) for a text of `graphemes`.
    init(column: UnsafeRawPointer, stored: Int, graphemes: Int) {
        guard stored > 0 else {
            self = .none
            return
        }
        let indexes = (column + 8).assumingMemoryBound(to: Int32.self)
        self.init(
            mask: column.load(as: UInt64.self), graphemes: indexes,
            values: UnsafeRawPointer(indexes + stored).assumingMemoryBound(to: Float.self), stored: stored,
            count: graphemes)
    }

    /// How many of `dense` a sparse column stores.
    static func storedCount(_ dense: UnsafeBufferPointer<Float>) -> Int {
        dense.reduce(0) { $0 &+ ($1.bitPattern != 0 ? 1 : 0) }
    }

    /// Bytes of a column of `stored` adjustments (none for none), 8-byte aligned.
    static func columnBytes(stored: Int) -> Int { stored == 0 ? 0 : 8 &+ stored &* 8 }

    /// Writes `dense`'s `stored` adjustments that are not +0 (``storedCount(_:)``) at `column`
    /// (``columnBytes(stored:)`` bytes, 8-byte aligned): their mask, grapheme indexes and values.
    static func write(_ dense: UnsafeBufferPointer<Float>, stored: Int, into column: UnsafeMutableRawPointer) {
        let graphemes = (column + 8).bindMemory(to: Int32.self, capacity: stored)
        let values = UnsafeMutableRawPointer(graphemes + stored).bindMemory(to: Float.self, capacity: stored)
        var k = 0
        var mask: UInt64 = 0
        for (g, v) in dense.enumerated() where v.bitPattern != 0 {
            graphemes[k] = Int32(g)
            values[k] = v
            mask |= 1 &<< UInt64(g & 63)
            k &+= 1
        }
        column.storeBytes(of: mask, as: UInt64.self)
    }
}
