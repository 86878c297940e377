import XCTest
@testable import CLIKit

final class ArgumentParserTests: XCTestCase {
    static let measure = CommandSpec(
        name: "measure",
        overview: "Measure JSON Lines of cells and print one result per line.",
        options: [
            OptionSpec(name: "families", kind: .list(separator: ","), help: "Comma-separated font cascade.",
                       defaultValue: "Noto Sans,Noto Sans CJK SC"),
            OptionSpec(name: "size", short: "s", valueName: "POINTS", kind: .double, help: "Font size in points.",
                       defaultValue: "12"),
            OptionSpec(name: "threads", valueName: "n", kind: .int, help: "Worker threads."),
            OptionSpec(name: "locale", kind: .string, help: "BCP 47 language tag used for line breaking."),
            OptionSpec(name: "stats", kind: .flag, help: "Print timing statistics to standard error."),
        ],
        positionals: [PositionalSpec(name: "file", help: "JSON Lines input ('-' or none: standard input).",
                                     isOptional: true)])
    static let fonts = CommandSpec(name: "fonts", overview: "List the available font families.")
    static let root = CommandSpec(name: "plumb", overview: "Measure text the way a renderer would.",
                                  subcommands: [measure, fonts], defaultSubcommand: "measure", version: "0.3.1")

    private func run(_ args: [String], _ spec: CommandSpec = measure,
                     file: StaticString = #filePath, line: UInt = #line) throws -> ParsedArguments {
        switch try CommandLineParser.parse(args, spec: spec) {
        case .run(let parsed): return parsed
        case .help(let text): XCTFail("unexpected help: \(text)", file: file, line: line)
        case .version(let v): XCTFail("unexpected version: \(v)", file: file, line: line)
        }
        throw CancellationError()
    }

