import Dispatch
@testable import Plumb
import Synchronization
import Testing

/// `StripedMemo`: the last value per stripe of threads, forgotten by epoch. The engine keeps
/// its last resolved styles in one (`TextMeasurer.resolve(_:)`).
@Suite struct StripedMemoTests {
    /// Counts `make` calls.
    final class Maker: Sendable {
        let calls = Atomic<Int>(0)
        func make(_ key: Int) -> Int {
            calls.add(1, ordering: .relaxed)
            return key &* 31
        }
    }

    @Test func aRepeatedKeyIsMadeOnce() {
        let memo = StripedMemo<Int, Int>()
        let maker = Maker()
        for _ in 0..<3 { #expect(memo.value(for: 7, make: maker.make) == 7 * 31) }
        #expect(maker.calls.load(ordering: .relaxed) == 1)
        // One entry per stripe: another key replaces it.
        #expect(memo.value(for: 8, make: maker.make) == 8 * 31)
        #expect(memo.value(for: 7, make: maker.make) == 7 * 31)
        #expect(maker.calls.load(ordering: .relaxed) == 3)
    }

    @Test func invalidationForgetsEveryValue() {
        let memo = StripedMemo<Int, Int>()
        let maker = Maker()
        _ = memo.value(for: 1, make: maker.make)
        memo.invalidate()
        _ = memo.value(for: 1, make: maker.make)
        #expect(maker.calls.load(ordering: .relaxed) == 2)
    }

    /// A value made while an invalidation happens (the epoch is read before making) is never
    /// served after it.
    @Test func aValueMadeDuringAnInvalidationIsNotKept() {
        let memo = StripedMemo<Int, Int>()
        let maker = Maker()
        _ = memo.value(for: 5) { key in
            memo.invalidate()
            return maker.make(key)
        }
        _ = memo.value(for: 5, make: maker.make)
        #expect(maker.calls.load(ordering: .relaxed) == 2)
    }

    @Test func concurrentLookupsGetTheirKeysValues() {
        let memo = StripedMemo<Int, Int>()
        let maker = Maker()
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<2_000 {
                let key = (i / 3 + worker) % 5
                if memo.value(for: key, make: maker.make) != key &* 31 { wrong.add(1, ordering: .relaxed) }
                if i % 500 == 0 { memo.invalidate() }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(maker.calls.load(ordering: .relaxed) < 8 * 2_000)
    }

    /// The engine's memo: the same style resolves to the same fingerprints, and
    /// `invalidate(style:)` gives it new ones at once.
    @Test func resolvingAStyleAgainFollowsInvalidation() {
        let m = TextMeasurer()
        let first = m.resolve(style15())
        #expect(m.resolve(style15()).layoutFingerprint == first.layoutFingerprint)
        m.invalidate(style: style15())
        #expect(m.resolve(style15()).layoutFingerprint != first.layoutFingerprint)
        #expect(m.resolve(style15(["Noto Serif"])).layoutFingerprint != first.layoutFingerprint)
    }
}
