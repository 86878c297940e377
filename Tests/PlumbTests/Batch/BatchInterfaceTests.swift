import Dispatch
@testable import Plumb
import PropertyTesting
import Synchronization
import Testing

/// The synchronous batch calls, from a synchronous context (in an `async` function the
/// `async` overloads are chosen).
enum Sync {
    static func heights(_ texts: [String], _ style: TextStyle) -> [TextMeasurement] {
        TextMeasurer().heights(for: texts, style: style, width: 120)
    }
    static func heights(_ cells: [Cell], scale: Double, engine: TextMeasurer = TextMeasurer()) -> [TextMeasurement] {
        engine.heights(for: cells, scale: scale, workers: 1)
    }
    static func layouts(_ cells: [Cell]) -> [TextLayout] { TextMeasurer().layouts(for: cells) }
    static func list(_ rows: [(id: Int, text: String)], _ style: TextStyle) throws -> ListHeights<Int> {
        try TextMeasurer().listHeights(for: rows, style: style, width: 120)
    }
    static func list(_ rows: [ListRow<Int>]) throws -> ListHeights<Int> { try TextMeasurer().listHeights(for: rows) }
}

/// The `async` batch calls, UTF-16 line ranges and lists of `ListRow`s.
@Suite struct BatchInterfaceTests {
    static let texts = Gen<String>.text(maxClusters: 30).sample(count: 150, seed: 11) + ["dup", "dup", "", "dup"]
    static let cells = texts.enumerated().map {
        Cell(text: $1, style: $0 % 2 == 0 ? style15() : style15(["Noto Serif"]), width: Double(80 + $0 % 5 * 40))
    }

