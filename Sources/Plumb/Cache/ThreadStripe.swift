#if canImport(Glibc)
import Glibc
#endif

/// Which of a power-of-two number of stripes the calling thread uses (its `pthread_t`,
/// Fibonacci-hashed): the result cache's hit counters and the resolved-style memo give each
/// thread one, so that threads rarely write the same lines.
///
/// - Complexity: O(1), a multiply and a shift.
/// - Thread safety: any thread; a thread always gets the same stripe.
enum ThreadStripe {
    /// The calling thread's stripe among `count` (a power of two ≤ 2⁴).
    @inline(__always)
    static func index(of count: Int) -> Int {
        let thread = UInt64(pthread_self())
        return Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60) & (count - 1)
    }
}
