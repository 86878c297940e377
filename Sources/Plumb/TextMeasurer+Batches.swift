import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One cell of a heterogeneous batch: a text, its style and its layout width.
public struct Cell: Hashable, Sendable {
    /// The cell's text.
    public var text: String
    /// Font, paragraph style and drawing options.
    public var style: TextStyle
    /// The layout width in points (+∞ = unconstrained; NaN or ≤ 0 = unmeasurable, answered
    /// with the flagged fallback height).
    public var width: Double

    /// A cell of `text` laid out with `style` in `width` points.
    public init(text: String, style: TextStyle, width: Double) {
        self.text = text
        self.style = style
        self.width = width
    }
}

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
    private let reporter: Mutex<Reporter?>
    private let reports: Bool

    private struct Reporter {
        var last = 0
        let report: @Sendable (Snapshot) -> Void
    }

    /// A progress object to pass to a synchronous batch call and poll.
    public convenience init() { self.init(reporting: nil) }

    /// A progress object that also calls `report` after each finished chunk of cells.
    init(reporting report: (@Sendable (Snapshot) -> Void)?) {
        reporter = Mutex(report.map { Reporter(report: $0) })
        reports = report != nil
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

/// Thrown when a batch was cancelled through its `BatchProgress`.
public struct BatchCancelled: Error, Sendable {
    /// The error a cancelled batch throws.
    public init() {}
}

extension TextMeasurer {
    /// Heights of many cells sharing one style and width, measured on all cores.
    ///
    /// Duplicates are measured once; results come back in input order and are bit-for-bit
    /// identical to measuring each cell alone, at any worker count. It cannot fail and does
    /// not throw; the overload taking a `BatchProgress` can be cancelled and throws.
    ///
    /// - Parameters:
    ///   - texts: the cells' texts.
    ///   - style: the style of every cell (resolved once).
    ///   - width: the layout width of every cell.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    /// - Complexity: O(total text length); Dispatch `concurrentPerform` over guided chunks of
    ///   at most 256 cells (``Schedule``), each worker with its own ICU iterators and HarfBuzz
    ///   buffer.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done
    ///   (from Swift concurrency, use the `async` overload).
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2, workers: Int? = nil
    ) -> [TextMeasurement] {
        Self.uncancellable { try heights(for: texts, style: style, width: width, scale: scale, workers: workers, progress: $0) }
    }

    /// Heights of many cells sharing one style and width, with progress and cancellation.
    ///
    /// - Parameter progress: polled for progress from any thread; `progress.cancel()` stops
    ///   the batch between chunks.
    /// - Throws: `BatchCancelled` if `progress` was cancelled (the partial results are
    ///   discarded; what was measured stays cached).
    /// - Complexity and thread safety: as `heights(for:style:width:scale:workers:)`.
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress
    ) throws -> [TextMeasurement] {
        try heights(for: texts, style: style, width: width, scale: scale, workers: workers, progress: Optional(progress))
    }

    func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double, workers: Int?, progress: BatchProgress?
    ) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        let resolved = resolve(style)
        let cacheable = resolved.isCacheable, fingerprint = resolved.layoutFingerprint
        var results = try texts.withUnsafeBufferPointer { buffer in
            // Read through a pointer: the key pass borrows each text instead of retaining it
            // (a retain writes the string's header, a line the other core then has to fetch).
            nonisolated(unsafe) let texts = buffer
            return try run(count: texts.count, workers: workers, progress: progress,
                           key: { i in Self.cellKeys(texts[i], cacheable: cacheable, fingerprint: fingerprint, width: width, scale: scale) },
                           measure: { i, k in self.measure(texts[i], style: resolved, width: width, scale: scale, keys: k, resultMissed: true) })
        }
        if cacheable && !resolved.warnings.isEmpty {
            Self.addStyleWarnings(to: &results) { _ in resolved.warnings }
        }
        return results
    }

    /// Gives cache hits of a style with warnings (a skipped family) those warnings: the first
    /// pass answers hits without touching them. A measured result always has its style's
    /// warnings, so a result without any is a hit. O(n), only for styles with warnings.
    private static func addStyleWarnings(
        to results: inout [TextMeasurement], of cell: (Int) -> [MeasureWarning]
    ) {
        for i in results.indices where results[i].warnings.isEmpty {
            let warnings = cell(i)
            if !warnings.isEmpty { results[i].warnings = warnings }
        }
    }

    /// Heights of cells with their own styles and widths, measured on all cores. Each distinct
    /// style is resolved once; results are in input order, identical to measuring each alone.
    ///
    /// - Parameters:
    ///   - cells: texts with their styles and widths.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    /// - Complexity: O(total text length) plus O(cells) to group the styles.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func heights(for cells: [Cell], scale: Double = 2, workers: Int? = nil) -> [TextMeasurement] {
        Self.uncancellable { try heights(for: cells, scale: scale, workers: workers, progress: $0) }
    }

    /// Heights of cells with their own styles and widths, with progress and cancellation.
    ///
    /// - Throws: `BatchCancelled` if `progress` was cancelled.
    /// - Complexity and thread safety: as `heights(for:scale:workers:)`.
    public func heights(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: BatchProgress
    ) throws -> [TextMeasurement] {
        try heights(for: cells, scale: scale, workers: workers, progress: Optional(progress))
    }

    func heights(for cells: [Cell], scale: Double, workers: Int?, progress: BatchProgress?) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        var resolvedByStyle: [TextStyle: Int] = [:]
        var resolvedStyles: [ResolvedStyle] = []
        var styleIndex = [Int](repeating: 0, count: cells.count)
        // The cells are read in place: a `for (i, cell)` loop copied each one (its text and
        // every string and array of its style retained and released, on the calling thread
        // before the workers start).
        cells.withUnsafeBufferPointer { cells in
            for i in cells.indices {
                // A run of cells of one style (the usual batch) compares with the cell before:
                // an equality test (shared strings compare by identity) instead of hashing the
                // whole style, ~2,400 instructions a cell.
                if i > 0, cells[i].style == cells[i - 1].style {
                    styleIndex[i] = styleIndex[i - 1]
                } else if let k = resolvedByStyle[cells[i].style] {
                    styleIndex[i] = k
                } else {
                    resolvedByStyle[cells[i].style] = resolvedStyles.count
                    styleIndex[i] = resolvedStyles.count
                    resolvedStyles.append(resolve(cells[i].style))
                }
            }
        }
        let styles = resolvedStyles
        let index = styleIndex
        // Each cell borrows its style from an immutable box reached without reference counting:
        // a copy of a resolved style (what reading it from an array passes) retains its cascade,
        // families and warnings — objects every worker shares, so both cores would write their
        // reference counts cell after cell.
        let boxes = styles.map(ResolvedStyleBox.init)
        let boxRefs = boxes.map { Unmanaged.passUnretained($0) }
        var results = try withExtendedLifetime(boxes) {
            try run(count: cells.count, workers: workers, progress: progress,
                    key: { i in
                        boxRefs[index[i]]._withUnsafeGuaranteedRef {
                            self.cellKeys(cells[i].text, style: $0.style, width: cells[i].width, scale: scale)
                        }
                    },
                    measure: { i, k in
                        boxRefs[index[i]]._withUnsafeGuaranteedRef {
                            self.measure(cells[i].text, style: $0.style, width: cells[i].width, scale: scale, keys: k, resultMissed: true)
                        }
                    })
        }
        if styles.contains(where: { $0.isCacheable && !$0.warnings.isEmpty }) {
            Self.addStyleWarnings(to: &results) { i in styles[index[i]].isCacheable ? styles[index[i]].warnings : [] }
        }
        return results
    }

    /// Layouts (lines, rects, baselines) of many cells on all cores, in input order; each is
    /// what `layout(_:style:width:scale:)` returns for its cell.
    ///
    /// - Parameters:
    ///   - cells: texts with their styles and widths.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 lays out on the calling thread.
    /// - Complexity: O(total text length), guided chunks of at most 64 cells over `workers`
    ///   threads.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func layouts(for cells: [Cell], scale: Double = 2, workers: Int? = nil) -> [TextLayout] {
        Self.uncancellable { try layouts(for: cells, scale: scale, workers: workers, progress: $0) }
    }

    /// `layouts(for:scale:workers:)`, reporting to `progress` after each chunk and stopping
    /// between chunks once it is cancelled (`nil`: neither).
    func layouts(for cells: [Cell], scale: Double, workers: Int?, progress: BatchProgress?) throws -> [TextLayout] {
        reloadFontsIfChangedPeriodically()
        progress?.start(total: cells.count)
        var out = [TextLayout?](repeating: nil, count: cells.count)
        let completed = out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            return Self.parallel(Schedule(count: cells.count, workers: workers ?? ProcessInfoLite.activeProcessorCount, grain: 1, maxChunk: 64)) { range in
                if progress?.isCancelled == true { return false }
                for i in range {
                    buffer[i] = self.layout(cells[i].text, style: cells[i].style, width: cells[i].width, scale: scale)
                }
                progress?.add(range.count)
                return true
            }
        }
        guard completed, progress?.isCancelled != true else { throw BatchCancelled() }
        return out.map { $0! }
    }

    /// Row heights with prefix offsets for a virtualized list, measured as a batch (one style
    /// and width for every row; `listHeights(for:scale:workers:progress:)` takes `ListRow`s
    /// with their own styles, widths and extra heights).
    ///
    /// - Parameters:
    ///   - rows: ids (unique) and texts in display order.
    ///   - progress: optional progress/cancellation object.
    /// - Throws: `BatchCancelled` if `progress` was cancelled; `DuplicateRowID` if an id
    ///   appears twice (a feed whose pages overlap), rather than trapping.
    /// - Complexity: the batch's, plus O(n) to build the list.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [(id: ID, text: String)], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> ListHeights<ID> {
        let m = try heights(for: rows.map(\.text), style: style, width: width, scale: scale, workers: workers, progress: progress)
        return try ListHeights(validating: zip(rows, m).map { (id: $0.0.id, height: $0.1.height) })
    }

    /// Runs a batch that is given no progress object, so cannot be cancelled and never throws.
    static func uncancellable<T>(_ batch: (BatchProgress?) throws -> T) -> T {
        do { return try batch(nil) } catch { preconditionFailure("a batch without progress threw \(error)") }
    }

    /// The batch engine: keys and tier-2 hits in parallel → first occurrence of each missing
    /// key → measure the unique misses in parallel → copy to duplicates.
    ///
    /// Memory: the n results, plus per-chunk lists of the misses' keys. A warm batch allocates
    /// nothing but its results: no array of n keys (72 bytes per cell) whose fresh pages every
    /// batch faults in (measured: Decisions.md, "Timings from code comments").
    private func run(
        count n: Int, workers: Int?, progress: BatchProgress?,
        key: @Sendable (Int) -> CellKeys?,
        measure: @Sendable (_ cell: Int, _ keysThatMissed: CellKeys?) -> TextMeasurement
    ) throws -> [TextMeasurement] {
        progress?.start(total: n)
        guard n > 0 else { return [] }
        let workerCount = max(1, workers ?? ProcessInfoLite.activeProcessorCount)
        let placeholder = TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: [])
        let cache = resultCache
        let schedule = Schedule(count: n, workers: workerCount, grain: 16, maxChunk: 256)

        // 1. Keys and tier-2 hits (parallel). A warm batch is answered here. Results are left
        //    uninitialised and each element is written once by the worker that claimed it;
        //    a chunk's misses go to a list of its own (slot = chunk start / grain), so the
        //    next pass sees them in input order. Only plain values cross threads: results of
        //    cache hits hold no references (no warnings), so workers never contend on
        //    reference counts.
        let lists = UnsafeMutableBufferPointer<MissList>.allocate(capacity: schedule.slots)
        lists.initialize(repeating: MissList(base: nil, count: 0))
        defer {
            for list in lists { list.base?.deallocate() }
            lists.deallocate()
        }
        var results = [TextMeasurement](unsafeUninitializedCapacity: n) { resultBuffer, resultCount in
            nonisolated(unsafe) let out = resultBuffer.baseAddress!
            nonisolated(unsafe) let lists = lists
            _ = Self.parallel(schedule) { range in
                var hits = 0
                var misses: UnsafeMutablePointer<Miss>? = nil
                var missCount = 0
                for i in range {
                    let k = key(i)
                    if let k, let hit = cache.value(for: k.keys.result, counted: false) {
                        (out + i).initialize(to: Self.measurement(hit, scale: k.scale))
                        hits += 1
                    } else {
                        (out + i).initialize(to: placeholder)
                        if misses == nil { misses = .allocate(capacity: range.count) }
                        (misses! + missCount).initialize(to: Miss(keys: k, index: Int32(i)))
                        missCount += 1
                    }
                }
                lists[schedule.slot(of: range)] = MissList(base: misses, count: missCount)
                progress?.add(hits)
                // Misses are counted once duplicates are known (below): a key measured once
                // is one miss, however often the batch holds it.
                cache.recordLookups(hits: hits, misses: 0)
                return true
            }
            resultCount = n
        }

        // 2. The misses: the first of every distinct key (sequential, open addressing,
        //    no hashing), so duplicates inside the batch are measured once.
        let missCount = lists.reduce(0) { $0 + $1.count }
        guard missCount > 0 else { return results }
        var firstMisses = FirstMissTable(capacity: missCount)
        var unique: [UnsafePointer<Miss>] = []
        unique.reserveCapacity(missCount)
        var duplicates: [(cell: Int32, first: Int32)] = []
        for list in lists {
            for m in 0..<list.count {
                let miss = UnsafePointer(list.base! + m)
                if let first = firstMisses.first(withKeyOf: miss) {
                    duplicates.append((miss.pointee.index, first.pointee.index))
                } else {
                    unique.append(miss)
                }
            }
        }

        // Counters tell what was measured: one miss per distinct key, and a duplicate of a key
        // measured in this batch is a hit (cells without keys never touch the cache).
        let keyedUnique = unique.reduce(0) { $0 + ($1.pointee.keys == nil ? 0 : 1) }
        cache.recordLookups(hits: duplicates.count, misses: keyedUnique)

        // 3. Measure the unique misses (parallel) into the preallocated buffer. The first pass
        //    already missed tier 2 for these keys, so the measurement starts at the width range.
        let completed = results.withUnsafeMutableBufferPointer { buffer -> Bool in
            nonisolated(unsafe) let out = buffer
            return unique.withUnsafeBufferPointer { order in
                nonisolated(unsafe) let order = order
                return Self.parallel(Schedule(count: order.count, workers: workerCount, grain: 4, maxChunk: 256)) { range in
                    if progress?.isCancelled == true { return false }
                    for k in range {
                        Self.prefetchMiss(after: k, in: range, order: order, results: out, cache: cache)
                        let miss = order[k].pointee
                        out[Int(miss.index)] = measure(Int(miss.index), miss.keys)
                    }
                    progress?.add(range.count)
                    return true
                }
            }
        }
        guard completed, progress?.isCancelled != true else { throw BatchCancelled() }
        for (cell, first) in duplicates {
            results[Int(cell)] = results[Int(first)]
        }
        progress?.add(duplicates.count)
        return results
    }

    /// Prefetches, while miss `k` is measured, what the next misses will read that the
    /// measurements since the batch's first pass have pushed out of cache, in stages so that
    /// each step reads only lines an earlier step asked for:
    /// - miss `k + 3`: its 72-byte record (both lines it may span);
    /// - miss `k + 2`: the result-table shards of its result and width-range keys;
    /// - miss `k + 1`: those keys' home slots (the shard's mask gives the address) and its
    ///   result slot in `results`.
    /// Before these hints, the record and result-slot loads were ~90 % of this loop's own
    /// samples and the result table's two insertions per cell spent 82 % of theirs on the
    /// slot (`perf annotate`, 40,000 rows).
    ///
    /// - Complexity: O(1): up to eleven prefetch hints and three record reads; no effect on
    ///   any result.
    @inline(__always)
    private static func prefetchMiss(
        after k: Int, in range: Range<Int>, order: UnsafeBufferPointer<UnsafePointer<Miss>>,
        results: UnsafeMutableBufferPointer<TextMeasurement>, cache: ResultCache
    ) {
        if k + 3 < range.upperBound {
            Prefetch.forWrite(order[k + 3], bytes: MemoryLayout<Miss>.size)
        }
        if k + 2 < range.upperBound, let keys = order[k + 2].pointee.keys {
            cache.prefetchShard(of: keys.keys.result)
            cache.prefetchShard(of: keys.keys.range)
        }
        if k + 1 < range.upperBound {
            let next = order[k + 1].pointee
            if let keys = next.keys {
                cache.prefetchHomeSlot(of: keys.keys.result)
                cache.prefetchHomeSlot(of: keys.keys.range)
            }
            Prefetch.forWrite(results.baseAddress! + Int(next.index), bytes: MemoryLayout<TextMeasurement>.size)
        }
    }

    /// How a parallel loop over 0..<count hands out chunks: guided self-scheduling. Each
    /// claim takes the remaining cells ÷ (2 × workers), rounded down to a multiple of `grain`,
    /// between `grain` and `maxChunk`: few claims while much is left, small ones at the end,
    /// so a worker that Dispatch starts late still finishes with the others.
    ///
    /// The last `callerReserve` cells are left to the calling thread: when the caller finishes
    /// before a helper, `concurrentPerform` puts it to sleep until the helper is done, and
    /// waking it costs more than the tail. A caller that finishes last never sleeps (the
    /// timings behind both: Decisions.md, "Timings from code comments").
    struct Schedule: Sendable {
        let count: Int
        let workers: Int
        let grain: Int
        let maxChunk: Int
        let callerReserve: Int

        init(count: Int, workers: Int, grain: Int = 16, maxChunk: Int = 256) {
            self.count = count
            self.workers = max(1, workers)
            self.grain = max(1, grain)
            self.maxChunk = max(self.grain, maxChunk / self.grain * self.grain)
            // Four final chunks, but never a large share of a small batch.
            self.callerReserve = min(4 * self.grain, count / (8 * self.workers))
        }

        /// Chunk starts are multiples of `grain`: chunk `start / grain` is a unique slot.
        var slots: Int { (count + grain - 1) / grain }
        func slot(of chunk: Range<Int>) -> Int { chunk.lowerBound / grain }

        /// The size of the chunk claimed at `start`.
        @inline(__always)
        func chunkSize(at start: Int) -> Int {
            let share = (count - start) / (2 * workers) / grain * grain
            return min(count - start, min(maxChunk, max(grain, share)))
        }
    }

    /// Runs `body` over the chunks of `schedule` on its workers (the calling thread and
    /// Dispatch's `concurrentPerform`). Returns false if any chunk returned false
    /// (cancellation); chunks not yet claimed then never run.
    ///
    /// - Thread safety: `body` runs concurrently on disjoint chunks; one shared atomic per
    ///   claim.
    static func parallel(_ schedule: Schedule, _ body: @Sendable (Range<Int>) -> Bool) -> Bool {
        let count = schedule.count
        let next = Atomic<Int>(0)
        let ok = Atomic<Bool>(true)
        /// Claims the next chunk unless at most `reserve` cells are left.
        @Sendable func claim(leaving reserve: Int) -> Range<Int>? {
            var start = next.load(ordering: .relaxed)
            while ok.load(ordering: .relaxed), count - start > reserve {
                let end = start + schedule.chunkSize(at: start)
                let (claimed, current) = next.compareExchange(expected: start, desired: end, ordering: .relaxed)
                if claimed { return start..<end }
                start = current
            }
            return nil
        }
        if schedule.workers > 1, count > schedule.grain {
            let caller = pthread_self()
            DispatchQueue.concurrentPerform(iterations: min(schedule.workers, schedule.slots)) { _ in
                let reserve = pthread_equal(pthread_self(), caller) != 0 ? 0 : schedule.callerReserve
                while let chunk = claim(leaving: reserve) {
                    if !body(chunk) { ok.store(false, ordering: .relaxed) }
                }
            }
        }
        // One worker; or what the helpers left if Dispatch ran no iteration on this thread.
        while let chunk = claim(leaving: 0) {
            if !body(chunk) { ok.store(false, ordering: .relaxed) }
        }
        return ok.load(ordering: .relaxed)
    }
}