    /// Each `async` call answers exactly what its synchronous twin answers.
    @Test func asyncResultsAreTheSyncResults() async throws {
        let style = style15()
        let sync = Sync.heights(Self.texts, style)
        let asyncHeights = try await TextMeasurer().heights(for: Self.texts, style: style, width: 120)
        #expect(asyncHeights == sync)
        #expect(try await TextMeasurer().heights(for: Self.cells, scale: 3, workers: 1) == Sync.heights(Self.cells, scale: 3))
        let layouts = try await TextMeasurer().layouts(for: Self.cells, workers: 2)
        let syncLayouts = Sync.layouts(Self.cells)
        #expect(layouts.map(\.lines) == syncLayouts.map(\.lines))
        #expect(layouts.map(\.measurement) == syncLayouts.map(\.measurement))
        let rows = Self.texts.enumerated().map { (id: $0, text: $1) }
        let list = try await TextMeasurer().listHeights(for: rows, style: style, width: 120)
        let syncList = try Sync.list(rows, style)
        #expect((0...rows.count).map { list.offset(ofRowAt: $0) } == (0...rows.count).map { syncList.offset(ofRowAt: $0) })
        let listRows = Self.cells.enumerated().map { ListRow(id: $0, cell: $1, extraHeight: Double($0 % 4) * 5.25) }
        let rowList = try await TextMeasurer().listHeights(for: listRows)
        let syncRowList = try Sync.list(listRows)
        #expect((0..<listRows.count).map { rowList.height(at: $0) } == (0..<listRows.count).map { syncRowList.height(at: $0) })
        await #expect(throws: DuplicateRowID<Int>.self) {
            try await TextMeasurer().listHeights(for: rows + [rows[0]], style: style, width: 120)
        }
    }

    /// Progress arrives chunk by chunk, counts only grow, the last is the whole batch.
    @Test func asyncProgressIsReported() async throws {
        let seen = Synchronization.Mutex<[BatchProgress.Snapshot]>([])
        let texts = (0..<700).map { "progress row \($0) with a few words" }
        _ = try await TextMeasurer().heights(for: texts, style: style15(), width: 100) { snapshot in
            seen.withLock { $0.append(snapshot) }
        }
        let snapshots = seen.withLock { $0 }
        #expect(snapshots.count >= 2)
        #expect(zip(snapshots, snapshots.dropFirst()).allSatisfy { $0.completed < $1.completed })
        #expect(snapshots.last == BatchProgress.Snapshot(completed: 700, total: 700))
        #expect(snapshots.last?.fractionCompleted == 1)
    }

    /// Cancelling the task stops the batch after the chunk in flight: on one worker the
    /// first report (one chunk) holds the worker until the test has cancelled, so exactly one
    /// chunk runs and the rest never starts. Counts work, no timing.
    @Test(arguments: ["heights", "layouts"])
    func cancellingTheTaskStopsTheBatch(_ kind: String) async throws {
        let engine = TextMeasurer()
        let cells = (0..<200).map { Cell(text: "cancellable row \($0) of a long feed", style: style15(), width: 100) }
        let gate = DispatchSemaphore(value: 0)
        let (reported, reports) = AsyncStream.makeStream(of: Int.self)
        let calls = Atomic<Int>(0)
        let progress: TextMeasurer.ProgressHandler = { snapshot in
            guard calls.add(1, ordering: .relaxed).newValue == 1 else { return }
            reports.yield(snapshot.completed)
            gate.wait()  // a Dispatch worker, never a cooperative thread
        }
        let task = Task {
            kind == "heights"
                ? try await engine.heights(for: cells, workers: 1, progress: progress).count
                : try await engine.layouts(for: cells, workers: 1, progress: progress).count
        }
        var firstChunk = 0
        for await done in reported {
            firstChunk = done
            task.cancel()
            gate.signal()
            break
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(firstChunk > 0 && firstChunk < cells.count)
        #expect(calls.load(ordering: .relaxed) == 1, "no chunk ran after the cancellation")
        // Only the first chunk was laid out: one prepared text per cell of it.
        #expect(engine.cacheStatistics.prepared.misses == firstChunk)
    }

    /// A task cancelled before the call never starts the batch.
    @Test func aCancelledTaskDoesNoWork() async {
        let calls = Atomic<Int>(0)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await TextMeasurer().heights(for: ["a", "b"], style: style15(), width: 100) { _ in
                calls.add(1, ordering: .relaxed)
            }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    /// UTF-16 ranges agree with Swift's own `String.utf16` offsets, and with the scalar and
    /// UTF-8 ranges, on text with emoji outside the BMP, ZWJ sequences, flags and combining
    /// marks.
    @Test func lineRangesInUTF16() {
        let gen = Gen.zip(
            Gen<String>.text(maxClusters: 40, pieces: [.asciiWords, .spaces, .latinCombining, .emoji, .han, .arabic, .hardBreaks]),
            Gen.double(in: 30...200))
        let failure = checkProperty("utf16 ranges", gen, iterations: 120) { (text, width) throws -> Void in
            let layout = engine.layout(text, style: style15(), width: width.rounded())
            for line in layout.lines {
                let utf16 = text.utf16.distance(from: text.startIndex, to: line.range.lowerBound)
                    ..< text.utf16.distance(from: text.startIndex, to: line.range.upperBound)
                try propertyAssert(line.utf16Range == utf16, "utf16 \(line.utf16Range) vs \(utf16) in \(text.debugDescription)")
                let scalars = text.unicodeScalars[line.range]
                try propertyAssert(line.utf16Range.count == scalars.reduce(0) { $0 + UTF16.width($1) }, "utf16 count")
                try propertyAssert(line.scalarRange.count == scalars.count && line.utf8Range.count == text.utf8[line.range].count, "scalar/utf8")
            }
        }
        if let failure { Issue.record("\(failure)") }
        // By hand: "a😀 é" + "b": 😀 is 2 UTF-16 units, e + U+0301 is 2 (NSString's lengths).
        let layout = engine.layout("a😀 e\u{301}\nb👍🏽", style: style15(), width: 300)
        #expect(layout.lines.map(\.utf16Range) == [0..<6, 7..<12])
        #expect(layout.lines.map(\.scalarRange) == [0..<5, 6..<9])
    }

    /// `listHeights(for: [ListRow])` is what a feed would build by hand: each row measured
    /// with its own style and width, its extra height added and the sum ceiled to the pixel
    /// grid.
    @Test func listRowsAreWhatAFeedBuildsByHand() throws {
        let gen = Gen.zip(
            Gen.array(of: Gen.zip(Gen<String>.text(maxClusters: 25), Gen.element(of: [style15(), style15(["Noto Serif"]), TextStyle(families: ["Noto Sans"], size: 13.5)]),
                                  Gen.double(in: 60...320), Gen.element(of: [0, 12.25, 16, 7.3, 0.1, -3, .nan])), count: 1...40),
            Gen.element(of: [1.0, 2, 3]))
        let failure = checkProperty("list rows by hand", gen, iterations: 40) { (rowsSpec, scale) throws -> Void in
            let rows = rowsSpec.enumerated().map { ListRow(id: $0, text: $1.0, style: $1.1, width: $1.2.rounded(), extraHeight: $1.3) }
            let list = try engine.listHeights(for: rows, scale: scale)
            let byHand = try ListHeights(validating: rows.map { row in
                let text = engine.measure(row.cell.text, style: row.cell.style, width: row.cell.width, scale: scale).height
                let extra = row.extraHeight.isNaN ? 0 : row.extraHeight
                var pixels = (text + extra) * scale
                if abs(pixels - pixels.rounded()) <= 1e-4 { pixels.round() }
                return (id: row.id, height: max(0, pixels.rounded(.up) / scale))
            })
            for i in 0...rows.count {
                try propertyAssert(list.offset(ofRowAt: i) == byHand.offset(ofRowAt: i), "offset \(i): \(list.offset(ofRowAt: i)) vs \(byHand.offset(ofRowAt: i))")
            }
            for i in 0..<rows.count {
                let h = list.height(at: i)
                try propertyAssert((h * scale - (h * scale).rounded()).magnitude < 1e-9, "row \(i) off the grid: \(h)")
            }
        }
        if let failure { Issue.record("\(failure)") }
        // A chat bubble: 15 pt text, 8 + 8 padding and a 14.25 pt name label, at 2×.
        let bubble = ListRow(id: "m1", text: "See you at 8", style: style15(), width: 240, extraHeight: 8 + 8 + 14.25)
        let text = engine.measure("See you at 8", style: style15(), width: 240).height
        #expect(try engine.listHeights(for: [bubble]).height(of: "m1") == text + 30.5)
        #expect(throws: DuplicateRowID<String>.self) { try engine.listHeights(for: [bubble, bubble]) }
    }
}
