/// The batch calls for Swift concurrency: the work runs on threads of the batch's own
/// (`OwnThreads`: the same chunks and workers as the synchronous calls, but not Dispatch's
/// root queues, which on Linux also run every task and `Task.sleep` of the process), never
/// blocking a thread of the cooperative pool; the calling task suspends until it is done, and
/// the main actor stays responsive while the batch uses every core.
///
/// - Cancellation: cancelling the task stops the batch between chunks (at most 256 cells
///   each, 64 for layouts; chunks already running finish) and the call throws
///   `CancellationError`; the partial results are discarded (cells measured so far stay in
///   the caches, so a retry is cheaper).
/// - Progress: an optional `progress` closure, called after each finished chunk with the
///   number of cells done so far, from a worker thread. Calls never overlap and the counts
///   only grow; keep it short (hop to the main actor yourself for UI).
extension TextMeasurer {
    /// Called after each finished chunk of a batch with the cells done so far.
    public typealias ProgressHandler = @Sendable (BatchProgress.Snapshot) -> Void

    /// Heights of many cells sharing one style and width; the `async` form of
    /// `heights(for:style:width:scale:workers:)`, with identical results.
    ///
    /// - Parameters:
    ///   - texts: the cells' texts.
    ///   - style: the style of every cell (resolved once).
    ///   - width: the layout width of every cell.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core).
    ///   - progress: called after each finished chunk (see the extension's notes).
    /// - Throws: `CancellationError` if the task is cancelled before the batch finishes.
    /// - Complexity: as the synchronous call, plus one Dispatch hop.
    /// - Thread safety: safe from any task or thread, concurrently.
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: ProgressHandler? = nil
    ) async throws -> [TextMeasurement] {
        try await BatchRuns.onWorkers(reporting: progress) {
            try self.heights(for: texts, style: style, width: width, scale: scale, workers: workers, progress: $0)
        }
    }

    /// Heights of cells (plain or attributed) with their own styles and widths; the `async` form of
    /// `heights(for:scale:workers:)`, with identical results.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before the batch finishes.
    /// - Complexity and thread safety: as `heights(for:style:width:scale:workers:progress:)`.
    public func heights(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: ProgressHandler? = nil
    ) async throws -> [TextMeasurement] {
        try await BatchRuns.onWorkers(reporting: progress) {
            try self.heights(for: cells, scale: scale, workers: workers, progress: $0)
        }
    }

    /// Layouts of many cells, plain or attributed; the `async` form of `layouts(for:scale:workers:)`, with
    /// identical results.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before the batch finishes.
    /// - Complexity: as the synchronous call (chunks of at most 64 cells).
    /// - Thread safety: safe from any task or thread, concurrently.
    public func layouts(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: ProgressHandler? = nil
    ) async throws -> [TextLayout] {
        try await BatchRuns.onWorkers(reporting: progress) {
            try self.layouts(for: cells, scale: scale, workers: workers, progress: $0)
        }
    }

    /// Row heights of a list with one style and width; the `async` form of
    /// `listHeights(for:style:width:scale:workers:progress:)`.
    ///
    /// - Throws: `CancellationError` if the task is cancelled; `DuplicateRowID` if an id
    ///   appears twice.
    /// - Complexity and thread safety: as `heights(for:style:width:scale:workers:progress:)`,
    ///   plus O(n) to build the list.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [(id: ID, text: String)], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: ProgressHandler? = nil
    ) async throws -> ListHeights<ID> {
        try await BatchRuns.onWorkers(reporting: progress) {
            try self.listHeights(for: rows, style: style, width: width, scale: scale, workers: workers, progress: $0)
        }
    }

    /// Row heights of a list of `ListRow`s (own styles, widths and extra heights); the `async`
    /// form of `listHeights(for:scale:workers:progress:)`.
    ///
    /// - Throws: `CancellationError` if the task is cancelled; `DuplicateRowID` if an id
    ///   appears twice.
    /// - Complexity and thread safety: as `heights(for:scale:workers:progress:)`, plus O(n)
    ///   to build the list.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [ListRow<ID>], scale: Double = 2, workers: Int? = nil, progress: ProgressHandler? = nil
    ) async throws -> ListHeights<ID> {
        try await BatchRuns.onWorkers(reporting: progress) {
            try self.listHeights(for: rows, scale: scale, workers: workers, progress: Optional($0))
        }
    }
}
