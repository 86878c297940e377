import Dispatch
import Foundation
@testable import Plumb
import Synchronization
import Testing

/// One `Cell` for plain and attributed content, one batch engine for both: progress,
/// cancellation, de-duplication and `async` hold for attributed cells as for plain ones.
@Suite struct OneFrontTests {
    /// A distinct attributed feed row: a bold name, a mention in another size, an inline
    /// avatar every third row.
    static func richRow(_ i: Int) -> AttributedText {
        var t = AttributedText("User \(i) ", TextAttributes(weight: 700))
        t.append("wrote a message number \(i) with ")
        t.append("@mention\(i % 97)", TextAttributes(size: 13))
        if i % 3 == 0 { t.append(InlineBox(width: 16, height: 16, baselineOffset: -3, id: "avatar\(i)")) }
        t.append(" and some more words to wrap")
        return t
    }

    static func richCells(_ n: Int) -> [Cell] {
        (0..<n).map { Cell(text: richRow($0), style: style15(), width: 180) }
    }

    /// A mixed list of plain and attributed rows reports progress that only grows and
    /// reaches its total once, when every row has been measured (each distinct row is one
    /// prepared text, so the tier-1 misses count the rows measured at each report).
    @Test func aMixedListReportsProgressUpToItsTotalOnlyAtTheEnd() async throws {
        let engine = TextMeasurer()
        let rows = (0..<600).map { i in
            i % 2 == 0
                ? ListRow(id: i, text: "plain row \(i) of a mixed feed with words", style: style15(), width: 180, extraHeight: 8)
                : ListRow(id: i, attributedText: Self.richRow(i), style: style15(), width: 180, extraHeight: 8)
        }
        let seen = Synchronization.Mutex<[(snapshot: BatchProgress.Snapshot, measured: Int)]>([])
        let list = try await engine.listHeights(for: rows, workers: 2) { snapshot in
            let measured = engine.cacheStatistics.prepared.misses
            seen.withLock { $0.append((snapshot, measured)) }
        }
        let reports = seen.withLock { $0 }
        #expect(reports.count >= 2)
        #expect(reports.allSatisfy { $0.snapshot.total == rows.count })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.snapshot.completed < $1.snapshot.completed })
        #expect(reports.filter { $0.snapshot.completed == rows.count }.count == 1)
        #expect(reports.last?.snapshot.completed == rows.count)
        #expect(reports.last?.measured == rows.count, "the total was reported before every row was measured")
        let reference = TextMeasurer()
        for (i, row) in rows.enumerated() {
            let text = reference.measure(row.cell).height
            #expect(list.height(at: i) == PixelGrid(scale: 2).ceil(text + 8))
        }
    }

    /// A progress handler that, at the first report of at least 10 % of `total`, tells the
    /// test (`reached`) and holds its worker until the test has cancelled (`gate`): reports
    /// are serialised, so no chunk reports, and no batch moves on, before the cancellation.
    /// Counts work, no timing.
    final class TenPercentGate: Sendable {
        let reached = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let fired = Atomic<Bool>(false)

        func handler(total: Int) -> TextMeasurer.ProgressHandler {
            { [self] snapshot in
                guard snapshot.completed >= total / 10,
                    fired.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
                else { return }
                reached.signal()
                gate.wait()  // a Dispatch worker, never a cooperative thread
            }
        }
    }

