// Streaming line reader over a file descriptor using read(2) (no Foundation).
//
// - Reads in chunks (default 64 KiB); only the current partial line is kept between reads,
//   so memory stays at about one chunk plus the longest line (the buffer grows by doubling).
// - Lines end at "\n"; a "\r" directly before the "\n" is removed ("\r\n" endings).
//   A last line without a newline is returned; input ending in "\n" has no extra empty line.
//   A lone "\r" at the very end of input (no "\n") is kept as part of the line.
// - Empty lines are returned (with empty bytes); the caller decides what they mean.
// - A UTF-8 byte-order mark (EF BB BF) at the very start of the input is skipped (editors on
//   Windows write one); `skipsByteOrderMark = false` keeps it. Nowhere else is it removed.
// - Line numbers are 1-based.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

public struct LineReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The `errno` value behind the failure (0 if none).
    public let code: Int32

    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    public var description: String { message }

    static func system(_ prefix: String, _ code: Int32) -> LineReaderError {
        LineReaderError(prefix + ": " + String(cString: strerror(code)), code: code)
    }
}

public final class LineReader {
    public let fileDescriptor: Int32
    private let closeOnDeinit: Bool
    private var buffer: [UInt8]
    private var start = 0       // first unconsumed byte
    private var end = 0         // end of valid data
    private var scanFrom = 0    // bytes in start..<scanFrom are known to contain no "\n"
    private var atEOF = false
    /// Number of the line most recently returned (0 before the first line).
    public private(set) var lineNumber = 0
    /// Whether a UTF-8 byte-order mark at the start of the input is dropped from line 1
    /// (default true). Set it before reading the first line.
    public var skipsByteOrderMark = true

    /// Reads from an already-open descriptor; closes it on deinit only if asked to.
    public init(fileDescriptor: Int32, closeOnDeinit: Bool = false, chunkSize: Int = 1 << 16) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.fileDescriptor = fileDescriptor
        self.closeOnDeinit = closeOnDeinit
        self.buffer = [UInt8](repeating: 0, count: chunkSize)
    }

    deinit {
        if closeOnDeinit { _ = close(fileDescriptor) }
    }

    public static func standardInput(chunkSize: Int = 1 << 16) -> LineReader {
        LineReader(fileDescriptor: 0, closeOnDeinit: false, chunkSize: chunkSize)
    }

    /// Opens `path` for reading, e.g. "cannot open 'cells.jsonl': No such file or directory".
    public static func openFile(_ path: String, chunkSize: Int = 1 << 16) throws(LineReaderError) -> LineReader {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        if fd < 0 { throw .system("cannot open '\(path)'", errno) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = close(fd)
            throw LineReaderError("cannot read '\(path)': is a directory", code: EISDIR)
        }
        return LineReader(fileDescriptor: fd, closeOnDeinit: true, chunkSize: chunkSize)
    }

    /// `nil` or "-" means standard input, anything else is opened as a file.
    public static func openInput(_ path: String?, chunkSize: Int = 1 << 16) throws(LineReaderError) -> LineReader {
        guard let path, path != "-" else { return standardInput(chunkSize: chunkSize) }
        return try openFile(path, chunkSize: chunkSize)
    }

    /// The next line without its terminator, or nil at end of input.
    /// The slice shares the reader's buffer: drop it before the next call to avoid a copy.
    public func nextLine() throws(LineReaderError) -> (number: Int, bytes: ArraySlice<UInt8>)? {
        guard let range = try nextRange() else { return nil }
        return (lineNumber, buffer[range])
    }

    /// Calls `body` for each remaining line with a zero-copy view that is valid only
    /// during the call.
    public func forEachLine(_ body: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try forEachLine(detectingPauses: false, onPause: {}, body)
    }

    /// Like `forEachLine(_:)`, and calls `onPause` whenever the next read would wait for input
    /// that has not arrived yet (a slow pipe or a terminal; never for a regular file), so a
    /// streaming caller can write what it has instead of waiting.
    ///
    /// - Complexity: one `poll(2)` with a zero timeout per read of the descriptor.
    public func forEachLine(
        onPause: () -> Void, _ body: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        try forEachLine(detectingPauses: true, onPause: onPause, body)
    }

    private func forEachLine(
        detectingPauses: Bool, onPause: () -> Void,
        _ body: (_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        while let range = try nextRange(detectingPauses: detectingPauses, onPause: onPause) {
            try buffer.withUnsafeBufferPointer { all in
                try body(lineNumber, UnsafeBufferPointer(rebasing: all[range]))
            }
        }
    }

    private func nextRange(detectingPauses: Bool = false, onPause: () -> Void = {}) throws(LineReaderError) -> Range<Int>? {
        while true {
            if scanFrom < end {
                let newline: Int? = buffer.withUnsafeBufferPointer { all in
                    let base = all.baseAddress!
                    guard let hit = memchr(base + scanFrom, 0x0A, end - scanFrom) else { return nil }
                    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                }
                if let newline {
                    var lineEnd = newline
                    if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    let range = start..<lineEnd
                    start = newline + 1
                    scanFrom = start
                    lineNumber += 1
                    return withoutByteOrderMark(range)
                }
                scanFrom = end
            }
            if atEOF {
                guard start < end else { return nil }
                let range = start..<end
                start = end
                lineNumber += 1
                return withoutByteOrderMark(range)
            }
            if detectingPauses, !inputIsReady() { onPause() }
            try fill()
        }
    }

    /// Whether a read of the descriptor would return at once (data, end of input or an error).
    private func inputIsReady() -> Bool {
        var p = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) != 0
    }

    /// `range` without a leading UTF-8 byte-order mark if it is line 1 and one is there.
    @inline(__always)
    private func withoutByteOrderMark(_ range: Range<Int>) -> Range<Int> {
        guard lineNumber == 1, skipsByteOrderMark, range.count >= 3, buffer[range.lowerBound] == 0xEF,
            buffer[range.lowerBound + 1] == 0xBB, buffer[range.lowerBound + 2] == 0xBF
        else { return range }
        return (range.lowerBound + 3)..<range.upperBound
    }

    /// Moves the partial line to the front, grows the buffer if it is full, reads once.
    private func fill() throws(LineReaderError) {
        if start == end {
            start = 0; end = 0; scanFrom = 0
        } else if start > 0 {
            let (s, e) = (start, end)
            buffer.withUnsafeMutableBufferPointer { all in
                let base = all.baseAddress!
                _ = memmove(base, base + s, e - s)
            }
            end -= start
            scanFrom -= start
            start = 0
        }
        if end == buffer.count {
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
        let fd = fileDescriptor
        let offset = end
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBufferPointer { all in
                read(fd, all.baseAddress! + offset, all.count - offset)
            }
        } while count < 0 && errno == EINTR
        if count < 0 { throw .system("read error", errno) }
        if count == 0 { atEOF = true } else { end += count }
    }
}
