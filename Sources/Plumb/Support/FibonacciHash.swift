/// Fibonacci hashing (Knuth, TAOCP §6.4): a key times 2⁶⁴/φ spreads nearby keys over the
/// product's high bits, so a table of 2ᵏ slots takes the product's top k bits as the slot.
/// What the direct-mapped memos, the palette's hash table and the thread stripes index by.
///
/// - Complexity: O(1), a multiply and a shift.
/// - Thread safety: pure functions; safe.
enum FibonacciHash {
    /// 2⁶⁴/φ rounded to an odd integer: the multiplier.
    static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The top `bits` bits (1...63) of `key` × ``multiplier``: a slot among `1 << bits`.
    @inline(__always)
    static func slot(_ key: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (key &* multiplier) &>> (64 - bits))
    }
}
