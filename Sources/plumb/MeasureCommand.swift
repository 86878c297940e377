import CLIKit
import Dispatch
import Glibc
import Plumb
import Synchronization

/// `plumb measure`: JSON Lines in, one JSON line out per non-blank input line, in order,
/// streaming.
struct MeasureCommand {
    static let spec = CommandSpec(
        name: "measure",
        overview: "Measure JSON Lines of cells and print one result per line (blank lines are skipped).",
        options: StyleFields.options + [
            OptionSpec(name: "line-starts", kind: .flag, help: "Add \"lineStarts\": offsets where each line begins (see --offsets)."),
            OptionSpec(name: "clusters", kind: .flag,
                       help: "Add \"clusters\": per line, [start, end, minX, maxX] of each visible grapheme cluster (offsets as --offsets; x in points, justification included)."),
            OptionSpec(name: "lines", kind: .flag,
                       help: "Add \"lineBoxes\": start, end, rect, baseline and used width of each line; \"boxes\": each inline box's id, rect, line and offset (cells with boxes); \"token\": the truncation token's line and rect (truncated cells with a token)."),
            OptionSpec(name: "offsets", valueName: "unit", kind: .string,
                       help: "The unit of lineStarts, lineBoxes and boxes offsets: scalars (Unicode scalars; an inline box is one), utf8 or utf16. (default: scalars)"),
            OptionSpec(name: "list", kind: .flag,
                       help: "Print each row of a virtualized list with its running offset, {\"id\", \"index\", \"start\", \"size\", \"end\"} (a row's \"extraHeight\" added, pixel-ceiled), and {\"total\", \"count\"} last."),
            OptionSpec(name: "exact-numbers", kind: .flag,
                       help: "Print every number in its shortest round-trip form instead of rounded to 6 decimals."),
            OptionSpec(name: "workers", valueName: "n", kind: .int, help: "Threads to measure with, ≥ 1, at most one per core. (default: every core)"),
            OptionSpec(name: "cache-budget", valueName: "bytes", kind: .int, help: "Memory for cached results, in bytes, ≥ 0. (default: \(TextMeasurer.Configuration().resultCacheBytes))"),
            OptionSpec(name: "cache", valueName: "file", kind: .string,
                       help: "Keep results in FILE (SQLite, created if missing) and answer from it: a later run, or another process sharing FILE, skips what was measured before. A file that cannot be used is a warning; the run measures without it."),
            OptionSpec(name: "cache-file-budget", valueName: "bytes", kind: .int,
                       help: "Bytes of --cache FILE's pages in use before its oldest results are evicted, ≥ 65536. (default: \(PersistentCacheConfiguration(path: "").budgetBytes))"),
            OptionSpec(name: "max-text-bytes", valueName: "bytes", kind: .int, help: "Longest text measured, in UTF-8 bytes; a longer cell is an error for its line. (default: \(TextMeasurer.Configuration().maximumTextBytes))"),
            OptionSpec(name: "batch-size", valueName: "n", kind: .int,
                       help: "Lines a worker parses, measures and formats together, ≥ 1. Output follows in input order, and a batch also ends when input pauses. (default: \(Self.defaultBatchSize))"),
            OptionSpec(name: "progress", kind: .flag, help: "Print progress lines (done/total, rate, ETA) on standard error."),
            OptionSpec(name: "stats", kind: .flag, help: "Print a cache and timing summary on standard error at the end."),
        ],
        positionals: [PositionalSpec(name: "file", help: "JSON Lines input ('-' or none: standard input). Blank lines are skipped; a byte-order mark at the start is ignored.", isOptional: true)])

    /// Lines a worker measures together unless `--batch-size` says otherwise: small enough
    /// that two workers finish a file together (the last chunk is short) and a pause in the
    /// input answers at once, large enough that the engine's per-call work (its keys pass,
    /// tier-2 look-ups and style grouping) is cheap per line.
    static let defaultBatchSize = 64
    /// Lines read ahead of the oldest chunk not yet written, at least (with `--batch-size`
    /// beyond it, two chunks per worker): room to read and parse while the engine is being
    /// made and while the workers measure, bounded so memory does not follow the input.
    static let linesAhead = 4096
    /// Lines the main thread may parse ahead while the engine is still being made (the
    /// workers can measure nothing yet, so parsing is the only work for the second core).
    static let linesAheadOfTheEngine = 16_384

