import Foundation
@testable import Plumb
import Synchronization
import Testing

/// An `async` batch started from the main actor runs on threads of its own and leaves the
/// main actor free: a 10 ms timer there keeps its time while the batch uses every core.
///
/// The timer is checked in a process of its own (this test binary, run again with only this
/// test): in the test run's process, other suites' synchronous batches hold Dispatch's
/// threads, which also run `Task.sleep`'s wake-ups, so a late tick there would say nothing
/// about the batch under test.
@Suite struct MainActorResponsivenessTests {
    /// The latest a main-actor tick may run after it was due (the bound).
    static let allowedLateness = Duration.milliseconds(50)
    /// Set in the process that checks the timer.
    static let aloneVariable = "PLUMB_MAIN_ACTOR_CHECK_ALONE"

    @Test func aTimerOnTheMainActorKeepsItsTimeDuringAnAsyncBatch() async throws {
        if AloneProcess.isThisProcess(Self.aloneVariable) {
            try await Self.checkTheTimer()
        } else {
            try AloneProcess.run(
                test: "MainActorResponsivenessTests/aTimerOnTheMainActorKeepsItsTimeDuringAnAsyncBatch",
                variable: Self.aloneVariable)
        }
    }

    /// Ticks every 10 ms on the main actor while a cold batch of attributed rows runs on all
    /// cores, and checks that no tick ran more than 50 ms late. Ticks count only while the
    /// batch runs, and there must be enough of them for the check to mean something.
    @MainActor
    static func checkTheTimer() async throws {
        let engine = TextMeasurer()
        let cells = OneFrontTests.richCells(2_000)
        let running = Atomic<Bool>(true)
        let batch = Task.detached {
            defer { running.store(false, ordering: .releasing) }
            return try await engine.heights(for: cells)
        }
        let clock = ContinuousClock()
        var lateness: [Duration] = []
        var due = clock.now
        while running.load(ordering: .acquiring) {
            due = due.advanced(by: .milliseconds(10))
            try await Task.sleep(until: due, clock: clock)
            guard running.load(ordering: .acquiring) else { break }
            lateness.append(clock.now - due)
            // A late tick does not push the ones after it late too.
            if clock.now > due { due = clock.now }
        }
        let heights = try await batch.value
        #expect(heights.count == cells.count)
        #expect(lateness.count >= 10, "the batch ended before the timer could be checked (\(lateness.count) ticks)")
        let worst = lateness.max() ?? .zero
        #expect(worst <= allowedLateness, "a main-actor tick ran \(worst) late during the batch")
    }
}
