import CLIKit
import Dispatch
import Plumb
import Synchronization

/// Input lines as read, before parsing: their bytes back to back, each line's end and
/// number. What the main thread hands to a worker (a copy of the bytes: the reader's buffer
/// is reused for the next read).
struct RawChunk: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var numbers: [Int] = []

    /// An empty chunk with room for `lines` lines of a usual length (at most 4,096 lines'
    /// worth: a large `--batch-size` is a limit, not an allocation).
    init(reservingLines lines: Int) {
        let n = min(lines, 4096)
        bytes.reserveCapacity(n * 128)
        ends.reserveCapacity(n)
        numbers.reserveCapacity(n)
    }

    /// Lines held.
    var count: Int { ends.count }
    var isEmpty: Bool { ends.isEmpty }

    /// Appends line `number` (its bytes without the newline).
    mutating func append(_ number: Int, _ line: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: line)
        ends.append(bytes.count)
        numbers.append(number)
    }

    /// Calls `body` with each line's number and bytes, in order.
    func forEachLine(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for (end, number) in zip(ends, numbers) {
                body(number, UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }
}

/// A chunk's answer lines, ready to write, and what they count for.
struct ChunkOutput: Sendable {
    var bytes: [UInt8]
    var lines: Int
    var errors: Int
    /// `--list`: the rows, placed by the main thread (`bytes` is empty then).
    var list: [ListEntry] = []
}

/// What a worker does with a chunk: parse its lines, measure them (one engine batch call on
/// the worker's own thread), format the answers.
///
/// - Thread safety: an immutable value; every worker runs `process` concurrently on chunks
///   of its own (each with its own parser).
struct ChunkProcessor: Sendable {
    let defaults: CellRequest
    let measurer: BatchMeasurer
    let writer: ResultWriter

    /// The answers of `chunk`'s lines, in order.
    ///
    /// - Complexity: the chunk's parse, measurement and output; its parsed cells are freed
    ///   here, on the worker, once they are written.
    func process(_ chunk: RawChunk) -> ChunkOutput {
        var parser = CellParser(defaults: defaults)
        return answer(parse(chunk, with: &parser))
    }

    /// The cells of `chunk`'s lines (blank lines skipped), parsed with `parser`.
    func parse(_ chunk: RawChunk, with parser: inout CellParser) -> [CellInput] {
        var inputs: [CellInput] = []
        inputs.reserveCapacity(chunk.count)
        chunk.forEachLine { number, bytes in
            // Moved in, not copied: a copy retains the text, the id and the style's strings.
            if let input = parser.parse(number, bytes) { inputs.append(consume input) }
        }
        return inputs
    }

    /// The answers of parsed cells, in order (waits for the engine if it is still being made).
    func answer(_ inputs: [CellInput]) -> ChunkOutput {
        let measured = measurer.measure(inputs)
        if writer.wantsList {
            let list = writer.listEntries(measured)
            return ChunkOutput(bytes: [], lines: inputs.count, errors: list.count { $0.error != nil }, list: list)
        }
        let (bytes, errors) = writer.format(measured)
        return ChunkOutput(bytes: bytes, lines: inputs.count, errors: errors)
    }
}

/// `plumb measure`'s workers: each takes the oldest chunk not yet taken and parses, measures
/// and formats it on its own, while the main thread only reads lines and writes answers.
/// Answers come back in submission order.
///
/// Nothing is serial between chunks: a worker that finishes takes the next chunk at once
/// (no batch-wide hand-over, no tail where one core waits for the other), and parsing and
/// writing JSON, which ran on the main thread beside both workers, is shared by every worker.
///
/// - Thread safety: `submit`, `nextIfDone`, `next`, `waitForHalf`, `inFlight` and `close`
///   from one thread (the command's); the workers take jobs under `queueLock` and hand each
///   result over through its job's atomic flag (and semaphore, for a caller that waits).
final class ChunkPool: @unchecked Sendable {  // `pending` is the caller's; `jobs` is under `queueLock`
    /// One submitted chunk: its output is written once, by the worker, before `finished` is set.
    private final class Job: @unchecked Sendable {  // `output` is published by `finished` (release/acquire)
        /// The lines as read, or already parsed (by the main thread, while the engine was
        /// being made); read by the one worker that takes the job.
        let work: Work
        var output: ChunkOutput?
        /// Set (releasing `output`) when the output is written: checking it never sleeps,
        /// where `DispatchSemaphore.wait(timeout: .now())` takes the wall-clock overload and
        /// sleeps in a timed futex wait.
        let finished = Atomic<Bool>(false)
        /// Signalled after `finished` is set, for a caller that waits.
        let done = DispatchSemaphore(value: 0)
        init(_ work: Work) { self.work = work }

        var isFinished: Bool { finished.load(ordering: .acquiring) }

        /// Waits for the output (returns at once if it is written); whether it had to wait.
        func wait() -> Bool {
            if isFinished { return false }
            done.wait()
            return true
        }
    }

    private enum Work {
        case lines(RawChunk)
        case parsed([CellInput])
    }

    private let processor: ChunkProcessor
    /// Jobs not yet taken by a worker, oldest first (`nil`: a worker's signal to stop); read
    /// and written only while holding `queueLock`.
    private var jobs = FIFO<Job?>()
    /// The lock of `jobs`: a semaphore, which ThreadSanitizer sees, where the standard
    /// library's `Mutex` is invisible to it on this platform (Plumb's own `Lock` annotates
    /// it for TSan; see `Support/Lock.swift`). Uncontended, a wait and a signal are one
    /// atomic operation each.
    private let queueLock = DispatchSemaphore(value: 1)
    /// Counts the entries of `jobs` (one per job, one per stop signal).
    private let available = DispatchSemaphore(value: 0)
    /// The worker threads.
    let workerCount: Int
    /// Submitted jobs not yet returned by `next`/`nextIfDone`, oldest first (caller only).
    private var pending = FIFO<Job>()

    /// Starts `workers` threads that run `processor` on the chunks submitted.
    init(workers: Int, processor: ChunkProcessor) {
        self.processor = processor
        workerCount = workers
        for k in 0..<workers {
            // A serial queue per worker: each gets a thread of its own at once (serial queues
            // target Dispatch's overcommitting pool). Blocks on one concurrent queue would share
            // the default pool, as wide as the cores, with the engine's maker: the second worker
            // would start only once the engine is made.
            DispatchQueue(label: "plumb.measure.worker\(k)").async { [self] in
                while let job = take() {
                    switch job.work {
                    case .lines(let chunk): job.output = processor.process(chunk)
                    case .parsed(let inputs): job.output = processor.answer(inputs)
                    }
                    job.finished.store(true, ordering: .releasing)
                    job.done.signal()
                }
            }
        }
    }

    /// Submitted chunks whose output was not taken yet.
    var inFlight: Int { pending.count }

    /// Chunks submitted so far.
    private(set) var submitted = 0
    /// Times the caller had to wait for a chunk (`next`, `waitForHalf`): it sleeps only when
    /// it is a window ahead of the workers, and to drain, not once per chunk (`--stats`).
    private(set) var waits = 0

    /// Queues `chunk` for the next free worker.
    func submit(_ chunk: RawChunk) { submit(Job(.lines(chunk))) }

    /// Queues cells already parsed for the next free worker.
    func submit(parsed inputs: [CellInput]) { submit(Job(.parsed(inputs))) }

    private func submit(_ job: Job) {
        pending.append(job)
        submitted += 1
        put(job)
    }

    /// The oldest chunk's output if it is done (never waits).
    func nextIfDone() -> ChunkOutput? {
        guard let oldest = pending.first, oldest.isFinished else { return nil }
        return pending.removeFirst().output!
    }

    /// Waits until the chunk halfway through those in flight is done (the workers take them
    /// oldest first, so most before it are done too): the main thread then sleeps through
    /// many chunks instead of being woken for each one — a wake-up on a core both workers
    /// use takes one of them off it.
    func waitForHalf() {
        guard inFlight > 1 else { return }
        if pending[inFlight / 2].wait() { waits += 1 }
    }

    /// The oldest chunk's output (waits for it).
    func next() -> ChunkOutput {
        let oldest = pending.removeFirst()
        if oldest.wait() { waits += 1 }
        return oldest.output!
    }

    /// Lets the workers end once the queue is empty.
    func close() {
        for _ in 0..<workerCount { put(nil) }
    }

    private func put(_ job: Job?) {
        queueLock.wait()
        jobs.append(job)
        queueLock.signal()
        available.signal()
    }

    /// The oldest job not taken (waits for one); nil once the pool is closed.
    private func take() -> Job? {
        available.wait()
        queueLock.wait()
        defer { queueLock.signal() }
        return jobs.removeFirst()
    }
}

/// A first-in, first-out queue over an array: taken elements are released at once and their
/// slots dropped now and then, so each operation is O(1) amortised.
private struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    /// Elements not yet removed.
    var count: Int { slots.count - head }
    /// The oldest element, if any.
    var first: Element? { head < slots.count ? slots[head] : nil }

    /// The element `k` places after the oldest (`k < count`).
    subscript(k: Int) -> Element { slots[head + k]! }

    mutating func append(_ element: Element) { slots.append(element) }

    /// Removes and returns the oldest element (the queue must not be empty).
    mutating func removeFirst() -> Element {
        let element = slots[head]!
        slots[head] = nil
        head += 1
        if head >= 64 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }
}