    let args: ParsedArguments
    let defaults: CellRequest
    /// The engine; with more than one worker it is made on another thread while the first
    /// chunks are read and parsed (loading fontconfig's configuration is the longest serial
    /// step of a short run): only the workers wait for it.
    var engine: TextMeasurer { engineFuture.engine }
    private let engineFuture: EngineFuture
    /// What parses, measures and formats a chunk (the workers', or the main thread's with one
    /// worker): made once, with the options that choose its calls and its output.
    let processor: ChunkProcessor
    /// Threads measuring: `--workers`, at most one per core (`--workers 1000` must not start
    /// a thousand threads; the engine's own batches never ran more than the cores either).
    let workerCount: Int
    /// Parses on the main thread: every chunk with one worker, and with more while the engine
    /// is being made (see `submit`).
    var cellParser: CellParser
    /// Lines per chunk (`--batch-size`).
    let batchSize: Int
    var errors = 0
    /// Lines answered so far.
    var done = 0
    /// Blank lines skipped so far (progress counts them: its total is the file's line count).
    var skipped = 0
    var total: Int? = nil
    let started = DispatchTime.now().uptimeNanoseconds
    var lastProgress: UInt64 = 0
    /// Lines read when the last progress line was printed.
    var lastProgressCount = 0
    /// `--list`: places rows at their offsets, in input order.
    var list: ListWriter?

