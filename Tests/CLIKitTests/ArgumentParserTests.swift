import Testing
@testable import CLIKit

@Suite struct ArgumentParserTests {
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
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedArguments {
        switch try CommandLineParser.parse(args, spec: spec) {
        case .run(let parsed): return parsed
        case .help(let text): Issue.record("unexpected help: \(text)", sourceLocation: sourceLocation)
        case .version(let v): Issue.record("unexpected version: \(v)", sourceLocation: sourceLocation)
        }
        throw CancellationError()
    }

    private func assertUsageError(_ args: [String], _ message: String, _ spec: CommandSpec = measure,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let outcome = try CommandLineParser.parse(args, spec: spec)
            Issue.record("expected '\(message)', got \(outcome)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.message == message, sourceLocation: sourceLocation)
        }
    }

    @Test func everyKindAndDefaults() throws {
        let p = try run(["cells.jsonl", "--families", "Inter, Noto Sans ,,Noto Color Emoji", "--size", "14.5",
                         "--threads", "4", "--locale", "ja-JP", "--stats"])
        #expect(p.positional("file") == "cells.jsonl")
        #expect(p.list("families") == ["Inter", "Noto Sans", "Noto Color Emoji"])
        #expect(p.double("size") == 14.5)
        #expect(p.int("threads") == 4)
        #expect(p.string("locale") == "ja-JP")
        #expect(p.flag("stats"))
        #expect(p.givenOptions == ["families", "size", "threads", "locale", "stats"])

        let d = try run([])
        #expect(d.positional("file") == nil)
        #expect(d.list("families") == ["Noto Sans", "Noto Sans CJK SC"])  // default
        #expect(d.double("size") == 12)                                   // default
        #expect(!d.isGiven("size"))
        #expect(d.int("threads") == nil)
        #expect(d.string("locale") == nil)
        #expect(!d.flag("stats"))
        #expect(d.givenOptions == [])
        #expect(d.commandPath == ["measure"])
    }

    @Test func equalsFormShortNamesRepeatsAndNegativeNumbers() throws {
        let p = try run(["--size=9", "-s", "10.25", "--threads=-2", "--locale=", "--families=A=B", "-"])
        #expect(p.double("size") == 10.25)          // repeated: last wins
        #expect(p.int("threads") == -2)
        #expect(p.string("locale") == "")
        #expect(p.list("families") == ["A=B"])
        #expect(p.positional("file") == "-")
        #expect(try run(["--size", "-3.5"]).double("size") == -3.5)
        #expect(try run(["--size", "-.5"]).double("size") == -0.5)
        #expect(try run(["--size", "1e1"]).double("size") == 10)
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try run(["--", "--stats"]).positional("file") == "--stats")
        #expect(try !run(["--", "--stats"]).flag("stats"))
        #expect(try run(["--stats", "--", "-h"]).positional("file") == "-h")
        assertUsageError(["--", "a", "b"], "unexpected argument 'b'")
    }

    /// A mistyped option or subcommand names the nearest one; a distant one names nothing.
    @Test func unknownNamesSuggestTheNearest() {
        assertUsageError(["--sise", "3"], "unknown option '--sise' (did you mean '--size'?)")
        assertUsageError(["--stast"], "unknown option '--stast' (did you mean '--stats'?)")  // a swap is one edit
        assertUsageError(["--familes=a"], "unknown option '--familes' (did you mean '--families'?)")
        assertUsageError(["--thread"], "unknown option '--thread' (did you mean '--threads'?)")
        assertUsageError(["--x"], "unknown option '--x'")
        assertUsageError(["--colour"], "unknown option '--colour'")
        assertUsageError(["fnts"], "unknown subcommand 'fnts' (did you mean 'fonts'?)",
                         CommandSpec(name: "plumb", overview: "P.", subcommands: [Self.fonts]))
        #expect(CommandLineParser.suggestion(for: "widht", among: ["height", "width", "weight"]) == "width")
        #expect(CommandLineParser.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(CommandLineParser.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(CommandLineParser.editDistance(Array(""), Array("abc")) == 3)
    }

    @Test func usageErrors() {
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

    @Test func usageErrorDescription() {
        do {
            _ = try CommandLineParser.parse(["--bogus"], spec: Self.root)
            Issue.record("no error")
        } catch {
            #expect(UsageError.exitCode == 64)
            #expect(error.commandPath == ["plumb", "measure"])
            #expect(error.description == """
                Error: unknown option '--bogus'
                USAGE: plumb measure [<file>] [--families <families>] [--size <points>]
                                     [--threads <n>] [--locale <locale>] [--stats]
                  See 'plumb measure --help' for more information.
                """)
        }
    }

    @Test func subcommandsHelpAndVersion() throws {
        let p = try run(["measure", "--stats", "x.jsonl"], Self.root)
        #expect(p.commandPath == ["plumb", "measure"])
        #expect(p.subcommand == "measure")
        #expect(p.positional("file") == "x.jsonl")
        // Default subcommand gets all arguments.
        let d = try run(["x.jsonl", "--size", "8"], Self.root)
        #expect(d.commandPath == ["plumb", "measure"])
        #expect(d.double("size") == 8)
        #expect(try run(["fonts"], Self.root).commandPath == ["plumb", "fonts"])
        assertUsageError(["fonts", "extra"], "unexpected argument 'extra'", Self.root)

        guard case .version(let v) = try CommandLineParser.parse(["--version"], spec: Self.root) else {
            Issue.record("no version")
            return
        }
        #expect(v == "0.3.1")
        guard case .version = try CommandLineParser.parse(["measure", "--version"], spec: Self.root) else {
            Issue.record("subcommands inherit --version")
            return
        }
        assertUsageError(["--version"], "unknown option '--version'")  // no version in this spec

        // Help wins over earlier errors and is generated for the selected command.
        guard case .help(let h1) = try CommandLineParser.parse(["--bogus", "--size", "-h"], spec: Self.root),
              case .help(let h2) = try CommandLineParser.parse(["--help"], spec: Self.root),
              case .help(let h3) = try CommandLineParser.parse([], spec: CommandSpec(name: "p", overview: "P.",
                                                                                     subcommands: [Self.fonts]))
        else { Issue.record("no help"); return }
        #expect(h1.hasPrefix("OVERVIEW: Measure JSON Lines"))
        #expect(h2.hasPrefix("OVERVIEW: Measure text the way"))
        #expect(h3.hasPrefix("OVERVIEW: P."))
    }

    @Test func measureHelpText() {
        #expect(CommandLineParser.helpText(for: Self.measure, path: ["plumb", "measure"]) == """
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

    @Test func rootHelpText() {
        #expect(CommandLineParser.helpText(for: Self.root, path: ["plumb"]) == """
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

    @Test func longLabelsWrapToNextLine() {
        let spec = CommandSpec(name: "t", overview: "T.", options: [
            OptionSpec(name: "a-very-long-option-name", valueName: "value", kind: .string, help: "Long."),
        ])
        #expect(CommandLineParser.helpText(for: spec, path: ["t"]) == """
            OVERVIEW: T.

            USAGE: t [--a-very-long-option-name <value>]

            OPTIONS:
              --a-very-long-option-name <value>
                                      Long.
              -h, --help              Show help information.

            """)
    }
}
