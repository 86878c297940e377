import Synchronization

/// Hands each thread its own `TextPreparer` (ICU iterator clone + HarfBuzz buffer + scratch).
///
/// A preparer is taken for the duration of one call and returned afterwards, so at most as
/// many exist as threads ever measured at once. Clones come from a prototype iterator
/// (`ubrk_clone` instead of `ubrk_open`, about a tenth of the cost (timings: Decisions.md, "Timings from code comments")).
///
/// - Thread safety: safe from any thread; a preparer is used by one thread at a time.
final class PreparerPool: Sendable {
    private struct State: ~Copyable {
        var prototype: BreakIterators
        var idle: [TextPreparer]
    }

    private let state: Lock<State>
    private let segmentCache: SegmentCache
    /// `TextPreparer.mergesWordRuns` of the preparers (false only in tests).
    private let mergesWordRuns: Bool

    init(locale: String, segmentCache: SegmentCache, mergesWordRuns: Bool = true) {
        self.mergesWordRuns = mergesWordRuns
        guard let prototype = BreakIterators(locale: locale) ?? BreakIterators(locale: "") else {
            fatalError("ICU could not open a line break iterator")
        }
        self.segmentCache = segmentCache
        self.state = Lock(State(prototype: prototype, idle: []))
    }

    /// Runs `body` with a preparer no other thread is using.
    func withPreparer<R>(_ body: (TextPreparer) throws -> R) rethrows -> R {
        let preparer = take()
        defer { give(preparer) }
        return try body(preparer)
    }

    private func take() -> TextPreparer {
        let reused: TextPreparer? = state.withLock { $0.idle.popLast() }
        if let reused { return reused }
        let iterators = state.withLock { $0.prototype.clone() }
        guard let iterators else { fatalError("ICU could not clone a break iterator") }
        return TextPreparer(iterators: iterators, segmentCache: segmentCache, mergesWordRuns: mergesWordRuns)
    }

    private func give(_ preparer: TextPreparer) {
        state.withLock { $0.idle.append(preparer) }
    }
}