    init(args: ParsedArguments) throws(UsageError) {
        self.args = args
        defaults = try StyleFields.defaults(from: args)
        cellParser = CellParser(defaults: defaults)
        var config = TextMeasurer.Configuration()
        if let limit = args.int("max-text-bytes") {
            guard limit >= 1 else { throw args.invalidValue(of: "max-text-bytes", "\(limit) is out of range (must be ≥ 1)") }
            config.maximumTextBytes = limit
        }
        if let budget = args.int("cache-budget") {
            guard budget >= 0 else { throw args.invalidValue(of: "cache-budget", "\(budget) is out of range (must be ≥ 0)") }
            config.resultCacheBytes = budget
        }
        if let path = args.string("cache") {
            guard !path.isEmpty else { throw args.invalidValue(of: "cache", "the file name is empty") }
            config.persistentCache = PersistentCacheConfiguration(path: path)
            if let budget = args.int("cache-file-budget") {
                guard budget >= 64 << 10 else {
                    throw args.invalidValue(of: "cache-file-budget", "\(budget) is out of range (must be ≥ 65536)")
                }
                config.persistentCache?.budgetBytes = budget
            }
        } else if args.int("cache-file-budget") != nil {
            throw args.invalidValue(of: "cache-file-budget", "needs --cache FILE")
        }
        for name in ["workers", "batch-size"] {
            if let n = args.int(name), n < 1 { throw args.invalidValue(of: name, "\(n) is out of range (must be ≥ 1)") }
        }
        config.fonts = FontOptions.configuration(args)
        let fonts = try FontOptions.resolver(args)
        let configuration = config
        workerCount = min(args.int("workers") ?? Self.coreCount, Self.coreCount)
        let inBackground = workerCount > 1
        let style = defaults.style
        engineFuture = EngineFuture(inBackground: inBackground) {
            let engine = TextMeasurer(configuration: configuration, fonts: fonts)
            // The default style's cascade (its fonts loaded) is ready before the first batch
            // asks, while that batch is still being read (the resolver keeps cascades).
            if inBackground { _ = engine.resolve(style) }
            return engine
        }
        let unit = args.string("offsets") ?? "scalars"
        guard let offsets = OffsetUnit(rawValue: unit) else {
            throw args.invalidValue(of: "offsets", "unknown unit '\(unit)' (one of \(OffsetUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var writer = ResultWriter(
            wantsStarts: args.flag("line-starts"), wantsBoxes: args.flag("lines"), wantsClusters: args.flag("clusters"),
            exactNumbers: args.flag("exact-numbers"), offsets: offsets)
        writer.wantsList = args.flag("list")
        if writer.wantsList && (writer.wantsStarts || writer.wantsBoxes || writer.wantsClusters) {
            throw args.invalidValue(of: "list", "prints rows only: it takes no --line-starts, --lines or --clusters")
        }
        var measurer = BatchMeasurer(
            engineFuture: engineFuture, wantsLayouts: writer.wantsStarts || writer.wantsBoxes || writer.wantsClusters)
        measurer.wantsRowHeights = writer.wantsList
        processor = ChunkProcessor(defaults: defaults, measurer: measurer, writer: writer)
        list = writer.wantsList ? ListWriter(exactNumbers: writer.exactNumbers) : nil
        batchSize = args.int("batch-size") ?? Self.defaultBatchSize
    }

    /// Runs the command; returns the exit status (1 if any line failed).
    ///
    /// With more than one worker, the main thread only reads lines and writes answers: it
    /// cuts the input into chunks of `--batch-size` lines, and each worker parses, measures
    /// and formats a chunk of its own (`ChunkPool`), so nothing waits for a whole batch and
    /// JSON work is shared by every core. While the engine is still being made, the main
    /// thread parses the chunks itself (the workers could not measure them yet). Answers are
    /// written in input order, whole chunks at a time. With one worker everything stays on
    /// one thread (what `--workers 1` promises).
    mutating func run() throws -> Int32 {
        let path = args.positional("file")
        let reader = try LineReader.openInput(path)
        if args.flag("progress"), let path, path != "-" { total = Self.countLines(path) }
        let pool = workerCount > 1 ? ChunkPool(workers: workerCount, processor: processor) : nil
        var chunk = RawChunk(reservingLines: batchSize)
        // A chunk ends when it is full, and when input pauses: output never waits for lines
        // that have not arrived (a slow producer, a terminal).
        try reader.forEachLine(onPause: {
            if !chunk.isEmpty {
                submit(chunk, to: pool)
                chunk = RawChunk(reservingLines: batchSize)
            }
            drain(pool)
        }) { number, bytes in
            if CellParser.isBlank(bytes) {
                skipped += 1
                return
            }
            chunk.append(number, bytes)
            if chunk.count >= batchSize {
                submit(chunk, to: pool)
                chunk = RawChunk(reservingLines: batchSize)
            }
        }
        if !chunk.isEmpty { submit(chunk, to: pool) }
        drain(pool)
        pool?.close()
        if list != nil { Output.standardOutput(list!.total()) }
        // A closing progress line when none was printed yet, the total was unknown or lines
        // were read since the last one (blank lines after the last batch).
        if args.flag("progress") && (lastProgress == 0 || total == nil || lastProgressCount != done + skipped) {
            printProgress()
        }
        finishPersistentCache()
        if args.flag("stats") { printStats(pool) }
        // The process exits once this returns: the engine's caches (every prepared text, its
        // segments and results) are left to the exit instead of being freed block by block
        // (`PreparedText` deinit, `free`, consolidation: a measurable share of a long run).
        _ = Unmanaged.passRetained(engine)
        return errors > 0 ? 1 : 0
    }

    /// Writes the results `--cache` still queues and prints the file's warnings on standard
    /// error (one line each).
    func finishPersistentCache() {
        guard args.string("cache") != nil else { return }
        engine.flushPersistentCache()
        guard let status = engine.persistentCacheStatus else { return }
        for warning in status.warnings { Output.standardError("plumb: warning: cache: \(warning)\n") }
    }

    /// The machine's cores (the engine's default worker count).
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Answers `chunk`: at once without a pool; else queued for the workers, writing the
    /// answers that are ready, and waiting for the oldest while too many lines are ahead.
    mutating func submit(_ chunk: RawChunk, to pool: ChunkPool?) {
        guard let pool else { return write([processor.answer(processor.parse(chunk, with: &cellParser))]) }
        let engineIsReady = engineFuture.isReady
        if engineIsReady {
            pool.submit(chunk)
        } else {
            pool.submit(parsed: processor.parse(chunk, with: &cellParser))
        }
        writeReady(pool)
        let window = engineIsReady ? Self.linesAhead : Self.linesAheadOfTheEngine
        write(pool, untilInFlight: max(2 * pool.workerCount, window / batchSize))
    }

    /// Writes the answers of the oldest chunks that are done, in one write.
    mutating func writeReady(_ pool: ChunkPool) {
        var ready: [ChunkOutput] = []
        while let output = pool.nextIfDone() { ready.append(output) }
        if !ready.isEmpty { write(ready) }
    }

    /// Writes every chunk still in the pool, waiting for half of what is left each time (a
    /// wait per chunk at the end of a long input — up to the 1,024 chunks read ahead — woke
    /// the main thread on a core both workers use once per chunk).
    mutating func drain(_ pool: ChunkPool?) {
        guard let pool else { return }
        write(pool, untilInFlight: 0)
    }

    /// Writes answers, oldest first, until at most `limit` chunks are in flight, waiting each
    /// time until half of those in flight are done.
    mutating func write(_ pool: ChunkPool, untilInFlight limit: Int) {
        while pool.inFlight > limit {
            pool.waitForHalf()
            write([pool.next()])
            writeReady(pool)
        }
    }

    /// Writes answered chunks in order, whole (see `Interruption`), and counts them.
    mutating func write(_ outputs: [ChunkOutput]) {
        // Whole chunks only: an interrupt waits for this write to finish (see Interruption).
        Interruption.whileWritingOutput {
            for output in outputs {
                if list != nil {
                    Output.standardOutput(list!.format(output.list))
                } else {
                    Output.standardOutput(output.bytes)
                }
            }
        }
        for output in outputs {
            done += output.lines
            errors += output.errors
        }
        if args.flag("progress") {
            let now = DispatchTime.now().uptimeNanoseconds
            if now - lastProgress >= 1_000_000_000 || done + skipped == total { printProgress() }
        }
    }

    mutating func printProgress() {
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = Double(now - started) / 1e9
        let read = done + skipped
        let rate = seconds > 0 ? Double(read) / seconds : 0
        var line = "progress: \(read)"
        if let total {
            let pct = total > 0 ? 100 * Double(read) / Double(total) : 100
            let eta = rate > 0 ? Double(max(0, total - read)) / rate : 0
            line += "/\(total) (\(Int(pct))%), \(Int(rate)) lines/s, ETA \(Int(eta.rounded(.up))) s"
        } else {
            line += " lines, \(Int(rate)) lines/s"
        }
        Output.standardError(line + "\n")
        lastProgress = now
        lastProgressCount = read
    }

    /// The `--stats` summary. Hits and misses count cells: a miss is a cell that was measured
    /// (a duplicate of a cell measured in the same chunk counts as a hit), a hit one answered
    /// from the cache. Bytes: what the entries use, and for the result table what it has
    /// allocated (it reserves slots ahead of its entries).
    func printStats(_ pool: ChunkPool?) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let s = engine.cacheStatistics
        let table = engine.resultTableBytes
        func counts(_ c: CacheStatistics, misses: String = "misses") -> String {
            "hits \(c.hits), \(misses) \(c.misses), insertions \(c.insertions), evictions \(c.evictions), entries \(c.entries)"
        }
        var text = "stats: \(done) lines, \(errors) errors, \(skipped) blank lines skipped, \(String(format2: seconds)) s, \(Int(Double(done) / max(seconds, 1e-9))) lines/s\n"
        text += "stats: results: \(counts(s.results, misses: "misses (measured)")); bytes in use \(table.inUse), allocated \(table.allocated), budget \(s.results.budget)\n"
        text += "stats: prepared texts: \(counts(s.prepared)); bytes in use \(s.prepared.bytes), budget \(s.prepared.budget)\n"
        text += "stats: shaped segments: \(counts(s.segments)); bytes in use \(s.segments.bytes), budget \(s.segments.budget)\n"
        if let p = engine.persistentCacheStatus {
            text += "stats: cache file: \(p.mode), hits \(p.hits), misses \(p.misses), stored \(p.stored), evicted \(p.evicted), dropped \(p.dropped); bytes in use \(p.bytes), budget \(p.budget)\n"
        }
        if let pool {
            text += "stats: workers: \(pool.workerCount) threads, \(pool.submitted) chunks of up to \(batchSize) lines, the main thread waited \(pool.waits) times\n"
        } else {
            text += "stats: workers: 1, on the main thread, chunks of up to \(batchSize) lines\n"
        }
        Output.standardError(text)
    }