    private func assertUsageError(_ args: [String], _ message: String, _ spec: CommandSpec = measure,
                                  file: StaticString = #filePath, line: UInt = #line) {
        do {
            let outcome = try CommandLineParser.parse(args, spec: spec)
            XCTFail("expected '\(message)', got \(outcome)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.message, message, file: file, line: line)
        }
    }

    func testEveryKindAndDefaults() throws {
        let p = try run(["cells.jsonl", "--families", "Inter, Noto Sans ,,Noto Color Emoji", "--size", "14.5",
                         "--threads", "4", "--locale", "ja-JP", "--stats"])
        XCTAssertEqual(p.positional("file"), "cells.jsonl")
        XCTAssertEqual(p.list("families"), ["Inter", "Noto Sans", "Noto Color Emoji"])
        XCTAssertEqual(p.double("size"), 14.5)
        XCTAssertEqual(p.int("threads"), 4)
        XCTAssertEqual(p.string("locale"), "ja-JP")
        XCTAssertTrue(p.flag("stats"))
        XCTAssertEqual(p.givenOptions, ["families", "size", "threads", "locale", "stats"])

        let d = try run([])
        XCTAssertNil(d.positional("file"))
        XCTAssertEqual(d.list("families"), ["Noto Sans", "Noto Sans CJK SC"])  // default
        XCTAssertEqual(d.double("size"), 12)                                   // default
        XCTAssertFalse(d.isGiven("size"))
        XCTAssertNil(d.int("threads"))
        XCTAssertNil(d.string("locale"))
        XCTAssertFalse(d.flag("stats"))
        XCTAssertEqual(d.givenOptions, [])
        XCTAssertEqual(d.commandPath, ["measure"])
    }

    func testEqualsFormShortNamesRepeatsAndNegativeNumbers() throws {
        let p = try run(["--size=9", "-s", "10.25", "--threads=-2", "--locale=", "--families=A=B", "-"])
        XCTAssertEqual(p.double("size"), 10.25)          // repeated: last wins
        XCTAssertEqual(p.int("threads"), -2)
        XCTAssertEqual(p.string("locale"), "")
        XCTAssertEqual(p.list("families"), ["A=B"])
        XCTAssertEqual(p.positional("file"), "-")
        XCTAssertEqual(try run(["--size", "-3.5"]).double("size"), -3.5)
        XCTAssertEqual(try run(["--size", "-.5"]).double("size"), -0.5)
        XCTAssertEqual(try run(["--size", "1e1"]).double("size"), 10)
    }

    func testDoubleDashEndsOptions() throws {
        XCTAssertEqual(try run(["--", "--stats"]).positional("file"), "--stats")
        XCTAssertFalse(try run(["--", "--stats"]).flag("stats"))
        XCTAssertEqual(try run(["--stats", "--", "-h"]).positional("file"), "-h")
        assertUsageError(["--", "a", "b"], "unexpected argument 'b'")
    }

    /// A mistyped option or subcommand names the nearest one; a distant one names nothing.
    func testUnknownNamesSuggestTheNearest() {
        assertUsageError(["--sise", "3"], "unknown option '--sise' (did you mean '--size'?)")
        assertUsageError(["--stast"], "unknown option '--stast' (did you mean '--stats'?)")  // a swap is one edit
        assertUsageError(["--familes=a"], "unknown option '--familes' (did you mean '--families'?)")
        assertUsageError(["--thread"], "unknown option '--thread' (did you mean '--threads'?)")
        assertUsageError(["--x"], "unknown option '--x'")
        assertUsageError(["--colour"], "unknown option '--colour'")
        assertUsageError(["fnts"], "unknown subcommand 'fnts' (did you mean 'fonts'?)",
                         CommandSpec(name: "plumb", overview: "P.", subcommands: [Self.fonts]))
        XCTAssertEqual(CommandLineParser.suggestion(for: "widht", among: ["height", "width", "weight"]), "width")
        XCTAssertEqual(CommandLineParser.editDistance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(CommandLineParser.editDistance(Array("ab"), Array("ba")), 1)
        XCTAssertEqual(CommandLineParser.editDistance(Array(""), Array("abc")), 3)
    }

    func testUsageErrors() {
        assertUsageError(["--bogus"], "unknown option '--bogus'")
        assertUsageError(["--bogus=1"], "unknown option '--bogus'")
        assertUsageError(["-x"], "unknown option '-x'")
        assertUsageError(["-s12"], "unknown option '-s12'")
        assertUsageError(["--size"], "missing value for '--size <points>'")
        assertUsageError(["--families", "--stats"], "missing value for '--families <families>'")
        assertUsageError(["--size", "big"], "invalid value 'big' for '--size <points>': expected a number")
        assertUsageError(["--size=nan"], "invalid value 'nan' for '--size <points>': expected a number")
        assertUsageError(["--size", "inf"], "invalid value 'inf' for '--size <points>': expected a number")
        assertUsageError(["--threads", "2.5"], "invalid value '2.5' for '--threads <n>': expected an integer")
        assertUsageError(["--threads", ""], "invalid value '' for '--threads <n>': expected an integer")
        assertUsageError(["--stats=yes"], "option '--stats' does not take a value")
        assertUsageError(["a.jsonl", "b.jsonl"], "unexpected argument 'b.jsonl'")
        assertUsageError(["--bogus", "--size", "x"], "unknown option '--bogus'")  // first error is reported
        let required = CommandSpec(name: "tool", overview: "T.", positionals: [PositionalSpec(name: "input", help: "I.")])
        assertUsageError([], "missing expected argument '<input>'", required)
        assertUsageError(["list"], "unknown subcommand 'list'",
                         CommandSpec(name: "plumb", overview: "P.", subcommands: [Self.fonts]))
    }

    func testUsageErrorDescription() {
        do {
            _ = try CommandLineParser.parse(["--bogus"], spec: Self.root)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(UsageError.exitCode, 64)
            XCTAssertEqual(error.commandPath, ["plumb", "measure"])
            XCTAssertEqual(error.description, """
                Error: unknown option '--bogus'
                USAGE: plumb measure [<file>] [--families <families>] [--size <points>]
                                     [--threads <n>] [--locale <locale>] [--stats]
                  See 'plumb measure --help' for more information.
                """)
        }
    }

    func testSubcommandsHelpAndVersion() throws {
        let p = try run(["measure", "--stats", "x.jsonl"], Self.root)
        XCTAssertEqual(p.commandPath, ["plumb", "measure"])
        XCTAssertEqual(p.subcommand, "measure")
        XCTAssertEqual(p.positional("file"), "x.jsonl")
        // Default subcommand gets all arguments.
        let d = try run(["x.jsonl", "--size", "8"], Self.root)
        XCTAssertEqual(d.commandPath, ["plumb", "measure"])
        XCTAssertEqual(d.double("size"), 8)
        XCTAssertEqual(try run(["fonts"], Self.root).commandPath, ["plumb", "fonts"])
        assertUsageError(["fonts", "extra"], "unexpected argument 'extra'", Self.root)

        guard case .version(let v) = try CommandLineParser.parse(["--version"], spec: Self.root) else {
            return XCTFail("no version")
        }
        XCTAssertEqual(v, "0.3.1")
        guard case .version = try CommandLineParser.parse(["measure", "--version"], spec: Self.root) else {
            return XCTFail("subcommands inherit --version")
        }
        assertUsageError(["--version"], "unknown option '--version'")  // no version in this spec

        // Help wins over earlier errors and is generated for the selected command.
        guard case .help(let h1) = try CommandLineParser.parse(["--bogus", "--size", "-h"], spec: Self.root),
              case .help(let h2) = try CommandLineParser.parse(["--help"], spec: Self.root),
              case .help(let h3) = try CommandLineParser.parse([], spec: CommandSpec(name: "p", overview: "P.",
                                                                                     subcommands: [Self.fonts]))
        else { return XCTFail("no help") }
        XCTAssertTrue(h1.hasPrefix("OVERVIEW: Measure JSON Lines"))
        XCTAssertTrue(h2.hasPrefix("OVERVIEW: Measure text the way"))
        XCTAssertTrue(h3.hasPrefix("OVERVIEW: P."))
    }

    func testMeasureHelpText() {
        XCTAssertEqual(CommandLineParser.helpText(for: Self.measure, path: ["plumb", "measure"]), """
            OVERVIEW: Measure JSON Lines of cells and print one result per line.

            USAGE: plumb measure [<file>] [--families <families>] [--size <points>]
                                 [--threads <n>] [--locale <locale>] [--stats]

            ARGUMENTS:
              <file>                  JSON Lines input ('-' or none: standard input).

            OPTIONS:
              --families <families>   Comma-separated font cascade. (default: Noto Sans,Noto
                                      Sans CJK SC)
              -s, --size <points>     Font size in points. (default: 12)
              --threads <n>           Worker threads.
              --locale <locale>       BCP 47 language tag used for line breaking.
              --stats                 Print timing statistics to standard error.
              -h, --help              Show help information.

            """)
    }

    func testRootHelpText() {
        XCTAssertEqual(CommandLineParser.helpText(for: Self.root, path: ["plumb"]), """
            OVERVIEW: Measure text the way a renderer would.

            USAGE: plumb <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              measure (default)       Measure JSON Lines of cells and print one result per
                                      line.
              fonts                   List the available font families.

              See 'plumb <subcommand> --help' for detailed help.

            """)
    }

    func testLongLabelsWrapToNextLine() {
        let spec = CommandSpec(name: "t", overview: "T.", options: [
            OptionSpec(name: "a-very-long-option-name", valueName: "value", kind: .string, help: "Long."),
        ])
        XCTAssertEqual(CommandLineParser.helpText(for: spec, path: ["t"]), """
            OVERVIEW: T.

            USAGE: t [--a-very-long-option-name <value>]

            OPTIONS:
              --a-very-long-option-name <value>
                                      Long.
              -h, --help              Show help information.

            """)
    }
}