    /// Cancelling a batch of 20,000 attributed rows at ~10 % stops it before 30 % of the rows
    /// are measured, through `heights` and through `listHeights` alike.
    @Test(arguments: ["heights", "listHeights"])
    func cancellingARichBatchStopsIt(_ call: String) throws {
        let engine = TextMeasurer()
        let cells = Self.richCells(20_000)
        let stop = TenPercentGate()
        let progress = BatchProgress(reporting: stop.handler(total: cells.count))
        let outcome = Synchronization.Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                if call == "heights" {
                    _ = try engine.heights(for: cells, workers: 2, progress: progress)
                } else {
                    let rows = cells.enumerated().map { ListRow(id: $0, cell: $1) }
                    _ = try engine.listHeights(for: rows, workers: 2, progress: progress)
                }
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }
        stop.reached.wait()
        progress.cancel()
        stop.gate.signal()
        finished.wait()
        #expect(outcome.withLock { $0 } is BatchCancelled)
        let measured = engine.cacheStatistics.prepared.misses
        #expect(measured >= cells.count / 10)
        #expect(measured < cells.count * 3 / 10, "\(measured) of \(cells.count) rows measured after cancelling at 10 %")
    }

    /// Cancelling the task of an `async` list of attributed rows at ~10 % throws
    /// `CancellationError` before 30 % of the rows are measured.
    @Test func cancellingAnAsyncRichListStopsIt() async throws {
        let engine = TextMeasurer()
        let rows = Self.richCells(20_000).enumerated().map { ListRow(id: $0, cell: $1) }
        let stop = TenPercentGate()
        let task = Task { try await engine.listHeights(for: rows, workers: 2, progress: stop.handler(total: rows.count)) }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                stop.reached.wait()
                done.resume()
            }
        }
        task.cancel()
        stop.gate.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        let measured = engine.cacheStatistics.prepared.misses
        #expect(measured >= rows.count / 10)
        #expect(measured < rows.count * 3 / 10, "\(measured) of \(rows.count) rows measured after cancelling at 10 %")
    }

    /// Repeated attributed cells in one batch are measured once: ten distinct cells, each a
    /// hundred times, are ten misses, 990 hits and ten prepared texts.
    @Test func repeatedAttributedCellsAreMeasuredOnce() {
        let engine = TextMeasurer()
        let distinct = Self.richCells(10)
        let cells = (0..<1_000).map { distinct[($0 * 7) % 10] }
        let results = engine.heights(for: cells, workers: 2)
        let stats = engine.cacheStatistics
        #expect(stats.results.misses == 10)
        #expect(stats.results.hits == 990)
        #expect(stats.prepared.misses == 10)
        let reference = TextMeasurer()
        #expect(results == cells.map { reference.measure($0) })
    }

    /// A batch mixing plain and attributed cells (attributed ones whose runs set nothing
    /// among them) answers each as the single-cell call, at any worker count, for heights
    /// and layouts, synchronous and `async`.
    @Test func mixedBatchesAnswerAsSingleCells() async throws {
        var cells: [Cell] = []
        for i in 0..<90 {
            switch i % 3 {
            case 0: cells.append(Cell(text: "plain \(i) words to wrap here", style: style15(), width: 90))
            case 1: cells.append(Cell(text: Self.richRow(i), style: style15(), width: 150))
            default: cells.append(Cell(text: AttributedText("runs that set nothing \(i)"), style: style15(), width: 90))
            }
        }
        let reference = TextMeasurer()
        let heights = cells.map { reference.measure($0) }
        let layouts = cells.map { reference.layout($0) }
        for workers in [1, 2] {
            let engine = TextMeasurer()
            #expect(try await engine.heights(for: cells, workers: workers) == heights)
            let batch = try await engine.layouts(for: cells, workers: workers)
            #expect(batch.map(\.lines) == layouts.map(\.lines))
            #expect(batch.map(\.inlineBoxes) == layouts.map(\.inlineBoxes))
        }
        // An attributed text whose runs set nothing is its plain string.
        #expect(heights[2] == reference.measure(cells[2].text, style: style15(), width: 90))
    }

    /// A `Cell`'s content reads and writes as one value.
    @Test func aCellHoldsPlainOrAttributedContent() {
        var cell = Cell(text: "plain", style: style15(), width: 100)
        #expect(cell.content == .plain("plain") && cell.attributedText == nil)
        let runs = Self.richRow(3)
        cell.content = .attributed(runs)
        #expect(cell.text == runs.string && cell.attributedText == runs)
        #expect(cell == Cell(text: runs, style: style15(), width: 100))
        cell.content = .plain("again")
        #expect(cell.attributedText == nil && cell.text == "again")
    }

    /// A cell or a row with a NaN width or extra height equals itself and is found in a set.
    @Test func nanFieldsKeepEqualityReflexive() {
        let cell = Cell(text: "a", style: style15(), width: .nan)
        #expect(cell == cell)
        #expect(Set([cell]).contains(Cell(text: "a", style: style15(), width: -.nan)))
        let row = ListRow(id: 1, cell: Cell(text: "a", style: style15(), width: 10), extraHeight: .nan)
        #expect(row == row)
        #expect(Set([row]).contains(row))
        #expect(Cell(text: "a", style: style15(), width: 0).hashValue == Cell(text: "a", style: style15(), width: -0.0).hashValue)
    }

    /// A CLI line with `"runs"` decodes as the one `Cell`; cells and rows round-trip in the
    /// CLI's wire shape.
    @Test func runsLinesDecodeAsCells() throws {
        let line = #"{"id": 7, "runs": [{"text": "Ann ", "weight": 700}, {"attachment": {"width": 16, "height": 16, "id": "a"}}, {"text": " hi"}], "width": 200, "size": 15, "extraHeight": 12}"#
        let cell = try JSONDecoder().decode(Cell.self, from: Data(line.utf8))
        #expect(cell.attributedText?.runs.count == 3)
        #expect(cell.attributedText?.inlineBoxes.first?.box.id == "a")
        #expect(cell.text == "Ann \u{FFFC} hi" && cell.width == 200 && cell.style.font.size == 15)
        let row = try JSONDecoder().decode(ListRow<Int>.self, from: Data(line.utf8))
        #expect(row.id == 7 && row.extraHeight == 12 && row.cell == cell)
        #expect(try JSONDecoder().decode(Cell.self, from: JSONEncoder().encode(cell)) == cell)
        #expect(try JSONDecoder().decode(ListRow<Int>.self, from: JSONEncoder().encode(row)) == row)
        let plain = Cell(text: "plain", style: style15(), width: 80)
        #expect(try JSONDecoder().decode(Cell.self, from: JSONEncoder().encode(plain)) == plain)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Cell.self, from: Data(#"{"text": "a", "runs": "b"}"#.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Cell.self, from: Data(#"{"width": 3}"#.utf8)) }
    }
}
