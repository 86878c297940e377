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
    /// The calling thread's stripe among `count` (a power of two ≤ 2^``maximumStripeBits``).
    @inline(__always)
    static func index(of count: Int) -> Int {
        let thread = UInt64(pthread_self())
        return FibonacciHash.slot(thread, bits: maximumStripeBits) & (count - 1)
    }

    /// log₂ of the most stripes `index(of:)` spreads threads over (16).
    static let maximumStripeBits = 4
}
