import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The one batch engine behind every batch call (heights, layouts, list heights; plain and
/// attributed cells; synchronous and `async`): it schedules cells on the workers, reports
/// progress, stops on cancellation and returns results in input order.
///
/// It knows cells only by index: the caller gives each cell's keys and how to measure it,
/// so the engine holds no text, style or font.
///
/// - Thread safety: a value; each call runs its closures concurrently on disjoint cells.
struct BatchEngine {
    /// Threads to use, the calling thread included (at least 1).
    let workers: Int
    /// Progress and cancellation (`nil`: neither; the batch then never throws).
    let progress: BatchProgress?
    /// Where the helper threads come from (`BatchProgress.helpers`; Dispatch without one).
    let helpers: BatchHelpers

    /// An engine on `workers` threads (default: every core).
    init(workers: Int?, progress: BatchProgress?) {
        self.workers = max(1, workers ?? ProcessInfoLite.activeProcessorCount)
        self.progress = progress
        self.helpers = progress?.helpers ?? .dispatch
    }

    /// Measures `n` cells: keys and tier-2 hits in parallel → the first occurrence of each
    /// missing key → those the persistent cache holds (`persistent`) → the unique misses
    /// measured in parallel → copies to their duplicates.
    /// Every cell is counted once in `cache`'s statistics: a hit, a miss (one per distinct
    /// key), or a hit on a duplicate measured earlier in the batch.
    ///
    /// - Parameters:
    ///   - key: the cell's keys (`nil`: a cell that must not touch the cache).
    ///   - measure: measures a cell whose result key missed (its keys passed back).
    /// - Throws: `BatchCancelled` once `progress` is cancelled (chunks not started never run).
    /// - Complexity: O(n) lookups plus the misses' measurements. Memory: the n results, plus
    ///   per-chunk lists of the misses' keys; a warm batch allocates nothing but its results.
    func measure(
        count n: Int, cache: ResultCache, persistent: PersistentResultStore? = nil,
        key: @Sendable (Int) -> CellKeys?,
        measure: @Sendable (_ cell: Int, _ keysThatMissed: CellKeys?) -> TextMeasurement
    ) throws -> [TextMeasurement] {
        progress?.start(total: n)
        guard n > 0 else { return [] }
        let firstPass = FirstPass(
            count: n, schedule: BatchSchedule(count: n, workers: workers, grain: 16, maxChunk: 256), helpers: helpers
        )
        defer { firstPass.deallocate() }
        var results = firstPass.run(cache: cache, progress: progress, key: key)
        let misses = firstPass.distinctMisses()
        guard !misses.unique.isEmpty || !misses.duplicates.isEmpty else { return results }
        // A duplicate of a key measured in this batch is a hit; cells without keys never
        // touch the cache.
        let keyedUnique = misses.unique.reduce(0) { $0 + ($1.pointee.keys == nil ? 0 : 1) }
        cache.recordLookups(hits: misses.duplicates.count, misses: keyedUnique)
        var unique = misses.unique
        if let persistent, keyedUnique > 0 {
            unique = answerStored(unique, into: &results, cache: cache, store: persistent)
            progress?.add(misses.unique.count - unique.count)
        }
        try measureMisses(unique, into: &results, cache: cache, measure: measure)
        for (cell, first) in misses.duplicates {
            results[Int(cell)] = results[Int(first)]
        }
        progress?.add(misses.duplicates.count)
        return results
    }

    /// `body(i)` for every i in 0..<count on the workers, in input order, reporting progress
    /// after each chunk (at most `maxChunk` cells) and stopping between chunks once cancelled.
    ///
    /// - Throws: `BatchCancelled` once `progress` is cancelled.
    /// - Complexity: `count` calls of `body`, guided chunks over the workers.
    func map<T: Sendable>(count: Int, maxChunk: Int = 64, _ body: @Sendable (Int) -> T) throws -> [T] {
        progress?.start(total: count)
        var out = [T?](repeating: nil, count: count)
        let progress = self.progress
        let completed = out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer  // each index is written by one worker
            return Self.parallel(BatchSchedule(count: count, workers: workers, grain: 1, maxChunk: maxChunk), on: helpers) { range in
                if progress?.isCancelled == true { return false }
                for i in range { buffer[i] = body(i) }
                progress?.add(range.count)
                return true
            }
        }
        guard completed, progress?.isCancelled != true else { throw BatchCancelled() }
        return out.map { $0! }
    }

    /// Answers the unique misses the persistent cache holds (one read transaction per
    /// reader) as the first pass answers tier-2 hits, and copies them into tier 2 (parallel);
    /// returns the misses left to measure, in order.
    ///
    /// - Complexity: `PersistentResultStore.load` of the keyed misses, then O(1) per hit.
    private func answerStored(
        _ unique: [UnsafePointer<Miss>], into results: inout [TextMeasurement], cache: ResultCache,
        store: PersistentResultStore
    ) -> [UnsafePointer<Miss>] {
        let positions = unique.indices.filter { unique[$0].pointee.keys != nil }
        let keyed = positions.map { unique[$0] }
        let stored = store.load(keyed.map { $0.pointee.keys!.keys.result })
        let schedule = BatchSchedule(count: keyed.count, workers: workers, grain: 64, maxChunk: 1024)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let out = buffer  // each cell's slot is written by one worker
            keyed.withUnsafeBufferPointer { keyed in
                nonisolated(unsafe) let keyed = keyed  // read-only during the loop
                _ = Self.parallel(schedule, on: helpers) { range in
                    for i in range {
                        guard let value = stored[i], let keys = keyed[i].pointee.keys else { continue }
                        out[Int(keyed[i].pointee.index)] = value.measurement(scale: keys.scale)
                        cache.insert(value, for: keys.keys.result)
                    }
                    return true
                }
            }
        }
        var answered = [Bool](repeating: false, count: unique.count)
        for (i, value) in stored.enumerated() where value != nil { answered[positions[i]] = true }
        return unique.indices.filter { !answered[$0] }.map { unique[$0] }
    }

    /// Measures the unique misses (parallel) into `results`, each at its cell's index. The
    /// first pass already missed tier 2 (and the persistent cache) for these keys.
    private func measureMisses(
        _ unique: [UnsafePointer<Miss>], into results: inout [TextMeasurement], cache: ResultCache,
        measure: @Sendable (Int, CellKeys?) -> TextMeasurement
    ) throws {
        let progress = self.progress
        let schedule = BatchSchedule(count: unique.count, workers: workers, grain: 4, maxChunk: 256)
        let completed = results.withUnsafeMutableBufferPointer { buffer -> Bool in
            nonisolated(unsafe) let out = buffer  // each cell's slot is written by one worker
            return unique.withUnsafeBufferPointer { order in
                nonisolated(unsafe) let order = order  // read-only during the loop
                return Self.parallel(schedule, on: helpers) { range in
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
    }

    /// Prefetches, while miss `k` is measured, what the next misses will read that the
    /// measurements since the batch's first pass have pushed out of cache, in stages so that
    /// each step reads only lines an earlier step asked for:
    /// - miss `k + 3`: its record (both lines it may span);
    /// - miss `k + 2`: the result-table shards of its result and width-range keys;
    /// - miss `k + 1`: those keys' home slots (the shard's mask gives the address) and its
    ///   result slot in `results`.
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

    /// Runs `body` over the chunks of `schedule` on its workers (the calling thread and
    /// `helpers`). Returns false if any chunk returned false (cancellation); chunks not yet
    /// claimed then never run.
    ///
    /// - Thread safety: `body` runs concurrently on disjoint chunks; one shared atomic per
    ///   claim.
    static func parallel(
        _ schedule: BatchSchedule, on helpers: BatchHelpers = .dispatch, _ body: @Sendable (Range<Int>) -> Bool
    ) -> Bool {
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
            let threads = min(schedule.workers, schedule.slots)
            switch helpers {
            case .dispatch:
                let caller = pthread_self()
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    let reserve = pthread_equal(pthread_self(), caller) != 0 ? 0 : schedule.callerReserve
                    while let chunk = claim(leaving: reserve) {
                        if !body(chunk) { ok.store(false, ordering: .relaxed) }
                    }
                }
            case .own:
                withoutActuallyEscaping(body) { body in
                    // Joined before `body` goes out of scope.
                    let started = (1..<threads).compactMap { _ in
                        OwnThreads.start {
                            while let chunk = claim(leaving: schedule.callerReserve) {
                                if !body(chunk) { ok.store(false, ordering: .relaxed) }
                            }
                        }
                    }
                    while let chunk = claim(leaving: 0) {
                        if !body(chunk) { ok.store(false, ordering: .relaxed) }
                    }
                    started.forEach(OwnThreads.join)
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

/// Where a batch's helper threads come from.
enum BatchHelpers: Sendable {
    /// Dispatch's `concurrentPerform`: the synchronous calls, whose caller waits anyway.
    case dispatch
    /// Threads of the batch's own (`OwnThreads`): the `async` calls, which must leave
    /// Dispatch's root queues, and so Swift concurrency, to the rest of the process.
    case own
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
struct BatchSchedule: Sendable {
    let count: Int
    let workers: Int
    let grain: Int
    let maxChunk: Int
    let callerReserve: Int

    /// A schedule of `count` cells over `workers` threads in chunks of `grain`…`maxChunk`.
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
    /// The slot of a chunk this schedule handed out.
    func slot(of chunk: Range<Int>) -> Int { chunk.lowerBound / grain }

    /// The size of the chunk claimed at `start`.
    @inline(__always)
    func chunkSize(at start: Int) -> Int {
        let share = (count - start) / (2 * workers) / grain * grain
        return min(count - start, min(maxChunk, max(grain, share)))
    }
}

/// A batch's first pass: every cell's keys and tier-2 lookup (parallel). A warm batch is
/// answered here. Each chunk's misses go to a list of its own (slot = chunk start / grain),
/// so the next step sees them in input order.
private struct FirstPass {
    let count: Int
    let schedule: BatchSchedule
    let helpers: BatchHelpers
    /// One list per schedule slot (owned: `deallocate()` frees them).
    private let lists: UnsafeMutableBufferPointer<MissList>

    init(count: Int, schedule: BatchSchedule, helpers: BatchHelpers) {
        self.count = count
        self.schedule = schedule
        self.helpers = helpers
        lists = .allocate(capacity: schedule.slots)
        lists.initialize(repeating: MissList(base: nil, count: 0))
    }

    /// Frees the miss lists (the pointers `distinctMisses()` returned die with them).
    func deallocate() {
        for list in lists { list.base?.deallocate() }
        lists.deallocate()
    }

    /// Looks every cell up. Results are left uninitialised and each element is written once
    /// by the worker that claimed it; only plain values cross threads (results of cache hits
    /// hold no references), so workers never contend on reference counts.
    func run(cache: ResultCache, progress: BatchProgress?, key: @Sendable (Int) -> CellKeys?) -> [TextMeasurement] {
        let placeholder = TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: [])
        let schedule = self.schedule
        return [TextMeasurement](unsafeUninitializedCapacity: count) { resultBuffer, resultCount in
            nonisolated(unsafe) let out = resultBuffer.baseAddress!  // each index written by one worker
            nonisolated(unsafe) let lists = lists  // each slot written by the chunk that owns it
            _ = BatchEngine.parallel(schedule, on: helpers) { range in
                var hits = 0
                var misses: UnsafeMutablePointer<Miss>? = nil
                var missCount = 0
                for i in range {
                    let k = key(i)
                    if let k, let hit = cache.value(for: k.keys.result, counted: false) {
                        (out + i).initialize(to: hit.measurement(scale: k.scale))
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
                // Misses are counted once duplicates are known: a key measured once is one
                // miss, however often the batch holds it.
                cache.recordLookups(hits: hits, misses: 0)
                return true
            }
            resultCount = count
        }
    }

    /// The misses split into the first of every distinct key and the duplicates of an
    /// earlier one (sequential, open addressing), so duplicates are measured once.
    func distinctMisses() -> (unique: [UnsafePointer<Miss>], duplicates: [(cell: Int32, first: Int32)]) {
        let missCount = lists.reduce(0) { $0 + $1.count }
        guard missCount > 0 else { return ([], []) }
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
        return (unique, duplicates)
    }
}

/// A cell tier 2 did not answer in a batch's first pass: its index and keys (`nil`: a cell
/// that must not touch the cache).
private struct Miss {
    var keys: CellKeys?
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
