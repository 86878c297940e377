internal import CSupport
import Synchronization

/// Plumb's lock: `Synchronization.Mutex`, plus the annotations that let ThreadSanitizer see it.
///
/// On Linux `Synchronization.Mutex` locks with futex calls inside the (uninstrumented)
/// standard library, so ThreadSanitizer sees no happens-before edge between two critical
/// sections and reports every access to locked state as a race. This wrapper tells TSan
/// about each acquire and release (`__tsan_acquire` / `__tsan_release` on the lock's `tag`,
/// a unique address). Without TSan linked those entry points are null (weak symbols,
/// `CSupport`) and each annotation is one predictable branch, so the lock costs what
/// `Synchronization.Mutex` costs.
///
/// Every lock in the engine is a `Lock`: a test (`EngineLockRuleTests`) fails on a
/// `Synchronization.Mutex` anywhere else in the library, so each lock is visible to TSan.
///
/// - Thread safety: as `Synchronization.Mutex` (not recursive; no fairness guarantee).
struct Lock<Value: ~Copyable>: ~Copyable {
    /// ThreadSanitizer's synchronisation object for this lock: a unique address, fixed for
    /// the lock's life (the protected value's own address cannot be taken before the access
    /// that TSan must see as ordered after the acquire).
    ///
    /// Declared before `base` so it lies next to the futex word: every `withLock` reads it,
    /// and after a large protected value (a cache shard's table header and counters, ~100
    /// bytes) it would sit on a cache line of its own, one more miss per locked look-up.
    private let tag: UnsafeMutableRawPointer
    private let base: Synchronization.Mutex<Value>

    /// A lock protecting `initialValue`.
    init(_ initialValue: consuming sending Value) {
        base = Synchronization.Mutex(initialValue)
        tag = .allocate(byteCount: 1, alignment: 1)
    }

    deinit { tag.deallocate() }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Complexity: one uncontended futex-word compare-and-swap each way, plus two branches
    ///   on null weak symbols (timings: Decisions.md, "Timings from code comments").
    @inline(__always)
    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let tag = self.tag
        return try base.withLock { (value: inout sending Value) throws(E) -> sending Result in
            plumb_tsan_acquire(tag)
            defer { plumb_tsan_release(tag) }
            return try body(&value)
        }
    }
}

// The value is reached only inside `withLock`, under the mutex; `tag` is fixed for the lock's life.
extension Lock: @unchecked Sendable where Value: ~Copyable {}