/// Processor count without Foundation.
enum ProcessInfoLite {
    static var activeProcessorCount: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }
}

/// A cell tier 2 did not answer in a batch's first pass: its index and keys (`nil`: a cell
/// that must not touch the cache).
private struct Miss {
    var keys: TextMeasurer.CellKeys?
    var index: Int32
}

/// The misses of one chunk of a batch's first pass, in input order (`nil` base: none).
private struct MissList {
    var base: UnsafeMutablePointer<Miss>?
    var count: Int
}

/// The first miss of a batch with each result key (linear probing over pointers to the
/// misses, no deletion): 8 bytes per slot, at most half full.
private struct FirstMissTable {
    private var slots: [UnsafePointer<Miss>?]
    private let mask: Int

    init(capacity n: Int) {
        var cap = 16
        while cap < n * 2 { cap *= 2 }
        slots = [UnsafePointer<Miss>?](repeating: nil, count: cap)
        mask = cap - 1
    }

    /// The first miss seen with `miss`'s result key, or `nil` after recording `miss` as the
    /// first. Cells without keys are never duplicates.
    mutating func first(withKeyOf miss: UnsafePointer<Miss>) -> UnsafePointer<Miss>? {
        guard let key = miss.pointee.keys?.keys.result else { return nil }
        var i = Int(truncatingIfNeeded: key.low) & mask
        while let other = slots[i] {
            if other.pointee.keys?.keys.result == key { return other }
            i = (i + 1) & mask
        }
        slots[i] = miss
        return nil
    }
}

/// A monotonic clock without Foundation.
enum DispatchTimeLite {
    static var nowNanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// A resolved style in an immutable box, so that workers can borrow it (`Unmanaged`, a `let`
/// property) instead of copying it per cell.
final class ResolvedStyleBox: Sendable {
    let style: ResolvedStyle
    init(_ style: ResolvedStyle) { self.style = style }
}
