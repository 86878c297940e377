import Synchronization

/// Progress and cancellation of a long batch: poll `completed` from any thread (e.g. a UI
/// timer), call `cancel()` to abandon stale work.
///
/// - Thread safety: all members are atomic.
public final class BatchProgress: Sendable {
    /// One reading of a batch's progress, as the `async` batch calls report it.
    public struct Snapshot: Hashable, Sendable {
        /// Cells finished so far.
        public var completed: Int
        /// Cells in the batch.
        public var total: Int
        /// `completed / total` (0 for an empty batch).
        public var fractionCompleted: Double { total == 0 ? 0 : Double(completed) / Double(total) }

        /// A reading of `completed` of `total` cells.
        public init(completed: Int, total: Int) {
            self.completed = completed
            self.total = total
        }
    }

    private let done = Atomic<Int>(0)
    private let total = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    /// Called with each new, larger count (serialised: never concurrently, never decreasing).
    private let reporter: Lock<Reporter?>
    private let reports: Bool
    /// Where the batch's helper threads come from: its own for the `async` calls.
    let helpers: BatchHelpers

    private struct Reporter {
        var last = 0
        let report: @Sendable (Snapshot) -> Void
    }

    /// A progress object to pass to a synchronous batch call and poll.
    public convenience init() { self.init(reporting: nil) }

    /// A progress object that also calls `report` after each finished chunk of cells.
    init(reporting report: (@Sendable (Snapshot) -> Void)?, helpers: BatchHelpers = .dispatch) {
        reporter = Lock(report.map { Reporter(report: $0) })
        reports = report != nil
        self.helpers = helpers
    }

    /// Cells finished so far.
    public var completed: Int { done.load(ordering: .relaxed) }
    /// Cells in the batch (known once it starts).
    public var totalCount: Int { total.load(ordering: .relaxed) }
    /// `completed / totalCount` (0 before the batch starts or for an empty batch).
    public var fractionCompleted: Double {
        let t = totalCount
        return t == 0 ? 0 : Double(completed) / Double(t)
    }
    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    /// Asks the batch to stop: chunks not yet started never run, and the batch call throws.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    func start(total n: Int) {
        total.store(n, ordering: .relaxed)
        done.store(0, ordering: .relaxed)
    }

    func add(_ n: Int) {
        let now = done.add(n, ordering: .relaxed).newValue
        guard reports else { return }
        let total = totalCount
        reporter.withLock { r in
            guard let last = r?.last, now > last else { return }
            r?.last = now
            r?.report(Snapshot(completed: now, total: total))
        }
    }
}
