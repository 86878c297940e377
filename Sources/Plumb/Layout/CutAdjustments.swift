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

/// Counting and writing the sparse column (its regions in a prepared text's storage are
/// `PreparedStorage`'s ``PreparedStorage/cutMask``, ``PreparedStorage/cutGraphemes`` and
/// ``PreparedStorage/cutValues``).
extension CutAdjustments {
    /// How many of `dense` a sparse column stores.
    static func storedCount(_ dense: UnsafeBufferPointer<Float>) -> Int {
        dense.reduce(0) { $0 &+ ($1.bitPattern != 0 ? 1 : 0) }
    }

    /// Writes `dense`'s adjustments that are not +0 (``storedCount(_:)`` of them: the
    /// length of `graphemes` and `values`) as their mask, grapheme indexes and values.
    static func write(
        _ dense: UnsafeBufferPointer<Float>, mask maskOut: UnsafeMutablePointer<UInt64>,
        graphemes: UnsafeMutableBufferPointer<Int32>, values: UnsafeMutableBufferPointer<Float>
    ) {
        var k = 0
        var mask: UInt64 = 0
        for (g, v) in dense.enumerated() where v.bitPattern != 0 {
            graphemes[k] = Int32(g)
            values[k] = v
            mask |= 1 &<< UInt64(g & 63)
            k &+= 1
        }
        precondition(k == graphemes.count && k == values.count, "one grapheme and one value per stored adjustment")
        maskOut.pointee = mask
    }
}
