import Foundation
import Testing

/// `plumb measure --cache FILE`: a later process answers from the file with the same bytes,
/// and a process killed while writing, a full disk or a bad option never costs an answer or
/// the file.
@Suite(.serialized) struct PersistentCacheCLITests {
    /// `count` distinct cells (their own texts and widths), as JSON Lines.
    static func cells(_ count: Int, from first: Int = 0) -> Data {
        var out = ""
        for i in first..<(first + count) {
            out += #"{"id":\#(i),"text":"Row \#(i): the quick brown fox jumps over the lazy dog, \#(i * 7919 % 1000) times","width":\#(90 + i % 150)}"# + "\n"
        }
        return Data(out.utf8)
    }

    /// Runs `command` with /bin/sh; its exit status (-1 if it could not start).
    @discardableResult
    static func shell(_ command: String) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-cli-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aSecondProcessAnswersFromTheFileWithTheSameBytes() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("c.sqlite").path
        let input = Self.cells(600)
        let plain = try CLITests.run(["measure"], input: input)
        let first = try CLITests.run(["measure", "--cache", cache, "--stats"], input: input)
        let second = try CLITests.run(["measure", "--cache", cache, "--stats"], input: input)
        #expect(plain.status == 0 && first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(first.stdout == plain.stdout)
        #expect(second.stdout == plain.stdout)
        #expect(first.stderr.contains("stats: cache file: readWrite, hits 0, misses 600, stored 600"), "\(first.stderr)")
        #expect(second.stderr.contains("stats: cache file: readWrite, hits 600, misses 0, stored 0"), "\(second.stderr)")
        // The second process laid nothing out.
        #expect(second.stderr.contains("stats: prepared texts: hits 0, misses 0,"), "\(second.stderr)")
        #expect(!second.stderr.contains("warning"), "\(second.stderr)")
    }

    @Test func badCacheOptionsAreUsageErrors() throws {
        #expect(try CLITests.run(["measure", "--cache-file-budget", "100000"], input: Data()).status == 64)
        #expect(try CLITests.run(["measure", "--cache", "", "--width", "10"], input: Data()).status == 64)
        #expect(try CLITests.run(["measure", "--cache", "/tmp/x.sqlite", "--cache-file-budget", "10"], input: Data()).status == 64)
    }

    /// A file in a folder that does not exist: a warning on standard error, every answer.
    @Test func anUnusableFileIsAWarning() throws {
        let input = Self.cells(20)
        let r = try CLITests.run(["measure", "--cache", "/nonexistent-\(UUID().uuidString)/c.sqlite"], input: input)
        #expect(r.status == 0)
        #expect(r.stdout == (try CLITests.run(["measure"], input: input)).stdout)
        #expect(r.stderr.contains("plumb: warning: cache:") && r.stderr.contains("measuring without it"), "\(r.stderr)")
    }

    /// Two processes writing one file at once (overlapping cells): neither warns, both print
    /// what a run without the file prints, and a third finds every cell of both.
    @Test func twoProcessesShareOneFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("c.sqlite").path
        let a = dir.appendingPathComponent("a.jsonl"), b = dir.appendingPathComponent("b.jsonl")
        try Self.cells(900, from: 0).write(to: a)
        try Self.cells(900, from: 600).write(to: b)
        let runs = [a, b].map { file -> Process in
            let p = Process()
            p.executableURL = CLITests.binary
            p.arguments = ["measure", "--cache", cache, file.path]
            p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let err = Pipe()
            p.standardError = err
            return p
        }
        for p in runs { try p.run() }
        var errors: [String] = []
        for p in runs {
            let e = (p.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            errors.append(String(decoding: e, as: UTF8.self))
        }
        #expect(errors.allSatisfy { !$0.contains("warning") }, "\(errors)")
        let both = Self.cells(1500, from: 0)
        let third = try CLITests.run(["measure", "--cache", cache, "--stats"], input: both)
        #expect(third.stdout == (try CLITests.run(["measure"], input: both)).stdout)
        #expect(third.stderr.contains("cache file: readWrite, hits 1500, misses 0"), "\(third.stderr)")
    }

    /// SIGKILL while the writer commits (once a second while cells arrive; three kills at
    /// different moments, before, around and after commits): each leaves a file the next
    /// process opens without a warning, answering every cell with the bytes of a run without
    /// the cache.
    @Test func aProcessKilledWhileWritingLeavesAUsableFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("c.sqlite").path
        // The feeder writes on after the kill: EPIPE for it, not SIGPIPE for the test process.
        signal(SIGPIPE, SIG_IGN)
        var next = 0
        for delay in [0.8, 1.4, 2.3] {
            let p = Process()
            p.executableURL = CLITests.binary
            p.arguments = ["measure", "--cache", cache]
            let inp = Pipe(), out = Pipe()
            p.standardInput = inp
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Cells keep coming while it measures and writes; reading its output keeps it going.
            let base = next
            let feeder = Thread {
                for chunk in 0..<40 {
                    let data = Self.cells(100, from: base + chunk * 100)
                    do { try inp.fileHandleForWriting.write(contentsOf: data) } catch { return }
                }
            }
            feeder.start()
            let reader = Thread { _ = out.fileHandleForReading.readDataToEndOfFile() }
            reader.start()
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            try? inp.fileHandleForWriting.close()
            #expect(p.terminationReason == .uncaughtSignal)
            next += 4000
            let check = Self.cells(300, from: next - 4000)
            let plain = try CLITests.run(["measure"], input: check)
            let after = try CLITests.run(["measure", "--cache", cache, "--stats"], input: check)
            #expect(after.status == 0)
            #expect(after.stdout == plain.stdout)
            #expect(!after.stderr.contains("warning"), "\(after.stderr)")
        }
        let stored = try CLITests.run(["measure", "--cache", cache, "--stats"], input: Self.cells(300, from: 0))
        #expect(stored.stderr.contains("cache file: readWrite, hits 300"), "\(stored.stderr)")
    }

    /// A file that cannot grow — a full disk (a 160 KB tmpfs, as root), else a file-size limit
    /// (`ulimit -f`, SIGXFSZ ignored; not under ThreadSanitizer, whose runtime faults with
    /// SIGBUS under that limit with or without the cache): the answers are all there, one
    /// warning says writing stopped, and the file still opens for the next run.
    @Test func aFileThatCannotGrowStopsWritesNotAnswers() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputFile = dir.appendingPathComponent("in.jsonl")
        try Self.cells(1500).write(to: inputFile)
        let plain = try CLITests.run(["measure", inputFile.path])
        let disk = dir.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = getuid() == 0 && Self.shell("mount -t tmpfs -o size=160k tmpfs '\(disk.path)' 2>/dev/null") == 0
        defer { if mounted { _ = Self.shell("umount '\(disk.path)'") } }
        let cache = disk.appendingPathComponent("c.sqlite").path
        let limited: CLITests.Run
        if mounted {
            limited = try CLITests.run(["measure", "--cache", cache, inputFile.path])
        } else {
            // 200 blocks of 512 bytes (dash's unit): the schema fits, 1,500 results do not.
            limited = try CLITests.run(
                ["-c", "trap '' XFSZ; ulimit -f 200; exec \"$0\" measure --cache \"$1\" \"$2\"", CLITests.binary.path, cache, inputFile.path],
                executable: URL(fileURLWithPath: "/bin/sh"))
        }
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout == plain.stdout)
        #expect(limited.stderr.contains("plumb: warning: cache:") && limited.stderr.contains("no longer written"), "\(limited.stderr)")
        // The file is whole: the next run opens it (still full under tmpfs: the same warning
        // and nothing else; with room again it reads and writes).
        let after = try CLITests.run(["measure", "--cache", cache, "--stats", inputFile.path])
        #expect(after.stdout == plain.stdout)
        #expect(!after.stderr.contains("damaged") && !after.stderr.contains("rebuilt"), "\(after.stderr)")
        if !mounted { #expect(after.stderr.contains("cache file: readWrite"), "\(after.stderr)") }
    }
}
