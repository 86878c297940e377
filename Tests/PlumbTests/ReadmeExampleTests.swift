import Foundation
import Plumb
import Testing

/// The README's library example, verbatim: it must compile and run.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleRuns() throws {
        let plumb = TextMeasurer()
        var style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        style.lineSpacing = 8

        let one = plumb.measure("Hello, 世界", style: style, width: 200)     // size, lineCount, warnings
        let layout = plumb.layout("Hello, 世界", style: style, width: 200)   // + per-line geometry
        layout.lastLineRect        // fade mask over the end of the last line (its left end if right to left)
        layout.lineIndex(atY: 31)  // which line a touch is on (a gap belongs to the line above)

        let heights = plumb.heights(for: ["a", "b", "c"], style: style, width: 375)      // all cores
        let lines = plumb.layouts(for: [Cell(text: "a", style: style, width: 375)])     // geometry, all cores
        var list = try plumb.listHeights(for: [(id: 1, text: "a"), (id: 2, text: "b")], style: style, width: 375)
        list.rowIndex(atOffset: 500)                   // the row at y = 500, O(log n)
        list.updateHeight(of: 2, to: 44)               // one row changed: O(log n)
        let bubble = ListRow(id: 3, text: "See you at 8", style: style, width: 240, extraHeight: 16 + 14.25)
        let feed = try plumb.listHeights(for: [bubble])  // per-row style, width and padding, pixel-ceiled
        layout.lines[0].utf16Range                     // NSRange / JavaScript indices (also scalarRange, utf8Range)
        let json = try JSONEncoder().encode(Cell(text: "a", style: style, width: 375))  // plumb measure's fields
        #expect(feed.height(of: 3)! > 30.25 && !json.isEmpty)
        #expect(one.lineCount == 1)
        #expect(layout.lines.count == 1)
        #expect(heights.count == 3)
        #expect(lines.count == 1)
        #expect(list.count == 2)
    }

    /// The README's `async` line (in an `async` function the `async` overloads are chosen).
    @Test func theAsyncLineRuns() async throws {
        let plumb = TextMeasurer()
        let style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        // In async code: the batch runs on the engine's workers, is cancelled with its task, reports progress
        let measured = try await plumb.heights(for: ["a", "b"], style: style, width: 375) { print($0.completed, "of", $0.total) }
        #expect(measured.count == 2)
    }

    /// The example above is the README's: every line of the README's Swift block is in this file.
    @Test func theExampleIsTheReadmes() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "import Plumb" }
        #expect(lines.count > 5)
        for line in lines { #expect(source.contains(line), "README line not in the test: \(line)") }
    }
}