    /// Counts the lines of a file for progress totals (a fast pass over the bytes).
    static func countLines(_ path: String) -> Int? {
        guard let reader = try? LineReader.openFile(path) else { return nil }
        var n = 0
        try? reader.forEachLine { _, _ in n += 1 }
        return n
    }
}

extension String {
    init(format2 value: Double) {
        let scaled = (value * 1000).rounded() / 1000
        self = "\(scaled)"
    }
}

/// A batch's inputs with their measurements (and layouts, with `--line-starts`/`--lines`).
struct MeasuredBatch {
    let batch: [CellInput]
    var measurements: [TextMeasurement?]
    var layouts: [TextLayout?]
    /// `--list`: each row's height on its scale's grid with its `extraHeight` (`ListHeights`).
    var rowHeights: [Double?] = []
}

/// Measures a chunk of `plumb measure`'s cells: the engine's batch calls per scale, plain and
/// attributed cells together, on the calling thread (each worker measures a chunk of its own).
struct BatchMeasurer: @unchecked Sendable {  // immutable; the engine is thread-safe
    let engineFuture: EngineFuture
    /// The engine (the first chunks wait here, on their workers, until it is made).
    var engine: TextMeasurer { engineFuture.engine }
    let wantsLayouts: Bool
    /// `--list`: row heights as `TextMeasurer.listHeights` gives them.
    var wantsRowHeights = false

