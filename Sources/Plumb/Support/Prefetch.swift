internal import CSupport

/// Cache prefetch hints, for loops that will soon read memory written long enough ago to have
/// left the cache (the batch engine's misses: Decisions.md, "Lines per locked look-up, copies
/// in the CLI, a prefetch").
enum Prefetch {
    /// The size of a cache line on x86-64 and most ARM64 cores (a power of two).
    static let cacheLineBytes: UInt = 64

    /// Asks the CPU to bring in, for reading and writing, every cache line of the `bytes`
    /// bytes at `address` (a record or slot that may straddle lines, a shard object).
    ///
    /// - Complexity: O(bytes / 64) `prefetcht0` instructions on x86-64; hints that never
    ///   fault, so any address may be given, and that change no result.
    @inline(__always)
    static func forWrite(_ address: UnsafeRawPointer, bytes: Int) {
        let first = UInt(bitPattern: address) & ~(cacheLineBytes - 1)
        let last = UInt(bitPattern: address) &+ UInt(max(1, bytes) &- 1)
        var line = first
        repeat {
            plumb_prefetch_for_write(UnsafeRawPointer(bitPattern: line))
            line &+= cacheLineBytes
        } while line <= last
    }
}
