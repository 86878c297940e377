internal import CSupport

/// Cache prefetch hints, for loops that will soon read memory written long enough ago to have
/// left the cache (the batch engine's misses: Decisions.md, "Lines per locked look-up, copies
/// in the CLI, a prefetch").
enum Prefetch {
    /// Asks the CPU to bring the cache line holding `address` in for reading and writing.
    ///
    /// - Complexity: O(1), one instruction (`prefetcht0` on x86-64); a hint that never
    ///   faults, so any address may be given, and that changes no result.
    @inline(__always)
    static func forWrite(_ address: UnsafeRawPointer) {
        plumb_prefetch_for_write(address)
    }
}
