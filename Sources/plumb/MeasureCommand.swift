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
            OptionSpec(name: "lines", kind: .flag,
                       help: "Add \"lineBoxes\": start, end, rect, baseline and used width of each line; \"boxes\": each inline box's id, rect, line and offset (cells with boxes); \"token\": the truncation token's line and rect (truncated cells with a token)."),
            OptionSpec(name: "offsets", valueName: "unit", kind: .string,
                       help: "The unit of lineStarts, lineBoxes and boxes offsets: scalars (Unicode scalars; an inline box is one), utf8 or utf16. (default: scalars)"),
            OptionSpec(name: "exact-numbers", kind: .flag,
                       help: "Print every number in its shortest round-trip form instead of rounded to 6 decimals."),
            OptionSpec(name: "workers", valueName: "n", kind: .int, help: "Threads to measure with, ≥ 1. (default: every core)"),
            OptionSpec(name: "cache-budget", valueName: "bytes", kind: .int, help: "Memory for cached results, in bytes, ≥ 0. (default: \(TextMeasurer.Configuration().resultCacheBytes))"),
            OptionSpec(name: "max-text-bytes", valueName: "bytes", kind: .int, help: "Longest text measured, in UTF-8 bytes; a longer cell is an error for its line. (default: \(TextMeasurer.Configuration().maximumTextBytes))"),
            OptionSpec(name: "batch-size", valueName: "n", kind: .int,
                       help: "Lines in the first batch measured together, ≥ 1; each later one doubles, up to \(Self.largestBatchSize) lines (or n if larger). Output follows each batch, and a batch also ends when input pauses. (default: \(Self.defaultBatchSize))"),
            OptionSpec(name: "progress", kind: .flag, help: "Print progress lines (done/total, rate, ETA) on standard error."),
            OptionSpec(name: "stats", kind: .flag, help: "Print a cache and timing summary on standard error at the end."),
        ],
        positionals: [PositionalSpec(name: "file", help: "JSON Lines input ('-' or none: standard input). Blank lines are skipped; a byte-order mark at the start is ignored.", isOptional: true)])

    /// Lines in the first batch unless `--batch-size` says otherwise.
    static let defaultBatchSize = 1024
    /// Each full batch doubles the next one's size up to this many lines (or `--batch-size`
    /// if larger). Every batch costs the workers two hand-overs and a tail (~0.3 ms on two
    /// cores), so long inputs go in fewer batches, while the first output still comes after
    /// the first batch and a pause in the input still ends one. Two workers on 10,000 rows:
    /// utilisation 1.72–1.77 → 1.80–1.82 cores (Decisions.md, "Growing batches").
    static let largestBatchSize = 4096

    /// One input line after parsing.
    typealias Input = CellInput

    let args: ParsedArguments
    let defaults: CellRequest
    /// The engine; with more than one worker it is made on another thread while the first
    /// batch is read and parsed (loading fontconfig's configuration, ~4 ms, is the longest
    /// serial step of a short run): only the measuring thread waits for it.
    var engine: TextMeasurer { engineFuture.engine }
    private let engineFuture: EngineFuture
    let wantsStarts: Bool
    let wantsBoxes: Bool
    let exactNumbers: Bool
    let offsets: OffsetUnit
    let workers: Int?
    var cellParser: CellParser
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
        for name in ["workers", "batch-size"] {
            if let n = args.int(name), n < 1 { throw args.invalidValue(of: name, "\(n) is out of range (must be ≥ 1)") }
        }
        let configuration = config
        let inBackground = (args.int("workers") ?? Self.coreCount) > 1
        let style = defaults.style
        engineFuture = EngineFuture(inBackground: inBackground) {
            let engine = TextMeasurer(configuration: configuration)
            // The default style's cascade (its fonts loaded) is ready before the first batch
            // asks, while that batch is still being read (the resolver keeps cascades).
            if inBackground { _ = engine.resolve(style) }
            return engine
        }
        wantsStarts = args.flag("line-starts")
        wantsBoxes = args.flag("lines")
        exactNumbers = args.flag("exact-numbers")
        let unit = args.string("offsets") ?? "scalars"
        guard let offsets = OffsetUnit(rawValue: unit) else {
            throw args.invalidValue(of: "offsets", "unknown unit '\(unit)' (one of \(OffsetUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.offsets = offsets
        workers = args.int("workers")
        batchSize = args.int("batch-size") ?? Self.defaultBatchSize
    }

    /// Runs the command; returns the exit status (1 if any line failed).
    ///
    /// With more than one worker, batches go through a pipeline: one batch is measured (on
    /// every worker) while the main thread parses the next and writes the one before, so
    /// parsing and writing no longer leave the cores idle between batches. Output order and
    /// whole-batch writes are unchanged. With one worker everything stays on one thread (what
    /// `--workers 1` promises).
    mutating func run() throws -> Int32 {
        let path = args.positional("file")
        let reader = try LineReader.openInput(path)
        if args.flag("progress"), let path, path != "-" { total = Self.countLines(path) }
        var batch: [Input] = []
        var batchLimit = batchSize
        let largestBatch = max(batchSize, Self.largestBatchSize)
        // Room for what a batch holds at most, never more than the largest default batch: a
        // large `--batch-size` (10⁸ lines: 30 GB) must not be allocated before a line is read.
        batch.reserveCapacity(min(batchLimit, Self.largestBatchSize))
        let pipeline = (workers ?? Self.coreCount) > 1 ? MeasurePipeline(measurer) : nil
        // A batch ends when it is full, and when input pauses: output never waits for lines
        // that have not arrived (a slow producer, a terminal).
        try reader.forEachLine(onPause: {
            if !batch.isEmpty {
                submit(batch, to: pipeline)
                batch.removeAll(keepingCapacity: true)
            }
            drain(pipeline)
        }) { number, bytes in
            guard let input = parse(number, bytes) else {
                skipped += 1
                return
            }
            batch.append(input)
            if batch.count >= batchLimit {
                submit(batch, to: pipeline)
                batchLimit = batchLimit > largestBatch / 2 ? largestBatch : batchLimit * 2
                batch = []
                batch.reserveCapacity(min(batchLimit, Self.largestBatchSize))
            }
        }
        if !batch.isEmpty { submit(batch, to: pipeline) }
        drain(pipeline)
        // A closing progress line when none was printed yet, the total was unknown or lines
        // were read since the last one (blank lines after the last batch).
        if args.flag("progress") && (lastProgress == 0 || total == nil || lastProgressCount != done + skipped) {
            printProgress()
        }
        if args.flag("stats") { printStats() }
        // The process exits once this returns: the engine's caches (every prepared text, its
        // segments and results) are left to the exit instead of being freed block by block
        // (~5–10 % of a 40,000-row run in `perf`: `PreparedText` deinit, `free`, consolidation).
        _ = Unmanaged.passRetained(engine)
        return errors > 0 ? 1 : 0
    }

    /// The machine's cores (the engine's default worker count).
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Measures and writes `batch`: at once without a pipeline; else queued behind the batch
    /// being measured, writing that one's lines once two are in flight.
    mutating func submit(_ batch: [Input], to pipeline: MeasurePipeline?) {
        guard let pipeline else { return flush(batch) }
        pipeline.submit(batch)
        while let measured = pipeline.nextIfMeasured() { write(measured) }
        while pipeline.inFlight > Self.batchesAhead || pipeline.linesAhead > max(batchSize, Self.largestBatchSize) {
            write(pipeline.next())
        }
    }

    /// Batches parsed ahead of the one being measured, at most. Four let the main thread read
    /// and parse while the engine is still being made (fontconfig's configuration, ~4 ms, the
    /// other core idle otherwise) and leave it less to do while both cores measure. Their
    /// lines are bounded too, by the largest batch (4,096 by default): with growing batches,
    /// four ahead held up to 16,384 parsed lines (`plumb measure` of 100,000 rows: peak RSS
    /// 92.2 → 103.9 MB; with the bound 99.3 MB).
    static let batchesAhead = 4

    /// Writes every batch still in the pipeline.
    mutating func drain(_ pipeline: MeasurePipeline?) {
        guard let pipeline else { return }
        while pipeline.inFlight > 0 { write(pipeline.next()) }
    }

    /// What measures a batch: the engine and the options that choose its calls (shared with
    /// the pipeline's thread).
    var measurer: BatchMeasurer {
        BatchMeasurer(engineFuture: engineFuture, workers: workers, wantsLayouts: wantsStarts || wantsBoxes)
    }

    /// Parses one line into a cell request or an error for that line (`CellParser`, shared
    /// with `render`); nil for a blank line, which is skipped.
    mutating func parse(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Input? {
        cellParser.parse(number, bytes)
    }


    /// Measures a batch on all workers and writes its lines in input order.
    mutating func flush(_ batch: [Input]) {
        write(measurer.measure(batch))
    }

    /// Writes a measured batch's lines in input order, whole (see `Interruption`).
    mutating func write(_ measured: MeasuredBatch) {
        let batch = measured.batch
        var all: [UInt8] = []
        all.reserveCapacity(batch.count * 96)
        var out = JSONWriter(reservingCapacity: 256)
        // Numbers rounded to 6 decimals unless --exact-numbers asks for the shortest round-trip text.
        out.roundsNumbers = !exactNumbers
        // Fields are read from the batch in place: a `for (i, input)` loop, or an input passed
        // on whole, copies it (retaining its text, id and every string of its style).
        batch.withUnsafeBufferPointer { inputs in
            for i in inputs.indices {
                out.reset()
                out.beginObject()
                out.key(literal: "id")
                out.write(inputs[i].id)
                if let error = inputs[i].error ?? measured.measurements[i].flatMap(Self.tooLong) {
                    errors += 1
                    out.field("line", inputs[i].line)
                    out.field("error", error)
                } else if let m = measured.measurements[i] {
                    write(
                        m, layout: measured.layouts[i], inputWarnings: inputs[i].warnings,
                        asksForToken: inputs[i].request.style.truncationToken != nil, to: &out)
                }
                out.endObject()
                all.append(contentsOf: out.bytes)
                all.append(0x0A)
            }
        }
        // Whole batches only: an interrupt waits for this write to finish (see Interruption).
        Interruption.whileWritingOutput { Output.standardOutput(all) }
        done += batch.count
        if args.flag("progress") {
            let now = DispatchTime.now().uptimeNanoseconds
            if now - lastProgress >= 1_000_000_000 || done + skipped == total { printProgress() }
        }
    }

    /// A text over the size limit is an error for its line, not a stand-in height.
    static func tooLong(_ m: TextMeasurement) -> String? {
        for case .textTooLong(let bytes, let limit) in m.warnings {
            return "the text is \(bytes) UTF-8 bytes, over the limit of \(limit) (--max-text-bytes)"
        }
        return nil
    }

    /// Writes one measured line's fields: `inputWarnings` are the line's own (from parsing),
    /// `asksForToken` whether its style has a truncation token (only then is the token's rect
    /// written). Two fields, not the whole input: passing an input copied it, with every
    /// string of its style.
    func write(_ m: TextMeasurement, layout: TextLayout?, inputWarnings: [String], asksForToken: Bool, to out: inout JSONWriter) {
        // The fields of every line, keys copied as they are (`key(literal:)`).
        out.key(literal: "height")
        out.write(m.height)
        out.key(literal: "width")
        out.write(m.width)
        out.key(literal: "lines")
        out.write(m.lineCount)
        out.key(literal: "truncated")
        out.write(m.isTruncated)
        if m.isFallback { out.field("fallback", true) }
        if let layout {
            let converter = OffsetUnit.Converter(offsets)
            if wantsStarts {
                out.key("lineStarts")
                out.beginArray()
                for line in layout.lines { out.write(converter.range(of: line).lowerBound) }
                out.endArray()
            }
            if wantsBoxes {
                out.key("lineBoxes")
                out.beginArray()
                for line in layout.lines {
                    let range = converter.range(of: line)
                    out.beginObject()
                    out.field("start", range.lowerBound)
                    out.field("end", range.upperBound)
                    out.key("rect")
                    out.beginArray()
                    for v in [line.rect.x, line.rect.y, line.rect.width, line.rect.height] { out.write(v) }
                    out.endArray()
                    out.field("baseline", line.baseline)
                    out.field("usedWidth", line.usedWidth)
                    if line.direction == .rightToLeft { out.field("rtl", true) }
                    out.endObject()
                }
                out.endArray()
                if !layout.inlineBoxes.isEmpty { writeBoxes(layout.inlineBoxes, converter, to: &out) }
                // The token's rect when the cell asks for a token (so a plain cell answers as before).
                if asksForToken, let token = layout.truncationToken {
                    out.key("token")
                    out.beginObject()
                    out.field("line", token.line)
                    out.key("rect")
                    out.beginArray()
                    for v in [token.rect.x, token.rect.y, token.rect.width, token.rect.height] { out.write(v) }
                    out.endArray()
                    if !token.boxes.isEmpty { writeBoxes(token.boxes, converter, to: &out) }
                    out.endObject()
                }
            }
        }
        let warnings = inputWarnings + m.warnings.map(\.description)
        if !warnings.isEmpty {
            out.key("warnings")
            out.beginArray()
            for w in warnings { out.write(w) }
            out.endArray()
        }
    }

    /// `"boxes"`: each inline box the layout (or its truncation token) shows, with its id, rect,
    /// line and offset (absent when it shows none, so a cell without boxes answers as its
    /// `"text"` form; a token box's offset counts in the token's text).
    func writeBoxes(_ boxes: [InlineBoxPlacement], _ converter: OffsetUnit.Converter, to out: inout JSONWriter) {
        out.key("boxes")
        out.beginArray()
        for box in boxes {
            out.beginObject()
            if let id = box.id { out.field("id", id) } else { out.field("id", JSONValue.null) }
            out.key("rect")
            out.beginArray()
            for v in [box.rect.x, box.rect.y, box.rect.width, box.rect.height] { out.write(v) }
            out.endArray()
            out.field("line", box.line)
            out.field("offset", converter.offset(of: box))
            out.endObject()
        }
        out.endArray()
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
    /// (a duplicate of a cell measured in the same batch counts as a hit), a hit one answered
    /// from the cache. Bytes: what the entries use, and for the result table what it has
    /// allocated (it reserves slots ahead of its entries).
    func printStats() {
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
struct MeasuredBatch: @unchecked Sendable {  // handed from the measuring thread to the writer once
    let batch: [CellInput]
    var measurements: [TextMeasurement?]
    var layouts: [TextLayout?]
}

/// Measures `plumb measure`'s batches: the engine's batch calls per scale, plain and
/// attributed cells apart.
struct BatchMeasurer: @unchecked Sendable {  // immutable; the engine is thread-safe
    let engineFuture: EngineFuture
    /// The engine (the first batch waits here, on the measuring thread, until it is made).
    var engine: TextMeasurer { engineFuture.engine }
    let workers: Int?
    let wantsLayouts: Bool

    /// Measures the valid cells of `batch` (lines with errors stay unmeasured).
    func measure(_ batch: [CellInput]) -> MeasuredBatch {
        var measured = MeasuredBatch(
            batch: batch, measurements: [TextMeasurement?](repeating: nil, count: batch.count),
            layouts: [TextLayout?](repeating: nil, count: batch.count))
        // Cells of one scale are measured together (scale is per batch call). Each cell is
        // made once, for its scale's call: a `Cell` copy retains the text and every string
        // and array of the style, and copying the cells again per scale was ~1 % of a cold run.
        var plainByScale: [Double: [Int]] = [:]
        var rich: [Int] = []
        for i in batch.indices where batch[i].error == nil {
            if batch[i].runs == nil {
                plainByScale[batch[i].request.scale, default: []].append(i)
            } else {
                rich.append(i)
            }
        }
        for (scale, indices) in plainByScale {
            let cells = indices.map { Cell(text: batch[$0].text, style: batch[$0].request.style, width: batch[$0].request.width) }
            if wantsLayouts {
                for (i, layout) in zip(indices, engine.layouts(for: cells, scale: scale, workers: workers)) {
                    measured.layouts[i] = layout
                    measured.measurements[i] = layout.measurement
                }
            } else {
                for (i, m) in zip(indices, engine.heights(for: cells, scale: scale, workers: workers)) { measured.measurements[i] = m }
            }
        }
        measureRich(rich, of: batch, into: &measured)
        return measured
    }

    /// Measures the `"runs"` cells of a batch (attributed batches, one per scale).
    func measureRich(_ rich: [Int], of batch: [CellInput], into measured: inout MeasuredBatch) {
        var byScale: [Double: [Int]] = [:]
        for i in rich { byScale[batch[i].request.scale, default: []].append(i) }
        for (scale, indices) in byScale {
            let cells = indices.map { AttributedCell(text: batch[$0].runs!, style: batch[$0].request.style, width: batch[$0].request.width) }
            if wantsLayouts {
                for (i, layout) in zip(indices, engine.layouts(for: cells, scale: scale, workers: workers)) {
                    measured.layouts[i] = layout
                    measured.measurements[i] = layout.measurement
                }
            } else {
                for (i, m) in zip(indices, engine.heights(for: cells, scale: scale, workers: workers)) { measured.measurements[i] = m }
            }
        }
    }
}

/// Batches measured on a thread of their own, in submission order, while the caller parses
/// and writes: `submit` queues a batch, `next` waits for the oldest one still in flight.
///
/// - Thread safety: `submit`, `next` and `inFlight` from one thread (the command's); the
///   measuring runs on a serial queue and hands each result over under a lock.
final class MeasurePipeline: @unchecked Sendable {  // `pending` is the caller's; results cross under `results`' lock
    private let measurer: BatchMeasurer
    private let queue = DispatchQueue(label: "plumb.measure")
    /// Measured batches by submission number, until `next()` takes them.
    private let results = Mutex<[Int: MeasuredBatch]>([:])
    /// Submitted batches not yet taken, oldest first, with the semaphore their measuring signals.
    private var pending: [(number: Int, lines: Int, ready: DispatchSemaphore)] = []
    private var submitted = 0

    init(_ measurer: BatchMeasurer) { self.measurer = measurer }

    /// Batches submitted and not yet taken by `next()`.
    var inFlight: Int { pending.count }

    /// Lines of the batches in flight after the oldest one (parsed ahead of it).
    var linesAhead: Int { pending.dropFirst().reduce(0) { $0 + $1.lines } }

    /// Queues `batch` for measuring.
    func submit(_ batch: [CellInput]) {
        let number = submitted
        submitted += 1
        let ready = DispatchSemaphore(value: 0)
        pending.append((number, batch.count, ready))
        let work = Work(batch: batch)
        queue.async { [self] in
            let measured = measurer.measure(work.batch)
            results.withLock { $0[number] = measured }
            ready.signal()
        }
    }

    /// The oldest batch in flight if it is measured already (never waits).
    func nextIfMeasured() -> MeasuredBatch? {
        guard let (number, _, ready) = pending.first, ready.wait(timeout: .now()) == .success else { return nil }
        pending.removeFirst()
        return results.withLock { $0.removeValue(forKey: number)! }
    }

    /// The oldest batch in flight, measured (waits for it).
    func next() -> MeasuredBatch {
        let (number, _, ready) = pending.removeFirst()
        ready.wait()
        return results.withLock { $0.removeValue(forKey: number)! }
    }

    /// A batch handed to the measuring thread (read there only).
    private struct Work: @unchecked Sendable {  // moved to one thread, never shared
        let batch: [CellInput]
    }
}

/// A value made at once or on a global queue, taken (waiting for it if need be) on first use.
///
/// - Thread safety: `engine` from any thread; the group orders the maker's write before
///   every read.
final class EngineFuture: @unchecked Sendable {  // `made` is written once, before `group` is left
    private var made: TextMeasurer?
    private let group = DispatchGroup()

    init(inBackground: Bool, _ make: @escaping @Sendable () -> TextMeasurer) {
        guard inBackground else {
            made = make()
            return
        }
        group.enter()
        DispatchQueue.global().async { [self] in
            made = make()
            group.leave()
        }
    }

    /// The engine (waits until it is made).
    var engine: TextMeasurer {
        group.wait()
        return made.unsafelyUnwrapped
    }
}
