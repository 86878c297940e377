import Foundation
import Plumb
import Testing

/// End-to-end tests of the built `plumb` binary: JSON Lines in, JSON Lines out. One at a time:
/// several run the binary on both workers and count what it did (`--stats`), or time its input
/// (signals), which a machine busy with the other tests' processes would disturb.
@Suite(.serialized) struct CLITests {
    /// The `plumb` executable next to the test bundle (SwiftPM builds every product).
    static var binary: URL {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [here, here.deletingLastPathComponent()].map { $0.appendingPathComponent("plumb") }
        return (candidates + [repositoryRoot.appendingPathComponent(".build/debug/plumb")])
            .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    struct Run {
        var status: Int32
        /// Whether the process exited or was killed by a signal (a trap).
        var reason: Process.TerminationReason = .exit
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        func json(_ i: Int) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(lines[i].utf8)) as? [String: Any])
        }
    }

    /// Runs the binary with `arguments` (see the static form).
    func run(_ arguments: [String], input: Data? = nil, executable: URL? = nil) throws -> Run {
        try Self.run(arguments, input: input, executable: executable)
    }

    /// Runs the binary with `arguments`, feeding `input` and waiting for it; `environment`
    /// entries are added to this process's environment.
    static func run(_ arguments: [String], input: Data? = nil, executable: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = executable ?? Self.binary
        p.arguments = arguments
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let input { inp.fileHandleForWriting.write(input) }
        try inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, reason: p.terminationReason, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func aTextOverTheSizeLimitIsAnErrorForItsLineOnly() throws {
        let input = Data(([#"{"id":1,"text":"hello"}"#, #"{"id":2,"text":"hello world, too long"}"#, #"{"id":3,"text":"ok"}"#]
            .joined(separator: "\n") + "\n").utf8)
        let r = try run(["measure", "--max-text-bytes", "10"], input: input)
        #expect(r.status == 1)
        #expect(r.lines.count == 3)
        #expect(try r.json(0)["height"] != nil)
        #expect(try r.json(1)["line"] as? Int == 2)
        #expect(try r.json(1)["error"] as? String == "the text is 21 UTF-8 bytes, over the limit of 10 (--max-text-bytes)")
        #expect(try r.json(2)["height"] != nil)
        #expect(try run(["measure", "--max-text-bytes", "0"], input: input).status == 64)
    }

    @Test func goodAndBadLinesKeepOrderIdsAndExitStatus() throws {
        var input = Data()
        for line in [
            #"{"id":1,"text":"Hello, world","width":200,"size":15}"#,
            "not json",
            "",
            #"{"id":[1,2],"text":5}"#,
            #"{"id":"x","text":"abc","foo":true,"size":15}"#,
            #"{"id":12345678901234567890,"text":"x","size":"big"}"#,
            #"{"id":9}"#,
        ] { input.append(Data((line + "\n").utf8)) }
        input.append(Data([0xFF, 0xFE]))
        input.append(Data(#"{"id":"utf8","text":"bad"}"#.utf8))
        input.append(Data("\n".utf8))
        input.append(Data(#"{"id":"last","text":"still measured","size":15}"#.utf8))  // no final newline
        let r = try run(["measure"], input: input)
        #expect(r.status == 1)
        #expect(r.lines.count == 8)  // the blank line 3 is skipped
        #expect(try r.json(0)["id"] as? Int == 1)
        #expect(try r.json(0)["height"] as? Double == 20.5)
        #expect(try r.json(0)["lines"] as? Int == 1)
        #expect(try r.json(1)["line"] as? Int == 2)
        #expect((try r.json(1)["error"] as? String ?? "").hasPrefix("invalid JSON"))
        #expect(try r.json(2)["id"] as? [Int] == [1, 2])
        #expect(try r.json(2)["line"] as? Int == 4)  // numbering counts the skipped line
        #expect(try r.json(2)["error"] as? String == "field 'text' must be a string, not number")
        #expect(try r.json(3)["warnings"] as? [String] == ["unknown field 'foo' ignored"])
        #expect(r.lines[4].hasPrefix(#"{"id":12345678901234567890,"#), "big id echoed unchanged")
        #expect(try r.json(4)["error"] as? String == "field 'size' must be a number, not string")
        #expect(try r.json(5)["error"] as? String == "missing field 'text' (or 'runs')")
        #expect(try r.json(6)["line"] as? Int == 8)
        #expect((try r.json(6)["error"] as? String ?? "").contains("invalid UTF-8"))
        #expect(try r.json(7)["id"] as? String == "last")
        #expect(try r.json(7)["height"] as? Double == 20.5)
    }

    /// Issue 13 (5): a byte-order mark before line 1 is skipped; blank lines give no output
    /// but keep the numbering of later errors; a repeated key warns and the last value wins
    /// (an earlier bad value is not read); a number that underflows is out of range like one
    /// that overflows.
    @Test func byteOrderMarkBlankLinesDuplicateKeysAndUnderflow() throws {
        var input = Data([0xEF, 0xBB, 0xBF])
        for line in [
            #"{"id":1,"text":"Hello, world","size":15}"#, "", "   \t", "\r",
            #"{"id":2,"text":"Hello, world","size":"big","size":15,"text":"x","size":15}"#,
            #"{"id":3,"text":"x","lineSpacing":1e-400}"#,
            #"{"id":4,"text":"x","lineSpacing":1e400}"#,
            #"{"id":5,"text":"x","lineSpacing":0e-400,"size":15}"#,
            // Beyond 32 keys (a dictionary finds the repeats): still one warning per key.
            #"{"id":6,"text":"x","# + (0..<40).map { #""size":\#(10 + $0),"a\#($0 % 3)":1"# }.joined(separator: ",") + "}",
        ] { input.append(Data((line + "\n").utf8)) }
        let r = try run(["measure"], input: input)
        #expect(r.lines.count == 6, "\(r.stdout)")
        #expect(try r.json(5)["warnings"] as? [String] == ["duplicate field 'size': the last value is used",
                                                           "duplicate field 'a0': the last value is used",
                                                           "duplicate field 'a1': the last value is used",
                                                           "duplicate field 'a2': the last value is used",
                                                           // in the order of the values used (the last ones)
                                                           "unknown field 'a1' ignored", "unknown field 'a2' ignored",
                                                           "unknown field 'a0' ignored"])
        #expect(try r.json(5)["height"] as? Double == run(["measure"], input: Data(#"{"text":"x","size":49}"#.utf8)).json(0)["height"] as? Double)
        #expect(try r.json(0)["id"] as? Int == 1)
        #expect(try r.json(0)["height"] as? Double == 20.5)
        #expect(try r.json(1)["id"] as? Int == 2)
        #expect(try r.json(1)["width"] as? Double == run(["measure"], input: Data(#"{"text":"x","size":15}"#.utf8)).json(0)["width"] as? Double)
        #expect(try r.json(1)["warnings"] as? [String] == ["duplicate field 'text': the last value is used",
                                                           "duplicate field 'size': the last value is used"])
        #expect(try r.json(2)["line"] as? Int == 6)
        #expect(try r.json(2)["error"] as? String == "invalid JSON: number out of range at byte 33")
        #expect(try r.json(3)["error"] as? String == "invalid JSON: number out of range at byte 33")
        #expect(try r.json(4)["error"] == nil)
        #expect(r.status == 1)
    }

    /// Issue 15: "families" takes a comma-separated string as the flag does; every JSON field
    /// has a flag that gives the same answer.
    @Test func familiesStringAndAFlagForEveryField() throws {
        let text = #"a\tb\n\nc d e f g h i j k l m n o p"#
        func line(_ extra: String) -> Data { Data((#"{"text":"\#(text)","width":60,"size":15"# + extra + "}\n").utf8) }
        let pairs: [(json: String, flags: [String])] = [
            (#","families":" DejaVu Sans , Noto Sans CJK SC""#, ["--families", "DejaVu Sans,Noto Sans CJK SC"]),
            (#","families":["DejaVu Sans","Noto Sans CJK SC"]"#, ["--families", "DejaVu Sans, Noto Sans CJK SC"]),
            (#","paragraphSpacingBefore":7"#, ["--paragraph-spacing-before", "7"]),
            (#","tabInterval":50"#, ["--tab-interval", "50"]),
            (#","truncatesLastVisibleLine":true,"heightLimit":30"#, ["--truncates-last-visible-line", "--height-limit", "30"]),
        ]
        let plain = try run(["measure", "--lines"], input: line("")).lines[0]
        for (json, flags) in pairs {
            let fromJSON = try run(["measure", "--lines"], input: line(json))
            let fromFlags = try run(["measure", "--lines"] + flags, input: line(""))
            #expect(fromJSON.status == 0, "\(fromJSON.stdout)")
            #expect(fromJSON.lines == fromFlags.lines, "\(json)")
            #expect(fromJSON.lines[0] != plain, "\(json)")
        }
        let help = try run(["measure", "--help"]).stdout
        for option in ["--paragraph-spacing-before", "--tab-interval", "--truncates-last-visible-line"] {
            #expect(help.contains(option), "\(option)")
        }
    }

    /// Issue 15: option values the engine would replace are usage errors; a mistyped option
    /// names the nearest one.
    @Test func outOfRangeOptionsAndMistypedNames() throws {
        for args in [["--size", "-5"], ["--size", "0"], ["--workers", "0"], ["--batch-size", "0"], ["--cache-budget", "-1"],
                     ["--line-spacing", "-1"], ["--scale", "0"], ["--weight", "1001"], ["--width", "0"], ["--tab-interval", "0"],
                     ["--line-height", "-2"], ["--max-lines", "-1"]] {
            let r = try run(["measure"] + args, input: Data())
            #expect(r.status == 64, "\(args)")
            #expect(r.stderr.contains("\(args[0]): \(args[1]) is out of range"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        for command in [["measure"], ["layout", "x"], ["render", "x"]] {
            let r = try run(command + ["--widht", "300"], input: Data())
            #expect(r.status == 64)
            #expect(r.stderr.contains("unknown option '--widht' (did you mean '--width'?)"), "\(r.stderr)")
        }
        #expect(try run(["fonts", "Noto Sans", "--weight", "0"]).status == 64)
        #expect(try run(["meassure"]).status == 64)
        #expect(try run(["meassure"]).stderr.contains("did you mean 'measure'?"))
    }

    /// Issue 15: numbers are printed rounded to 6 decimals; `--exact-numbers` prints the
    /// shortest round-trip form (the golden hashes use it).
    @Test func numbersWithoutFloatNoiseUnlessExact() throws {
        let input = Data(#"{"text":"Hello world","size":15.3,"scale":3}"#.utf8 + [0x0A])
        let rounded = try run(["measure", "--lines"], input: input).lines[0]
        let exact = try run(["measure", "--lines", "--exact-numbers"], input: input).lines[0]
        #expect(exact.contains(#""width":82.33333333333333,"#), "\(exact)")
        #expect(exact.contains("20.838600000000003"), "\(exact)")
        #expect(rounded.contains(#""width":82.333333,"#), "\(rounded)")
        #expect(rounded.contains(#""rect":[0,0,82.0539,20.8386],"baseline":16.3557,"usedWidth":82.0539"#), "\(rounded)")
        #expect(rounded.range(of: #"\.[0-9]{7}"#, options: .regularExpression) == nil, "\(rounded)")
    }

    @Test func allGoodExitsZeroAndLineStartsAndBoxes() throws {
        let input = Data(#"{"id":"a","text":"aaaa bbbb cccc","width":45,"size":15,"lineSpacing":8}"#.utf8 + [0x0A])
        let r = try run(["measure", "--line-starts", "--lines"], input: input)
        #expect(r.status == 0)
        let o = try r.json(0)
        #expect(o["lineStarts"] as? [Int] == [0, 5, 10])
        let boxes = try #require(o["lineBoxes"] as? [[String: Any]])
        #expect(boxes.count == 3)
        #expect((boxes[1]["rect"] as? [Double])?[1] == 28.43)
        #expect(o["height"] as? Double == 77.5)
    }

    /// Alignment moves line boxes (never heights); right-to-left lines say so.
    @Test func alignmentAndDirectionInLineBoxes() throws {
        let lines = [#"{"text":"ab cd","width":100,"size":15}"#,
                     #"{"text":"ab cd","width":100,"size":15,"alignment":"center"}"#,
                     #"{"text":"שלום","width":100,"size":15,"families":["Noto Sans","Noto Sans Hebrew"]}"#]
        let r = try run(["measure", "--lines", "--alignment", "right"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(r.status == 0, "\(r.stdout)")
        func box(_ i: Int) throws -> [String: Any] {
            try #require((try r.json(i)["lineBoxes"] as? [[String: Any]])?.first)
        }
        let right = try #require(try box(0)["rect"] as? [Double])
        let center = try #require(try box(1)["rect"] as? [Double])
        #expect(abs((right[0] + right[2]) - 100) <= 0.01)
        #expect(abs((center[0] * 2 + center[2]) - 100) <= 0.01)
        #expect(try r.json(0)["height"] as? Double == r.json(1)["height"] as? Double)
        #expect(try box(0)["rtl"] == nil)
        #expect(try box(2)["rtl"] as? Bool == true)
        let bad = try run(["measure", "--alignment", "justify"], input: Data())
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown alignment 'justify' (one of natural, left, right, center, justified)"), "\(bad.stderr)")
    }

    @Test func commandLineDefaultsAndPerLineOverrides() throws {
        let input = Data((#"{"text":"a\nb"}"# + "\n" + #"{"text":"a\nb","lineSpacing":0}"# + "\n").utf8)
        let r = try run(["measure", "--size", "15", "--line-spacing", "8", "--width", "300"], input: input)
        #expect(try r.json(0)["height"] as? Double == 49)  // 2 × 20.43 + 8
        #expect(try r.json(1)["height"] as? Double == 41)  // per-line override
    }

    /// A repaired lone surrogate is reported on its own line only: not on the next line, and
    /// again on a following line that has one too (the warning once followed a change in the
    /// parser's per-line count instead of the count itself).
    @Test func repairedTextIsReportedOnItsOwnLineOnly() throws {
        let lines = [#"{"id":1,"text":"a\ud800b"}"#, #"{"id":2,"text":"ok"}"#,
                     #"{"id":3,"text":"\udc00"}"#, #"{"id":4,"text":"x\ud83d"}"#, #"{"id":5,"text":"fine"}"#]
        let r = try run(["measure", "--workers", "2"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(r.status == 0)
        let repaired = "invalid text was repaired with U+FFFD"
        for (i, expected) in [true, false, true, true, false].enumerated() {
            let warnings = try r.json(i)["warnings"] as? [String] ?? []
            #expect(warnings.contains(repaired) == expected, "line \(i + 1): \(warnings)")
        }
    }

    @Test func fallbackIsFlagged() throws {
        let r = try run(["measure"], input: Data(#"{"text":"x","width":0,"size":15}"#.utf8 + [0x0A]))
        #expect(try r.json(0)["fallback"] as? Bool == true)
        #expect(try r.json(0)["height"] as? Double == 20.5)
        #expect(try r.json(0)["warnings"] != nil)
    }

    @Test func progressAndStatsGoToStandardError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-cli-\(getpid()).jsonl")
        // Blank lines (one inside, one at the end) count in the progress total, not as lines.
        let body = (0..<50).map { #"{"id":\#($0),"text":"row \#($0) with words"}"# + ($0 == 20 ? "\n" : "") }
            .joined(separator: "\n") + "\n\n"
        try body.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run(["measure", file.path, "--progress", "--stats", "--batch-size", "10"])
        #expect(r.status == 0)
        #expect(r.lines.count == 50)
        #expect(r.stderr.contains("progress: 52/52 (100%)"), "\(r.stderr)")
        #expect(r.stderr.contains("stats: 50 lines, 0 errors, 2 blank lines skipped"), "\(r.stderr)")
        #expect(r.stderr.contains("stats: results: hits"), "\(r.stderr)")
    }

    @Test func everyCommandHasHelpAndUsageErrorsExit64() throws {
        for command in [[], ["measure"], ["layout"], ["fonts"], ["render"]] {
            let r = try run(command + ["--help"])
            #expect(r.status == 0)
            #expect(r.stdout.hasPrefix("OVERVIEW: "), "\(r.stdout)")
            #expect(r.stdout.contains("USAGE: plumb"), "\(r.stdout)")
        }
        #expect(try run(["measure", "--help"]).stdout.contains("--line-starts"))
        let bad = try run(["measure", "--bogus"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown option '--bogus'"))
        #expect(try run(["measure", "--size", "big"]).status == 64)
        #expect(try run(["--version"]).stdout.contains("0.1.0"))
        // A value that parses but names nothing is a usage error too, in every command that
        // takes style options: never a measurement with the default in silence.
        for command in [["measure", "-"], ["layout", "x"], ["render", "x", "-o", "/dev/null"]] {
            let mode = try run(command + ["--line-break-mode", "bogus"], input: Data())
            #expect(mode.status == 64, "\(command)")
            #expect(mode.stderr.contains("--line-break-mode: unknown lineBreakMode 'bogus' (one of wordWrapping,"), "\(mode.stderr)")
            let profile = try run(command + ["--compatibility", "webkit"], input: Data())
            #expect(profile.status == 64, "\(command)")
            #expect(profile.stderr.contains("unknown compatibility 'webkit' (one of standard, pango, chromium)"), "\(profile.stderr)")
            #expect(profile.stdout.isEmpty, "\(profile.stdout)")
        }
    }

    @Test func layoutExplainsTheHeight() throws {
        let r = try run(["layout", "aaaa bbbb cccc", "--width", "45", "--size", "15", "--line-spacing", "8"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("line 3: \"cccc\""), "\(r.stdout)")
        #expect(r.stdout.contains("height: 20.43 + 20.43 + 20.43 + gaps 8 + 8 = 77.29 → 77.5"), "\(r.stdout)")
    }

    @Test func fontsShowsFacesAndClusters() throws {
        let r = try run(["fonts", "Noto Sans, Noto Sans CJK SC", "--text", "a中😀"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("NotoSansCJK-Regular.ttc face 2"), "\(r.stdout)")
        #expect(r.stdout.contains("\"😀\" (U+1F600) → Noto Color Emoji"), "\(r.stdout)")
    }

    @Test func theReadmeCommandLineExampleOutput() throws {
        let input = Data((#"{"id":1,"text":"Hello, world"}"# + "\n" + #"{"id":2,"text":"你好，世界","width":40}"# + "\n").utf8)
        let r = try run(["measure", "--size", "15", "--width", "200", "--line-starts"], input: input)
        let expected = [
            #"{"id":1,"height":20.5,"width":84.5,"lines":1,"truncated":false,"lineStarts":[0]}"#,
            #"{"id":2,"height":65.5,"width":30,"lines":3,"truncated":false,"lineStarts":[0,1,3]}"#,
        ]
        #expect(r.lines == expected)
        // The README prints these very lines.
        let readme = try Self.readme()
        for line in expected { #expect(readme.contains("# " + line + "\n"), "\(line)") }
        #expect(readme.contains(#"printf '%s\n' '{"id":1,"text":"Hello, world"}' '{"id":2,"text":"你好，世界","width":40}' \"#))
        #expect(readme.contains("| .build/release/plumb measure --size 15 --width 200 --line-starts\n"))
        #expect(try run(["layout", "The quick brown fox jumps over the lazy dog", "--size", "15", "--width", "120", "--line-spacing", "8"]).status == 0)
    }

    /// The README, for the tests that check what it prints.
    static func readme() throws -> String {
        return try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test func theReadmeSampleRuns() throws {
        let r = try run(["measure", repositoryRoot.appendingPathComponent("Documentation/examples/cells.jsonl").path])
        #expect(r.status == 0)
        #expect(r.lines.count == 7)
        #expect(try r.json(4)["truncated"] as? Bool == true)
    }
}

extension CLITests {
    @Test func renderWritesAnSVGForACellAndForAList() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-render-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cell = dir.appendingPathComponent("cell.svg").path
        let r = try run(["render", "Hello 😀 world", "--size", "15", "--width", "120", "--overlays", "all",
                         "--fade-last-line", "20", "--cover-lines", "--reveal-line", "0", "-o", cell])
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOfFile: cell, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("<image class=\"emoji\""))
        #expect(svg.contains("class=\"fade\""))
        let sheet = try run(["render", repositoryRoot.appendingPathComponent("Documentation/examples/cells.jsonl").path, "--width", "300"])
        #expect(sheet.status == 0)
        #expect(sheet.stdout.components(separatedBy: "<g id=\"r").count - 1 == 7)
        #expect(try run(["render", "x", "--overlays", "sparkles"]).status == 64)
    }
}

extension CLITests {
    /// Each row of a rendered list is drawn as `measure` lays that cell out: its own width
    /// and style (the same reader), the same line count; the `width: 0` cell is a marked
    /// fallback with no lines, not an ordinary line.
    @Test func renderDrawsEachCellAsMeasureLaysItOut() throws {
        let file = repositoryRoot.appendingPathComponent("Documentation/examples/cells.jsonl").path
        for extra in [[], ["--width", "300", "--size", "15"]] {
            let measured = try run(["measure", file] + extra)
            #expect(measured.status == 0, "\(measured.stderr)")
            let lineCounts = try measured.lines.indices.map { try #require(measured.json($0)["lines"] as? Int) }
            let fallbacks = try measured.lines.indices.map { try measured.json($0)["fallback"] as? Bool ?? false }
            let widths = try measured.lines.indices.map { try #require(measured.json($0)["width"] as? Double) }
            let rendered = try run(["render", file] + extra)
            #expect(rendered.status == 0, "\(rendered.stderr)")
            let rows = rendered.stdout.components(separatedBy: "<g id=\"r").dropFirst()
            #expect(rows.count == lineCounts.count)
            #expect(rows.map { $0.components(separatedBy: "<g class=\"line\"").count - 1 } == lineCounts, "\(extra)")
            #expect(rows.map { $0.contains("class=\"fallback\"") } == fallbacks, "\(extra)")
            #expect(fallbacks.filter { $0 }.count == 1)
            // Each row's box is the width it was laid out at (feed-2: 200), at least as wide as
            // its measured width.
            let boxes = rows.map { row -> Double in
                let box = row.components(separatedBy: "class=\"row\" x=\"0\" y=\"0\" width=\"")[1]
                return Double(box.prefix { $0 != "\"" }) ?? .nan
            }
            #expect(boxes[2] == 200)
            #expect(zip(boxes, widths).allSatisfy { $0 >= $1 }, "\(boxes) vs \(widths)")
        }
    }

    /// A path is never drawn as text: a missing .jsonl file or a directory is a usage error
    /// with nothing written; `--text` draws anything as text, `--file` reads cells.
    @Test func renderTellsTextFromFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-render-input-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("m.svg").path
        let missing = try run(["render", dir.appendingPathComponent("missing.jsonl").path, "-o", out])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("No such file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let directory = try run(["render", dir.path])
        #expect(directory.status == 64)
        #expect(directory.stderr.contains("is a directory") && directory.stdout.isEmpty, "\(directory.stderr)")
        #expect(try run(["render", "--file", dir.path]).status == 64)
        #expect(try run(["render", "--file", dir.appendingPathComponent("none").path]).status == 64)
        #expect(try run(["render"]).status == 64)
        #expect(try run(["render", "a", "--text", "b"]).status == 64)
        // --text draws a path-like text; --file reads cells whatever the name.
        let text = try run(["render", "--text", dir.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.components(separatedBy: "<g class=\"line\"").count - 1 == 1)
        let cells = dir.appendingPathComponent("cells.txt")
        try Data("{\"text\":\"one\"}\n{\"text\":\"two\",\"width\":0}\n".utf8).write(to: cells)
        let file = try run(["render", "--file", cells.path])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout.components(separatedBy: "<g id=\"r").count - 1 == 2)
        let stdin = try run(["render", "--file", "-"], input: Data("{\"text\":\"one\"}\n{\"text\":5}\n".utf8))
        #expect(stdin.status == 1)  // a bad line is reported, as measure does
        #expect(stdin.stderr.contains("line 2: field 'text' must be a string"), "\(stdin.stderr)")
        #expect(stdin.stdout.components(separatedBy: "<g id=\"r").count - 1 == 1)
        #expect(try run(["render", "--help"]).stdout.contains("--file"))
    }
}

extension CLITests {
    /// `plumb render` in a real browser: headless Chromium screenshots, checked pixel by pixel
    /// (Tests/Browser/browser_check.py). Screenshots are kept in .build/browser-artifacts.
    @Test func renderedSVGsInHeadlessChromium() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [repositoryRoot.appendingPathComponent("Tests/Browser/browser_check.py").path,
                       "--plumb", Self.binary.path,
                       "--out", repositoryRoot.appendingPathComponent(".build/browser-artifacts").path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.contains("all browser checks passed"), "\(text)")
    }
}

extension CLITests {
    /// Reads from `fd` until `count` newlines have arrived (or end of input); fails instead of
    /// hanging if nothing arrives for a minute.
    func readLines(_ fd: Int32, count: Int) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.filter({ $0 == 0x0A }).count < count {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 60_000) > 0 else { Issue.record("no output for 60 s"); break }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Issue 13 (5): SIGINT and SIGTERM end `plumb measure` with 130 and 143 after the lines
    /// already measured, whole lines only. The input is fed slowly: the lines written so far
    /// are answered at once (a batch ends when input pauses), a partial line is not.
    @Test func interruptKeepsWholeLinesAndExits130Or143() throws {
        for (signal, expected) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let p = Process()
            p.executableURL = Self.binary
            p.arguments = ["measure", "--size", "15"]
            let out = Pipe(), inp = Pipe()
            p.standardOutput = out
            p.standardInput = inp
            p.standardError = FileHandle.nullDevice
            try p.run()
            inp.fileHandleForWriting.write(Data((#"{"id":1,"text":"Hello, world"}"# + "\n").utf8))
            var text = readLines(out.fileHandleForReading.fileDescriptor, count: 1)
            inp.fileHandleForWriting.write(Data((#"{"id":2,"text":"Hello"}"# + "\n" + #"{"id":3,"te"#).utf8))
            text += readLines(out.fileHandleForReading.fileDescriptor, count: 1)
            kill(p.processIdentifier, signal)
            text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            try? inp.fileHandleForWriting.close()
            #expect(p.terminationReason == .exit, "signal \(signal)")
            #expect(p.terminationStatus == expected, "signal \(signal)")
            #expect(text == #"{"id":1,"height":20.5,"width":84.5,"lines":1,"truncated":false}"# + "\n"
                + #"{"id":2,"height":20.5,"width":36.5,"lines":1,"truncated":false}"# + "\n")
        }
    }

    /// Issue 13 (5): `plumb measure … | head -1` ends by SIGPIPE (141 in the shell), silently,
    /// whatever the parent did with SIGPIPE.
    @Test func closedOutputEndsBySIGPIPESilently() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-pipe-\(getpid()).jsonl")
        try String(repeating: #"{"text":"Hello, world"}"# + "\n", count: 5000).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run(["-c", #""$0" measure "$1" | head -1; echo "status ${PIPESTATUS[0]}" >&2"#,
                         Self.binary.path, file.path], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(r.lines.count == 1)
        #expect(try r.json(0)["lines"] as? Int == 1)
        #expect(r.stderr == "status 141\n")  // nothing else on standard error
    }

    /// Issue 15 (6): `--stats` counts what was measured (5,000 identical lines: one miss, not
    /// one per batch) and reports the bytes the entries use apart from the table's allocation.
    /// On more than one worker the first chunks race: each worker may measure the line once
    /// before the other's result is in the table, and each such measurement is a miss.
    @Test func statsCountWhatWasMeasuredAndBytesInUse() throws {
        let input = Data(String(repeating: #"{"text":"Hello, world"}"# + "\n", count: 5000).utf8)
        for workers in [1, 2] {
            let r = try run(["measure", "--stats", "--workers", String(workers)], input: input)
            #expect(r.lines.count == 5000)
            let results = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("stats: results:") }.map(String.init))
            let misses = Int(results.split(separator: "misses (measured) ")[1].prefix { $0.isNumber }) ?? -1
            #expect((1...workers).contains(misses), "\(results)")
            // Two entries: the result and the width-range entry of the text, 48 bytes each.
            #expect(results.hasPrefix("stats: results: hits \(5000 - misses), misses (measured) \(misses), insertions 2, evictions 0, entries 2; bytes in use 96, allocated "), "\(results)")
            let allocated = Int(results.split(separator: "allocated ")[1].prefix { $0.isNumber }) ?? 0
            #expect(allocated > 96)
            #expect(results.hasSuffix(", budget 8388608"), "\(results)")  // the 8 MiB default
        }
    }
}

extension CLITests {
    /// Issue 15: `--reveal-line` without `--cover-lines` and colours an SVG viewer cannot read
    /// are usage errors in `plumb render` (a colour goes into an SVG attribute as it is).
    @Test func renderRejectsRevealWithoutCoverAndBadColors() throws {
        for args in [["--reveal-line", "0"], ["--reveal-at-y", "3"], ["--gradient", "#ff0000,notacolor"],
                     ["--gradient", #"red,"/><script>"#], ["--gradient", "#ff0,#00ff0"], ["--gradient", "red,blue,nan"]] {
            let r = try run(["render", "Hello", "-o", "/dev/null"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(!r.stderr.isEmpty)
        }
        for args in [["--cover-lines", "--reveal-line", "0"], ["--gradient", "#f00,#0000ff,45"], ["--gradient", "Red,navy"],
                     ["--gradient", "rgb(255 0 0),hsl(240deg 100% 50%)"], ["--gradient", "#ff000080,transparent"]] {
            let r = try run(["render", "Hello", "-o", "/dev/null"] + args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
    }
}

extension CLITests {
    /// Issue 15: `PlumbBenchmarks --help` prints help and exits instead of starting the run;
    /// a mistyped argument is a usage error.
    @Test func benchmarksHelpDoesNotRun() throws {
        let benchmarks = Self.binary.deletingLastPathComponent().appendingPathComponent("PlumbBenchmarks")
        let help = try run(["--help"], executable: benchmarks)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: "), "\(help.stdout)")
        #expect(!help.stdout.contains("cells: "), "the run started")
        let bad = try run(["--rnus", "3"], executable: benchmarks)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown argument '--rnus'"), "\(bad.stderr)")
    }
}

extension CLITests {
    /// The defaults `plumb measure --help` states are the ones used: giving each explicitly
    /// changes no answer, and the cache budget is the one `--stats` reports.
    @Test func helpDefaultsAreTheDefaultsUsed() throws {
        let text = try run(["measure", "--help"]).stdout
        let help = String(text[try #require(text.range(of: "OPTIONS:")).upperBound...])
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        func stated(_ option: String) throws -> String {
            let after = try #require(help.range(of: "--\(option) <"), "\(option)").upperBound
            let start = try #require(help.range(of: "(default: ", range: after..<help.endIndex), "\(option)").upperBound
            let end = try #require(help.range(of: ")", range: start..<help.endIndex), "\(option)").lowerBound
            return String(help[start..<end])
        }
        var explicit: [String] = []
        for option in ["families", "size", "weight", "width", "scale", "tab-interval", "line-break-mode", "alignment",
                       "compatibility", "batch-size"] {
            explicit += ["--\(option)", try stated(option)]
        }
        let input = Data(((0..<40).map { #"{"text":"Hello\tworld, 你好 \#($0) \#(String(repeating: "word ", count: $0))"}"# }
            .joined(separator: "\n") + "\n").utf8)
        let plain = try run(["measure", "--lines", "--stats"], input: input)
        let given = try run(["measure", "--lines"] + explicit, input: input)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(plain.stdout == given.stdout)
        #expect(plain.lines.count == 40)
        #expect(plain.stderr.contains("budget \(try stated("cache-budget"))\n"), "\(plain.stderr)")
        #expect(try stated("workers") == "every core")
    }
}

extension CLITests {
    /// Every range `--help` states is the one the command enforces: a value at each edge is
    /// accepted, one just outside is a usage error (exit 64).
    @Test func theHelpsRangesAreEnforced() throws {
        let help = try run(["measure", "--help"]).stdout
        for text in ["> 0 and at most 10000", "1–1000", "0.01–100", "Layout width in points, > 0", "≥ 1", "≥ 0"] {
            #expect(help.contains(text), "\(text)")
        }
        let cell = Data(#"{"text":"a"}"#.utf8 + [0x0A])
        func status(_ option: String, _ value: String) throws -> Int32 {
            try run(["measure", "--" + option, value], input: cell).status
        }
        for (option, inside, outside) in [
            ("size", ["10000", "0.5"], ["10000.5", "0"]), ("weight", ["1", "1000"], ["0", "1001"]),
            ("scale", ["0.01", "100"], ["0.009", "100.5"]), ("width", ["0.5"], ["0"]),
            ("tab-interval", ["1"], ["0"]), ("workers", ["1"], ["0"]), ("batch-size", ["1"], ["0"]),
            ("cache-budget", ["0"], ["-1"]),
        ] {
            for v in inside { #expect(try status(option, v) == 0, "--\(option) \(v)") }
            for v in outside { #expect(try status(option, v) == 64, "--\(option) \(v)") }
        }
    }
}

extension CLITests {
    /// A large `--batch-size` is a limit, not an allocation: 10⁸ lines used to reserve 30 GB
    /// before the first line was read (the process aborted), 4·10¹⁸ overflowed the size.
    @Test func aLargeBatchSizeAllocatesNothingUpFront() throws {
        let input = Data(#"{"id":1,"text":"hello"}\#n{"id":2,"text":"world"}\#n"#.utf8)
        for size in ["100000000", "4000000000000000000", String(Int.max)] {
            let r = try run(["measure", "--batch-size", size], input: input)
            #expect(r.status == 0, "\(size): \(r.stderr)")
            #expect(r.lines.count == 2, "\(size)")
        }
    }

    /// Chunks answered by two workers in whatever order they finish: the answers of a
    /// 7,500-line input on two workers are those of one line per batch on one worker, in input
    /// order.
    @Test func chunksOnTwoWorkersKeepEveryAnswerAndTheOrder() throws {
        let lines = (0..<7_500).map { #"{"id":\#($0),"text":"row \#($0) \#(String(repeating: "word ", count: $0 % 9))中文"}"# }
        // From a file: `run` writes all of standard input before it reads the output.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-grow-\(getpid()).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let grown = try run(["measure", file.path, "--workers", "2"])
        let single = try run(["measure", file.path, "--workers", "1", "--batch-size", "1"])
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(grown.lines.count == 7_500)
        #expect(grown.stdout == single.stdout)
    }

    /// The main thread waits for the workers only when it is a window of lines ahead of them
    /// (then until half of it is done), not once per chunk: each wait wakes it on a core both
    /// workers use. The drain at the end waited for each of the up to 1,024 chunks read ahead
    /// in turn: 209 waits for the 1,250 chunks below, now 15. (The first version of the pool
    /// also slept in every check of a chunk, `DispatchSemaphore.wait(timeout: .now())` taking
    /// the wall-clock overload: 2,189 voluntary context switches here; checks are an atomic
    /// flag now.) Counted by `--stats`, not by the process's context switches: under
    /// ThreadSanitizer the engine's own locks sleep tens of thousands of times.
    @Test func theMainThreadDoesNotWaitOncePerChunk() throws {
        let lines = (0..<20_000).map { #"{"id":\#($0),"text":"row \#($0) with a few words \#(String(repeating: "word ", count: $0 % 5))"}"# }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-waits-\(getpid()).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try run(["measure", file.path, "--workers", "2", "--batch-size", "16", "--stats"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 20_000)
        let pool = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("stats: workers:") }.map(String.init))
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else {
            #expect(pool == "stats: workers: 1, on the main thread, chunks of up to 16 lines")
            return
        }
        #expect(pool.hasPrefix("stats: workers: 2 threads, 1250 chunks of up to 16 lines, the main thread waited "), "\(pool)")
        let waits = Int(pool.split(separator: "waited ")[1].prefix { $0.isNumber }) ?? -1
        // A window is 16,384 lines while the engine is made, then 4,096: one wait per half
        // window (128 chunks) at most, plus the drain at the end.
        #expect(waits < 1250 / 16, "\(pool)")
    }
}

/// `measure --list` (issue 29, item 4): rows with running offsets a virtualizer takes as they
/// are, the same heights as the library's `listHeights`, errors kept in place.
extension CLITests {
    @Test func listPrintsRunningOffsetsAndTheTotal() throws {
        let texts = ["Hello there, a short message", "A longer message that wraps onto a second line at this width, surely", "三行目のメッセージ"]
        let lines = [
            #"{"id":"a","text":"\#(texts[0])","width":200,"extraHeight":20}"#,
            #"{"id":7,"text":"\#(texts[1])","width":200,"extraHeight":12.25,"scale":3}"#,
            #"{"id":"bad","text":"x","size":"big"}"#,
            #"{"id":"c","text":"\#(texts[2])","width":90,"extraHeight":-500}"#,
        ]
        let r = try run(["measure", "--list", "--workers", "2", "--batch-size", "1"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(r.status == 1, "an error line makes the exit status 1")
        #expect(r.lines.count == 5)
        // The library's rule: text height + extra, ceiled to each row's grid, never below 0.
        let cells = [Cell(text: texts[0], style: TextStyle(), width: 200), Cell(text: texts[1], style: TextStyle(), width: 200)]
        let engine = TextMeasurer()
        let a = try engine.listHeights(for: [ListRow(id: 0, cell: cells[0], extraHeight: 20)], scale: 2).totalHeight
        let b = try engine.listHeights(for: [ListRow(id: 0, cell: cells[1], extraHeight: 12.25)], scale: 3).totalHeight
        var start = 0.0
        for (i, size) in [a, b, 0, 0].enumerated() {
            let row = try r.json(i)
            #expect(row["index"] as? Int == i)
            #expect(abs((row["start"] as? Double ?? -1) - start) < 1e-6, "row \(i) start")
            #expect(abs((row["size"] as? Double ?? -1) - size) < 1e-6, "row \(i) size")
            start += size
            #expect(abs((row["end"] as? Double ?? -1) - start) < 1e-6, "row \(i) end")
        }
        #expect(try r.json(0)["id"] as? String == "a" && r.json(1)["id"] as? Int == 7)
        #expect((try r.json(2)["error"] as? String)?.contains("size") == true)
        let total = try r.json(4)
        #expect(abs((total["total"] as? Double ?? -1) - (a + b)) < 1e-6 && total["count"] as? Int == 4)
        let both = try run(["measure", "--list", "--lines"], input: Data())
        #expect(both.status == 64 && both.stderr.contains("--list"))
    }
}
