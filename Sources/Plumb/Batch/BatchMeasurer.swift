import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One cell of a heterogeneous batch.
public struct Cell: Sendable {
    public var text: String
    public var style: TextStyle
    public var width: Double
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
    private let done = Atomic<Int>(0)
    private let total = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    /// Cells finished so far.
    public var completed: Int { done.load(ordering: .relaxed) }
    /// Cells in the batch (known once it starts).
    public var totalCount: Int { total.load(ordering: .relaxed) }
    public var fractionCompleted: Double {
        let t = totalCount
        return t == 0 ? 0 : Double(completed) / Double(t)
    }
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    func start(total n: Int) {
        total.store(n, ordering: .relaxed)
        done.store(0, ordering: .relaxed)
    }
    func add(_ n: Int) { done.add(n, ordering: .relaxed) }
}

/// Thrown when a batch was cancelled through its `BatchProgress`.
public struct BatchCancelled: Error, Sendable {}

extension TextMeasurer {
    /// Heights of many cells sharing one style and width, measured on all cores.
    ///
    /// Duplicates are measured once; results come back in input order and are bit-for-bit
    /// identical to measuring each cell alone, at any worker count.
    ///
    /// - Parameters:
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    ///   - progress: optional progress/cancellation object.
    /// - Throws: `BatchCancelled` if `progress` was cancelled.
    /// - Complexity: O(total text length); Dispatch `concurrentPerform` over chunks of 64
    ///   cells, each worker with its own ICU iterators and HarfBuzz buffer.
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        let resolved = resolve(style)
        let cacheable = resolved.isCacheable, fingerprint = resolved.layoutFingerprint
        return try texts.withUnsafeBufferPointer { buffer in
            // Read through a pointer: the key pass borrows each text instead of retaining it
            // (a retain writes the string's header, a line the other core then has to fetch).
            nonisolated(unsafe) let texts = buffer
            return try run(count: texts.count, workers: workers, progress: progress,
                           key: { i in Self.cellKeys(texts[i], cacheable: cacheable, fingerprint: fingerprint, width: width, scale: scale) },
                           measure: { i, k in self.measure(texts[i], style: resolved, width: width, scale: scale, keys: k) })
        }
    }

    /// Heights of cells with their own styles and widths, measured on all cores. Each distinct
    /// style is resolved once.
    ///
    /// - Throws: `BatchCancelled` if `progress` was cancelled.
    public func heights(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        var resolvedByStyle: [TextStyle: Int] = [:]
        var resolvedStyles: [ResolvedStyle] = []
        var styleIndex = [Int](repeating: 0, count: cells.count)
        for (i, cell) in cells.enumerated() {
            if let k = resolvedByStyle[cell.style] {
                styleIndex[i] = k
            } else {
                resolvedByStyle[cell.style] = resolvedStyles.count
                styleIndex[i] = resolvedStyles.count
                resolvedStyles.append(resolve(cell.style))
            }
        }
        let styles = resolvedStyles
        let index = styleIndex
        return try run(count: cells.count, workers: workers, progress: progress,
                       key: { i in self.cellKeys(cells[i].text, style: styles[index[i]], width: cells[i].width, scale: scale) },
                       measure: { i, k in self.measure(cells[i].text, style: styles[index[i]], width: cells[i].width, scale: scale, keys: k) })
    }

    /// Layouts (lines, rects, baselines) of many cells on all cores, in input order; each is
    /// what `layout(_:style:width:scale:)` returns for its cell.
    ///
    /// - Parameter workers: threads to use (default: every core); 1 lays out on the calling
    ///   thread.
    /// - Complexity: O(total text length), chunks of 256 cells over `workers` threads.
    public func layouts(for cells: [Cell], scale: Double = 2, workers: Int? = nil) -> [TextLayout] {
        var out = [TextLayout?](repeating: nil, count: cells.count)
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            _ = Self.parallel(count: cells.count, workers: max(1, workers ?? ProcessInfoLite.activeProcessorCount)) { range in
                for i in range {
                    buffer[i] = self.layout(cells[i].text, style: cells[i].style, width: cells[i].width, scale: scale)
                }
                return true
            }
        }
        return out.map { $0! }
    }

    /// Row heights with prefix offsets for a virtualized list, measured as a batch.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [(id: ID, text: String)], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> ListHeights<ID> {
        let m = try heights(for: rows.map(\.text), style: style, width: width, scale: scale, workers: workers, progress: progress)
        return ListHeights(zip(rows, m).map { (id: $0.0.id, height: $0.1.height) })
    }

    /// The batch engine: keys and tier-2 hits in parallel → first occurrence of each missing
    /// key → measure the unique misses in parallel → copy to duplicates.
    private func run(
        count n: Int, workers: Int?, progress: BatchProgress?,
        key: @Sendable (Int) -> CellKeys?, measure: @Sendable (Int, CellKeys?) -> TextMeasurement
    ) throws -> [TextMeasurement] {
        progress?.start(total: n)
        guard n > 0 else { return [] }
        let workerCount = max(1, workers ?? ProcessInfoLite.activeProcessorCount)
        let placeholder = TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: [])
        let cache = resultCache

        // 1. Keys and tier-2 hits (parallel). A warm batch is answered here. The three arrays
        //    are left uninitialised and every element is written once by the worker that owns
        //    its chunk: no sequential pass over n cells before the parallel one (page faults
        //    and first writes happen on the workers too). Only plain values cross threads:
        //    results of cache hits hold no references (no warnings), so workers never contend
        //    on reference counts.
        var keys = [CellKeys?](unsafeUninitializedCapacity: n) { _, c in c = n }  // plain values
        var answered = [Bool](unsafeUninitializedCapacity: n) { _, c in c = n }
        let totalHits = Atomic<Int>(0)
        var results = [TextMeasurement](unsafeUninitializedCapacity: n) { resultBuffer, resultCount in
            keys.withUnsafeMutableBufferPointer { keyBuffer in
                answered.withUnsafeMutableBufferPointer { answeredBuffer in
                    nonisolated(unsafe) let out = resultBuffer.baseAddress!
                    nonisolated(unsafe) let cellKeys = keyBuffer.baseAddress!
                    nonisolated(unsafe) let done = answeredBuffer.baseAddress!
                    _ = Self.parallel(count: n, workers: workerCount) { range in
                        var hits = 0
                        for i in range {
                            let k = key(i)
                            (cellKeys + i).initialize(to: k)
                            if let k, let hit = cache.value(for: k.keys.result, counted: false) {
                                (out + i).initialize(to: Self.measurement(hit, scale: k.scale))
                                (done + i).initialize(to: true)
                                hits += 1
                            } else {
                                (out + i).initialize(to: placeholder)
                                (done + i).initialize(to: false)
                            }
                        }
                        progress?.add(hits)
                        totalHits.add(hits, ordering: .relaxed)
                        cache.recordLookups(hits: hits, misses: range.count - hits)
                        return true
                    }
                }
            }
            resultCount = n
        }

        // 2. The misses: the first index of every distinct key (sequential, open addressing,
        //    ~10 ns per miss), so duplicates inside the batch are measured once.
        let missCount = n - totalHits.load(ordering: .relaxed)
        guard missCount > 0 else { return results }
        var firstIndex = FirstIndexTable(capacity: missCount)
        var source = [Int32](repeating: -1, count: n)
        var unique: [Int32] = []
        unique.reserveCapacity(missCount)
        for i in 0..<n where !answered[i] {
            if let k = keys[i], let f = firstIndex.firstIndex(of: k.keys.result, inserting: Int32(i)) {
                source[i] = f
            } else {
                unique.append(Int32(i))
            }
        }

        // 3. Measure the unique misses (parallel) into the preallocated buffer.
        let completed = keys.withUnsafeBufferPointer { keyBuffer in
            results.withUnsafeMutableBufferPointer { buffer -> Bool in
                nonisolated(unsafe) let out = buffer
                nonisolated(unsafe) let cellKeys = keyBuffer
                let order = unique
                return Self.parallel(count: order.count, workers: workerCount) { range in
                    if progress?.isCancelled == true { return false }
                    for k in range {
                        let i = Int(order[k])
                        out[i] = measure(i, cellKeys[i])
                    }
                    progress?.add(range.count)
                    return true
                }
            }
        }
        guard completed, progress?.isCancelled != true else { throw BatchCancelled() }
        var duplicates = 0
        for i in 0..<n where source[i] >= 0 {
            results[i] = results[Int(source[i])]
            duplicates += 1
        }
        progress?.add(duplicates)
        return results
    }

    /// Runs `body` over chunks of 0..<count on `workers` threads (work-stealing over chunks of
    /// 64). Returns false if any chunk returned false (cancellation).
    static func parallel(count: Int, workers: Int, _ body: @Sendable (Range<Int>) -> Bool) -> Bool {
        let chunk = 256
        let chunks = (count + chunk - 1) / chunk
        guard workers > 1, chunks > 1 else {
            var start = 0
            while start < count {
                if !body(start..<min(count, start + chunk)) { return false }
                start += chunk
            }
            return true
        }
        let next = Atomic<Int>(0)
        let ok = Atomic<Bool>(true)
        DispatchQueue.concurrentPerform(iterations: min(workers, chunks)) { _ in
            while ok.load(ordering: .relaxed) {
                let c = next.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { return }
                let start = c * chunk
                if !body(start..<min(count, start + chunk)) { ok.store(false, ordering: .relaxed) }
            }
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

/// Maps result keys to the first batch index that had them (linear probing, no deletion).
private struct FirstIndexTable {
    private var keys: [CacheKey]
    private var indexes: [Int32]
    private let mask: Int

    init(capacity n: Int) {
        var cap = 16
        while cap < n * 2 { cap *= 2 }
        keys = [CacheKey](repeating: CacheKey(low: 0, high: 0), count: cap)
        indexes = [Int32](repeating: -1, count: cap)
        mask = cap - 1
    }

    /// The first index stored for `key`, or `nil` after storing `index` for it.
    mutating func firstIndex(of key: CacheKey, inserting index: Int32) -> Int32? {
        var i = Int(truncatingIfNeeded: key.low) & mask
        while indexes[i] >= 0 {
            if keys[i] == key { return indexes[i] }
            i = (i + 1) & mask
        }
        keys[i] = key
        indexes[i] = index
        return nil
    }
}


/// A monotonic clock without Foundation.
enum DispatchTimeLite {
    static var nowNanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
