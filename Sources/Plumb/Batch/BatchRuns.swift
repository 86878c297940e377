import Dispatch

/// How a batch call runs: synchronously without a progress object (so it cannot be cancelled),
/// or from `async` code on threads of its own with the task's cancellation wired to its
/// `BatchProgress`.
enum BatchRuns {
    /// Runs a batch that is given no progress object, so cannot be cancelled and never throws.
    static func uncancellable<T>(_ batch: (BatchProgress?) throws -> T) -> T {
        do { return try batch(nil) } catch { preconditionFailure("a batch without progress threw \(error)") }
    }

    /// Runs `batch` on a thread of its own (its helpers too) and resumes the caller with its
    /// result; the task's cancellation cancels the batch's `BatchProgress`. Without a thread
    /// to start, it runs on Dispatch at the task's priority, as the synchronous calls do.
    static func onWorkers<T: Sendable>(
        reporting report: (@Sendable (BatchProgress.Snapshot) -> Void)?, _ batch: @escaping @Sendable (BatchProgress) throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        let progress = BatchProgress(reporting: report, helpers: .own)
        let fallback = DispatchQueue.global(qos: dispatchQoS(Task.currentPriority))
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let run: @Sendable () -> Void = {
                    do {
                        continuation.resume(returning: try batch(progress))
                    } catch is BatchCancelled {
                        continuation.resume(throwing: CancellationError())
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                if !OwnThreads.detach(run) { fallback.async(execute: run) }
            }
        } onCancel: {
            progress.cancel()
        }
        // Cancelled after the last chunk: still a cancelled call.
        if progress.isCancelled { throw CancellationError() }
        return result
    }

    /// The Dispatch quality of service matching a task priority.
    static func dispatchQoS(_ priority: TaskPriority) -> DispatchQoS.QoSClass {
        switch priority {
        case .high: .userInitiated
        case .medium: .default
        case .low: .utility
        case .background: .background
        default: priority > .high ? .userInteractive : .default
        }
    }
}
