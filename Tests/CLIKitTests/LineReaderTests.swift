import Testing
@testable import CLIKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A class, so that `deinit` removes the temporary files each test made (one instance per test).
@Suite final class LineReaderTests {
    private var tempPaths: [String] = []

    deinit {
        for p in tempPaths { unlink(p) }
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    private func tempFile(_ bytes: [UInt8]) -> String {
        var template = Array("/tmp/clikit-test-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(fd >= 0)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress! + off, bytes.count - off) }
            precondition(n > 0)
            off += n
        }
        close(fd)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        tempPaths.append(path)
        return path
    }

    private func lines(_ text: String, chunkSize: Int = 1 << 20) throws -> [(Int, String)] {
        let reader = try LineReader.openFile(tempFile(Array(text.utf8)), chunkSize: chunkSize)
        var out: [(Int, String)] = []
        while let line = try reader.nextLine() {
            out.append((line.number, String(decoding: line.bytes, as: UTF8.self)))
        }
        #expect(try reader.nextLine() == nil)  // stays at end
        return out
    }

    private func assertLines(_ text: String, _ expected: [String], chunkSizes: [Int] = Array(1...9) + [64, 1 << 20],
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        for chunk in chunkSizes {
            let got = try lines(text, chunkSize: chunk)
            #expect(got.map(\.1) == expected, "chunk \(chunk)", sourceLocation: sourceLocation)
            #expect(got.map(\.0) == Array(stride(from: 1, through: expected.count, by: 1)), "chunk \(chunk)", sourceLocation: sourceLocation)
        }
    }

    @Test func lfAndCRLFEndings() throws {
        try assertLines("a\nbc\n", ["a", "bc"])
        try assertLines("a\r\nbc\r\n", ["a", "bc"])
        try assertLines("a\r\nb\nc\r\n", ["a", "b", "c"])
        try assertLines("a\rb\n", ["a\rb"])        // a lone CR is not a line ending
    }

    @Test func lastLineWithoutNewline() throws {
        try assertLines("a\nlast", ["a", "last"])
        try assertLines("only", ["only"])
        try assertLines("a\r\nb\r", ["a", "b\r"])  // documented: trailing lone CR at EOF is kept
    }

    @Test func emptyLinesAndEmptyInput() throws {
        try assertLines("", [])
        try assertLines("\n", [""])
        try assertLines("\n\na\n\r\n\n", ["", "", "a", "", ""])
        try assertLines("{\"x\":1}\n\n{\"x\":2}", ["{\"x\":1}", "", "{\"x\":2}"])
    }

    @Test func linesLongerThanChunk() throws {
        let long = String(repeating: "0123456789", count: 1000)
        try assertLines("a\n\(long)\r\nb\n\(long)", ["a", long, "b", long], chunkSizes: [1, 3, 16, 4096])
    }

    @Test func forEachLineMatchesNextLine() throws {
        let text = "x\r\n\nyy\nlong line here\nz"
        let reader = try LineReader.openFile(tempFile(Array(text.utf8)), chunkSize: 4)
        var got: [String] = []
        var numbers: [Int] = []
        try reader.forEachLine { n, bytes in
            numbers.append(n)
            got.append(String(decoding: bytes, as: UTF8.self))
        }
        #expect(got == ["x", "", "yy", "long line here", "z"])
        #expect(numbers == [1, 2, 3, 4, 5])
        #expect(reader.lineNumber == 5)
    }

    @Test func readsFromPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let payload = Array((0..<500).map { "{\"id\":\($0)}\r\n" }.joined().utf8) + [0x65, 0x6E, 0x64]
        var off = 0
        while off < payload.count {
            let n = payload.withUnsafeBufferPointer { write(fds[1], $0.baseAddress! + off, payload.count - off) }
            #expect(n > 0)
            off += n
        }
        close(fds[1])
        let reader = LineReader(fileDescriptor: fds[0], closeOnDeinit: true, chunkSize: 100)
        var count = 0
        var last = ""
        while let line = try reader.nextLine() {
            count += 1
            last = String(decoding: line.bytes, as: UTF8.self)
            if line.number == 42 {
                #expect(try JSONParser.parse(line.bytes)["id"] == .number(41, literal: "41"))
            }
        }
        #expect(count == 501)
        #expect(last == "end")
    }

    @Test func openErrors() throws {
        let missing = #expect(throws: LineReaderError.self) { try LineReader.openFile("/nonexistent-dir/cells.jsonl") }
        #expect(missing?.message == "cannot open '/nonexistent-dir/cells.jsonl': No such file or directory")
        #expect(missing?.code == ENOENT)
        let directory = #expect(throws: LineReaderError.self) { try LineReader.openFile("/tmp") }
        #expect(directory?.message == "cannot read '/tmp': is a directory")
        #expect(try LineReader.openInput(nil).fileDescriptor == 0)
        #expect(try LineReader.openInput("-").fileDescriptor == 0)
    }

    /// A UTF-8 byte-order mark at the start of the input is skipped, at any chunk size; one
    /// anywhere else is data.
    @Test func byteOrderMarkAtStartIsSkipped() throws {
        let bom = "\u{FEFF}"
        try assertLines(bom + "{\"a\":1}\n" + bom + "x\n", ["{\"a\":1}", bom + "x"])
        try assertLines(bom + "\nb", ["", "b"])
        try assertLines(bom, [""])  // a line with nothing in it (measure skips blank lines)
        let reader = try LineReader.openFile(tempFile(Array((bom + "a").utf8)))
        reader.skipsByteOrderMark = false
        #expect(try reader.nextLine().map { Array($0.bytes) } == [0xEF, 0xBB, 0xBF, 0x61])
    }

    /// `onPause` runs when the next read would wait (a pipe with nothing written yet), never
    /// for a regular file.
    @Test func pausesAreReportedForPipesOnly() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        func send(_ s: String) { _ = Array(s.utf8).withUnsafeBufferPointer { write(writer, $0.baseAddress!, $0.count) } }
        send("a\nb\n")
        let reader = LineReader(fileDescriptor: fds[0], closeOnDeinit: true, chunkSize: 64)
        var events: [String] = []
        try reader.forEachLine(onPause: {
            events.append("pause")
            send("c\n")  // the reader waits for more: give it the rest, then end the input
            close(writer)
        }) { _, bytes in events.append(String(decoding: bytes, as: UTF8.self)) }
        #expect(events == ["a", "b", "pause", "c"])  // after end of input: no pause

        var fileEvents: [String] = []
        let file = try LineReader.openFile(tempFile(Array("x\ny".utf8)), chunkSize: 1)
        try file.forEachLine(onPause: { fileEvents.append("pause") }) { _, b in fileEvents.append(String(decoding: b, as: UTF8.self)) }
        #expect(fileEvents == ["x", "y"])
    }
}