    /// Measures the valid cells of `batch` (lines with errors stay unmeasured).
    func measure(_ batch: [CellInput]) -> MeasuredBatch {
        var measured = MeasuredBatch(
            batch: batch, measurements: [TextMeasurement?](repeating: nil, count: batch.count),
            layouts: [TextLayout?](repeating: nil, count: batch.count))
        // Cells of one scale are measured together (scale is per batch call). Each cell is
        // made once, for its scale's call: a `Cell` copy retains the text and every string
        // and array of the style.
        var byScale: [Double: [Int]] = [:]
        for i in batch.indices where batch[i].error == nil {
            byScale[batch[i].request.scale, default: []].append(i)
        }
        if wantsRowHeights { measured.rowHeights = [Double?](repeating: nil, count: batch.count) }
        for (scale, indices) in byScale {
            let cells = indices.map { batch[$0].cell }
            if wantsRowHeights {
                // The engine's list rule: the text's height plus the row's extra, ceiled to
                // the grid (ids: the rows' places in the batch, unique).
                let rows = zip(indices, cells).map { ListRow(id: $0, cell: $1, extraHeight: batch[$0].request.extraHeight) }
                if let list = try? engine.listHeights(for: rows, scale: scale, workers: 1) {
                    for i in indices { measured.rowHeights[i] = list.height(of: i) }
                }
            }
            if wantsLayouts {
                for (i, layout) in zip(indices, engine.layouts(for: cells, scale: scale, workers: 1)) {
                    measured.layouts[i] = layout
                    measured.measurements[i] = layout.measurement
                }
            } else {
                for (i, m) in zip(indices, engine.heights(for: cells, scale: scale, workers: 1)) { measured.measurements[i] = m }
            }
        }
        return measured
    }
}

/// A value made at once or on a global queue, taken (waiting for it if need be) on first use.
///
/// - Thread safety: `engine` from any thread; the group orders the maker's write before
///   every read.
final class EngineFuture: @unchecked Sendable {  // `made` is written once, before `group` is left
    private var made: TextMeasurer?
    private let group = DispatchGroup()
    /// Set once `made` is written.
    private let ready = Atomic<Bool>(false)

    init(inBackground: Bool, _ make: @escaping @Sendable () -> TextMeasurer) {
        guard inBackground else {
            made = make()
            ready.store(true, ordering: .releasing)
            return
        }
        group.enter()
        DispatchQueue.global().async { [self] in
            made = make()
            ready.store(true, ordering: .releasing)
            group.leave()
        }
    }

    /// Whether the engine is made (never waits: an atomic, not a `DispatchGroup` wait, whose
    /// `.now()` timeout sleeps briefly in a timed futex wait).
    var isReady: Bool { ready.load(ordering: .acquiring) }

    /// The engine (waits until it is made).
    var engine: TextMeasurer {
        group.wait()
        return made.unsafelyUnwrapped
    }
}
