import Foundation
import Testing

/// End-to-end tests of `"runs"` cells: the JSON shape, each bad run, `--offsets`, one run ==
/// the `"text"` cell, and `layout` / `render` taking the same cells.
extension CLITests {
    static let issueExample = #"{"id":7,"width":320,"size":15,"runs":[{"text":"Alice ","weight":700},{"text":"replied "},{"attachment":{"width":18,"height":18,"baselineOffset":-3,"id":"avatar"}},{"text":"同意 😀","size":17,"families":["Noto Sans CJK SC"]}],"truncationToken":"… more"}"#

    func lines(_ cells: [String]) -> Data { Data(cells.map { $0 + "\n" }.joined().utf8) }

    /// The issue's example: measured, with each line's box and the avatar's rect on the
    /// baseline (its bottom 3 pt below it); scalars count the box as one.
    @Test func runsCellJSONShape() throws {
        let r = try run(["measure", "--lines", "--line-starts"], input: lines([Self.issueExample]))
        #expect(r.status == 0, "\(r.stderr)")
        let o = try r.json(0)
        #expect(o["id"] as? Int == 7)
        #expect(o["lines"] as? Int == 1)
        #expect(o["truncated"] as? Bool == false)
        #expect(o["warnings"] == nil)
        #expect(o["token"] == nil)  // not truncated
        #expect(o["lineStarts"] as? [Int] == [0])
        let line = try #require((o["lineBoxes"] as? [[String: Any]])?.first)
        #expect(line["end"] as? Int == 19)  // "Alice replied " 14 + box 1 + "同意 😀" 4
        let boxes = try #require(o["boxes"] as? [[String: Any]])
        #expect(boxes.count == 1)
        #expect(boxes[0]["id"] as? String == "avatar")
        #expect(boxes[0]["line"] as? Int == 0)
        #expect(boxes[0]["offset"] as? Int == 14)
        let rect = try #require(boxes[0]["rect"] as? [Double])
        #expect(rect.count == 4)
        #expect(rect[2] == 18)
        #expect(rect[3] == 18)
        let baseline = try #require(line["baseline"] as? Double)
        #expect(abs((rect[1] + rect[3]) - (baseline + 3)) <= 1e-6)
        // The CJK run at 17 pt raises the line above a 15 pt line of the same text.
        let plain = try run(["measure"], input: lines([#"{"width":320,"size":15,"text":"Alice replied 同意 😀"}"#])).json(0)
        #expect(try #require(o["height"] as? Double) > #require(plain["height"] as? Double))
    }

    /// Every bad run is an error for its line alone; fields that can be ignored or repaired
    /// are warnings (a negative box size is replaced by 0 and flagged by the engine).
    @Test func eachBadRunGetsAPerLineErrorAndTheBatchStaysIntact() throws {
        let cases: [(String, String)] = [
            (#"{"runs":[]}"#, #"field 'runs' is empty (give at least one run: {"text":…} or {"attachment":…})"#),
            (#"{"runs":[{"weight":700}]}"#, "runs[0] has neither 'text' nor 'attachment'"),
            (#"{"runs":[{"text":"a"},{"text":"b","attachment":{"width":1,"height":1}}]}"#, "runs[1] has both 'text' and 'attachment' (a run is one or the other)"),
            (#"{"runs":[{"attachment":{"width":"wide","height":1}}]}"#, "runs[0].attachment.width must be a number, not string"),
            (#"{"runs":[{"attachment":{"width":1,"height":null}}]}"#, "runs[0].attachment.height must be a number, not null"),
            (#"{"runs":[{"attachment":{"width":1}}]}"#, "runs[0].attachment has no 'height'"),
            (#"{"runs":[{"attachment":{"width":1,"height":1,"id":5}}]}"#, "runs[0].attachment.id must be a string, not number"),
            (#"{"runs":[{"attachment":7}]}"#, "runs[0].attachment must be an object with 'width' and 'height', not number"),
            (#"{"runs":[{"text":5}]}"#, "runs[0].text must be a string, not number"),
            (#"{"runs":[{"text":"a","size":"big"}]}"#, "runs[0].size must be a number, not string"),
            (#"{"runs":[{"text":"a","weight":1.5}]}"#, "runs[0].weight must be an integer, not number"),
            (#"{"runs":[{"text":"a","families":[1]}]}"#, "runs[0].families must be an array of strings or a comma-separated string, not array"),
            (#"{"runs":["a"]}"#, "runs[0] must be an object, not string"),
            (#"{"runs":{"text":"a"}}"#, "field 'runs' must be an array of runs, not object"),
            (#"{"text":"a","runs":[{"text":"a"}]}"#, "give 'text' or 'runs', not both"),
            (#"{"runs":[{"text":"a"}],"truncationToken":4}"#, "field 'truncationToken' must be a string or an array of runs, not number"),
            (#"{"runs":[{"text":"a"}],"truncationToken":[]}"#, #"field 'truncationToken' is empty (give at least one run: {"text":…} or {"attachment":…})"#),
        ]
        var input = [#"{"id":"first","runs":[{"text":"ok"}]}"#]
        for (i, c) in cases.enumerated() { input.append(c.0.replacingOccurrences(of: "{\"", with: "{\"id\":\(i),\"", options: .anchored)) }
        input.append(#"{"id":"last","runs":[{"text":"still measured"}]}"#)
        let r = try run(["measure"], input: lines(input))
        #expect(r.status == 1)
        #expect(r.lines.count == cases.count + 2)
        #expect(try r.json(0)["height"] != nil)
        for (i, c) in cases.enumerated() {
            let o = try r.json(i + 1)
            #expect(o["id"] as? Int == i, "\(c.0)")
            #expect(o["error"] as? String == c.1, "\(c.0)")
            #expect(o["line"] as? Int == i + 2, "\(c.0)")
        }
        #expect(try r.json(cases.count + 1)["id"] as? String == "last")
        #expect(try r.json(cases.count + 1)["height"] != nil)

        // Warnings: measured, with what was ignored or replaced.
        let warned = try run(["measure"], input: lines([
            #"{"runs":[{"text":"a","wieght":700},{"attachment":{"width":4,"height":4,"url":"x"}}]}"#,
            #"{"runs":[{"text":"a","color":"blurple","weight":5000}]}"#,
            #"{"runs":[{"text":"a"},{"attachment":{"width":-4,"height":4}}]}"#,
        ]))
        #expect(warned.status == 0)
        #expect(try warned.json(0)["warnings"] as? [String] == ["unknown field 'wieght' in runs[0] ignored", "unknown field 'url' in runs[1].attachment ignored"])
        #expect(try warned.json(1)["warnings"] as? [String] == [
            "runs[0].color 'blurple' is not a color (#rgb, #rrggbb, rgb(…), hsl(…) or a CSS name); ignored",
            "runs[0].weight 5000 is out of range (1–1000); clamped",
        ])
        let repaired = try warned.json(2)
        #expect(repaired["fallback"] as? Bool == true)
        #expect(repaired["warnings"] as? [String] == ["attachment.width: -4.0 is not a usable size; used 0"])
    }

    /// `--offsets` chooses the unit of line starts, line boxes and box offsets; scalars by
    /// default (an emoji is 1 scalar, 2 UTF-16 units, 4 bytes; a box 1, 1 and 3).
    @Test func offsetsChooseTheUnit() throws {
        let cell = #"{"width":60,"runs":[{"text":"😀 hello world "},{"attachment":{"width":10,"height":10,"id":"x"}},{"text":" é 𝒜 x"}]}"#
        var starts: [String: [Int]] = [:]
        var boxOffsets: [String: Int] = [:]
        for unit in ["", "scalars", "utf16", "utf8"] {
            let r = try run(["measure", "--lines", "--line-starts"] + (unit.isEmpty ? [] : ["--offsets", unit]), input: lines([cell]))
            #expect(r.status == 0, "\(r.stderr)")
            let o = try r.json(0)
            starts[unit] = o["lineStarts"] as? [Int]
            let boxes = try #require(o["lineBoxes"] as? [[String: Any]])
            #expect(boxes.map { $0["start"] as? Int ?? -1 } == starts[unit], "\(unit)")
            boxOffsets[unit] = (o["boxes"] as? [[String: Any]])?.first?["offset"] as? Int
        }
        #expect(starts[""] == [0, 2, 8, 16])
        #expect(starts["scalars"] == starts[""])
        #expect(starts["utf16"] == [0, 3, 9, 17])
        #expect(starts["utf8"] == [0, 5, 11, 21])
        #expect(boxOffsets == ["": 14, "scalars": 14, "utf16": 15, "utf8": 17])
        // Plain text cells too: "😀𝒜 b" at a width that breaks after the space.
        let plain = try run(["measure", "--line-starts", "--offsets", "utf16", "--width", "1"], input: lines([#"{"text":"😀 b"}"#])).json(0)
        #expect(plain["lineStarts"] as? [Int] == [0, 3])
        let bad = try run(["measure", "--offsets", "bytes"], input: lines([cell]))
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown unit 'bytes' (one of scalars, utf8, utf16)"), "\(bad.stderr)")
    }

    /// A one-run `"runs"` cell answers exactly as the `"text"` cell, and a run split in two
    /// with the same attributes changes nothing — with every output option.
    @Test func oneRunCellAnswersExactlyAsTheTextCell() throws {
        let text = "Hello wonderful world of text 😀 é — مرحبا بالعالم"
        let pairs: [(String, String)] = [
            (#"{"text":"\#(text)","width":90}"#, #"{"runs":[{"text":"\#(text)"}],"width":90}"#),
            (#"{"text":"\#(text)","width":90,"weight":700,"size":13}"#, #"{"runs":[{"text":"\#(text)","weight":700,"size":13}],"width":90}"#),
            (#"{"text":"\#(text)","width":90,"weight":700}"#, #"{"runs":[{"text":"Hello wonderful "},{"text":"world of text 😀 é — مرحبا بالعالم"}],"weight":700,"width":90}"#),
            // Truncated: "…" is in the cell's style (a run's overrides do not reach it, so the
            // style fields stay on the cell here).
            (#"{"text":"\#(text)","width":70,"families":"Noto Serif","letterSpacing":1.5,"maxLines":2,"lineBreakMode":"truncatingTail"}"#,
             #"{"runs":[{"text":"\#(text)"}],"families":["Noto Serif"],"letterSpacing":1.5,"width":70,"maxLines":2,"lineBreakMode":"truncatingTail"}"#),
            (#"{"text":"\#(text)","width":70,"families":"Noto Serif","letterSpacing":1.5}"#,
             #"{"runs":[{"text":"\#(text)","families":["Noto Serif"],"letterSpacing":1.5}],"width":70}"#),
        ]
        for options in [[], ["--lines", "--line-starts", "--exact-numbers"], ["--lines", "--offsets", "utf16"]] {
            let r = try run(["measure"] + options, input: lines(pairs.flatMap { [$0.0, $0.1] }))
            #expect(r.status == 0, "\(r.stderr)")
            for k in pairs.indices {
                #expect(r.lines[2 * k] == r.lines[2 * k + 1], "\(options) \(pairs[k].1)")
            }
        }
    }

    /// A truncation token (string or runs, or `--truncation-token`) replaces "…"; `--lines`
    /// gives its rect, at the end of the last line.
    @Test func truncationTokenRect() throws {
        let long = "A message that is much too long to fit into two lines of a narrow cell like this one."
        let r = try run(["measure", "--lines", "--max-lines", "2", "--line-break-mode", "truncatingTail", "--width", "200"], input: lines([
            #"{"text":"\#(long)","truncationToken":[{"text":"… "},{"text":"more","weight":700}]}"#,
            #"{"text":"\#(long)"}"#,
        ]))
        #expect(r.status == 0, "\(r.stderr)")
        let o = try r.json(0)
        let token = try #require(o["token"] as? [String: Any])
        #expect(token["line"] as? Int == 1)
        let rect = try #require(token["rect"] as? [Double])
        let last = try #require((o["lineBoxes"] as? [[String: Any]])?.last?["rect"] as? [Double])
        #expect(abs((rect[0] + rect[2]) - (last[0] + last[2])) <= 1e-6)  // ends the line
        #expect(try r.json(1)["token"] == nil)  // no token asked: the plain answer
        let option = try run(["measure", "--lines", "--max-lines", "2", "--line-break-mode", "truncatingTail", "--width", "200",
                              "--truncation-token", "… more"], input: lines([#"{"text":"\#(long)"}"#])).json(0)
        #expect(option["token"] != nil)
    }

    /// `plumb layout` and `plumb render` read the same cells from a file or standard input:
    /// layout explains the runs and the box; render draws the box as a labelled rect and runs
    /// in their colours; a bad line is reported and the others drawn.
    @Test func layoutAndRenderTakeCells() throws {
        let colored = ##"{"runs":[{"text":"Bob","color":"#1d9bf0","weight":700},{"text":" hi"}]}"##
        let layout = try run(["layout", "-"], input: lines([Self.issueExample, #"{"runs":[]}"#, colored]))
        #expect(layout.status == 1)
        #expect(layout.stdout.contains("cell 7 (line 1)"), "\(layout.stdout)")
        #expect(layout.stdout.contains(#"3. box "avatar" 18×18, offset -3"#), "\(layout.stdout)")
        #expect(layout.stdout.contains(#"box "avatar" on line 1, scalar 14 (UTF-16 14)"#), "\(layout.stdout)")
        #expect(layout.stdout.contains("cell null (line 3)"), "\(layout.stdout)")
        #expect(layout.stderr.contains("plumb layout: line 2: field 'runs' is empty"), "\(layout.stderr)")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-rich-\(getpid()).jsonl")
        try lines([Self.issueExample, colored]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let svg = try run(["render", file.path])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(svg.stdout.contains(#"class="inline-box" data-id="avatar""#))
        #expect(svg.stdout.contains(##"fill="#1d9bf0" href="##))
        let fromLayoutFile = try run(["layout", "--file", file.path])
        #expect(fromLayoutFile.status == 0)
        #expect(try fromLayoutFile.stdout == run(["layout", "-"], input: lines([Self.issueExample, colored])).stdout)
        // The text form is unchanged.
        #expect(try run(["layout", "a b"]).stdout.hasPrefix(#"text: "a b""#))
    }
}

extension CLITests {
    /// The README's rich-cell example prints what the README says.
    @Test func theReadmeRichCellExampleOutput() throws {
        let r = try run(["measure", "--lines"], input: lines([Self.issueExample]))
        let expected = #"{"id":7,"height":25,"width":170,"lines":1,"truncated":false,"lineBoxes":[{"start":0,"end":19,"rect":[0,0,169.854992,24.616],"baseline":19.72,"usedWidth":169.854992}],"boxes":[{"id":"avatar","rect":[92.88,4.72,18,18],"line":0,"offset":14}]}"#
        #expect(r.lines == [expected])
        // The README shows this input and prints this output.
        let readme = try Self.readme()
        #expect(readme.contains("echo '" + Self.issueExample + "'"), "the README's rich cell is not issueExample")
        #expect(readme.contains("# " + expected + "\n"))
    }

    /// `plumb layout --offsets UNIT` prints each line's offsets (and each box's) in the unit
    /// `measure --offsets` names; an unknown unit is a usage error.
    @Test func layoutPrintsOffsetsInTheChosenUnit() throws {
        let text = "a😀 b😀 c😀 d😀 e😀 f😀"
        let scalars = try run(["layout", text, "--width", "40", "--size", "15"])
        let utf16 = try run(["layout", text, "--width", "40", "--size", "15", "--offsets", "utf16"])
        let utf8 = try run(["layout", text, "--width", "40", "--size", "15", "--offsets", "utf8"])
        #expect([scalars.status, utf16.status, utf8.status] == [0, 0, 0])
        #expect(scalars.stdout.contains("  scalars 0..<3, width"), "\(scalars.stdout)")
        #expect(utf16.stdout.contains("  utf16 0..<4, width"), "\(utf16.stdout)")
        #expect(utf16.stdout.contains("  utf16 4..<9, width"), "\(utf16.stdout)")  // "b😀 c": the emoji is 2 units
        #expect(utf8.stdout.contains("  utf8 0..<6, width") && utf8.stdout.contains("  utf8 6..<13, width"), "\(utf8.stdout)")
        let boxes = try run(["layout", "--offsets", "utf8", "-"], input: lines([Self.issueExample]))
        #expect(boxes.stdout.contains(#"box "avatar" on line 1, utf8 14: rect"#), "\(boxes.stdout)")
        let bad = try run(["layout", "x", "--offsets", "bytes"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("unknown unit 'bytes' (one of scalars, utf8, utf16)"), "\(bad.stderr)")
        #expect(try run(["layout", "--help"]).stdout.contains("--offsets <unit>"))
    }

    /// A truncated line is printed with the token the layout drew ("… more"), not "…".
    @Test func layoutShowsTheTruncationTokenItDrew() throws {
        let r = try run(["layout", "The quick brown fox jumps over the lazy dog", "--width", "120", "--size", "15",
                         "--max-lines", "1", "--line-break-mode", "truncatingTail", "--truncation-token", "… more"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#"line 1: "The quic… more""#), "\(r.stdout)")
        let plain = try run(["layout", "The quick brown fox jumps over the lazy dog", "--width", "120", "--size", "15",
                             "--max-lines", "1", "--line-break-mode", "truncatingTail"])
        #expect(plain.stdout.contains(#"line 1: "The quick brow…""#), "\(plain.stdout)")
    }

    /// A box of 1e300 × 1e300 is explained with its warnings (it is laid out as 0 × 0), as a
    /// NaN one is; it trapped while printing its size.
    @Test func layoutOfAnAbsurdBoxWarns() throws {
        for size in ["1e300", "-5"] {
            let cell = #"{"runs":[{"text":"a "},{"attachment":{"width":\#(size),"height":\#(size),"id":"x"}}]}"#
            let r = try run(["layout", "-"], input: lines([cell]))
            #expect(r.reason == .exit, "\(size)")
            #expect(r.status == 0, "\(r.stderr)")
            let value = size == "1e300" ? "1e+300" : "-5.0"
            #expect(r.stdout.contains("warning: attachment.width: \(value) is not a usable size; used 0"), "\(r.stdout)")
            #expect(r.stdout.contains(#"box "x" on line 1, scalar 2 (UTF-16 2): rect (x "#) && r.stdout.contains(", w 0, h 0)"), "\(r.stdout)")
        }
    }
}
