import CLIKit
import CSupport
import Glibc
import Plumb

/// The `plumb` command line: measure, layout, fonts, render.
let root = CommandSpec(
    name: "plumb",
    overview: "Measure text for tables and lists: row heights and the lines behind them.",
    subcommands: [MeasureCommand.spec, LayoutCommand.spec, FontsCommand.spec, RenderCommand.spec],
    version: "0.1.0 (engine \(TextMeasurer.engineVersion))")

Interruption.install()
// Each thread's malloc arena is given its whole reach (64 MiB of address space, not of
// memory) when it is made, instead of growing 4 KiB at a time: every growth step of a
// secondary arena is an `mprotect`, and with two threads running each one flushes the other
// core's TLB (Decisions.md, "Two cores in one process: two kinds of TLB flush").
// Untouched pages stay unbacked, so resident memory is unchanged.
_ = plumb_heap_reserve_growth(64 << 20)
let status: Int32
do {
    switch try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()), spec: root) {
    case .help(let text):
        print(text)
        status = 0
    case .version(let text):
        print(text)
        status = 0
    case .run(let args):
        switch args.subcommand {
        case "measure":
            var command = try MeasureCommand(args: args)
            do {
                status = try command.run()
            } catch {
                Output.standardError("plumb: \(error)\n")
                status = 1
            }
        case "layout": status = try LayoutCommand.run(args)
        case "fonts": status = try FontsCommand.run(args)
        case "render": status = try RenderCommand.run(args)
        default:
            print(CommandLineParser.helpText(for: root, path: ["plumb"]))
            status = 0
        }
    }
} catch {
    Output.standardError("\(error)\n")
    status = UsageError.exitCode
}
exit(status)
