import CLIKit
import Glibc
import Plumb
import PlumbRender

/// `plumb render`: a cell, or a JSON Lines file of cells stacked as a list, drawn as SVG with
/// overlays and effects positioned from Plumb's geometry.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render",
        overview: "Draw a layout (or a JSON Lines file of cells as a list, each row as `measure` lays it out) as SVG, with overlays and effects.",
        options: StyleFields.options + [
            OptionSpec(name: "text", valueName: "text", kind: .string, help: "The text to draw, whatever it looks like."),
            OptionSpec(name: "file", valueName: "file", kind: .string,
                       help: "A JSON Lines file of cells ('-': standard input), drawn as a list; each row takes its own width and style, as `measure` reads them."),
            OptionSpec(name: "output", short: "o", valueName: "file", kind: .string, help: "Write the SVG here. (default: standard output)"),
            OptionSpec(name: "overlays", valueName: "list", kind: .list(separator: ","),
                       help: "Comma-separated: boxes, lines, baselines, gaps, ellipsis, warnings, all, none. (default: none)"),
            OptionSpec(name: "fade-last-line", valueName: "points", kind: .double, help: "Fade out the last points of the last line."),
            OptionSpec(name: "gradient", valueName: "colors", kind: .list(separator: ","), help: "Gradient text: COLOR,COLOR[,ANGLE], once across the text's box (ANGLE in degrees, 0: left to right, 90: top to bottom); emoji keep their colors."),
            OptionSpec(name: "viewport", valueName: "points", kind: .double, help: "Show the text in a scroll viewport of this height."),
            OptionSpec(name: "fade-edge", valueName: "points", kind: .double, help: "Length of the viewport's fading edge. (default: 24)"),
            OptionSpec(name: "fade-side", valueName: "side", kind: .string, help: "Which viewport edge fades: top or bottom. (default: bottom)"),
            OptionSpec(name: "cover-lines", kind: .flag, help: "Cover every line with its own rect except the revealed one."),
            OptionSpec(name: "reveal-line", valueName: "n", kind: .int, help: "The line left uncovered (0-based)."),
            OptionSpec(name: "reveal-at-y", valueName: "points", kind: .double, help: "Reveal the line under this y (Plumb's hit test)."),
        ],
        positionals: [PositionalSpec(
            name: "input", help: "The text to draw; a name ending in .jsonl is a file of cells (as --file), and a directory is an error.",
            isOptional: true)])

    /// What to draw: one text, or the cells of a JSON Lines file.
    enum Input: Equatable {
        case text(String)
        case file(String)

        /// The input the command line names: `--text`, `--file`, or the positional — a file
        /// when it ends in `.jsonl` (then it must exist), an error when it names a directory
        /// (never the path drawn as text), otherwise the text itself.
        init(_ args: ParsedArguments) throws(LineError) {
            var given: [Result<Input, LineError>] = []
            if let value = args.positional("input") { given.append(Self.positional(value)) }
            if let text = args.string("text") { given.append(.success(.text(text))) }
            if let path = args.string("file") { given.append(.success(.file(path))) }
            guard given.count == 1 else {
                throw LineError(given.isEmpty ? "nothing to draw: give a text, --text TEXT or --file FILE"
                                : "give one input: a text, --text TEXT or --file FILE")
            }
            self = try given[0].get()
        }

        private static func positional(_ value: String) -> Result<Input, LineError> {
            if isDirectory(value) {
                return .failure(LineError("'\(value)' is a directory, not a .jsonl file (to draw it as text: --text '\(value)')"))
            }
            return .success(value.lowercased().hasSuffix(".jsonl") ? .file(value) : .text(value))
        }

        static func isDirectory(_ path: String) -> Bool {
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        }
    }

    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try StyleFields.defaults(from: args)
        let engine = TextMeasurer()
        var rows: [TextDrawing] = []
        var failed = false
        let options: RenderOptions
        do throws(LineError) {
            options = try renderOptions(args)
            switch try Input(args) {
            case .text(let text):
                rows = [engine.drawing(text, style: request.style, width: request.width, scale: request.scale)]
            case .file(let path):
                let reader: LineReader
                do { reader = try LineReader.openInput(path) } catch { throw LineError(error.description) }
                var cells = CellParser(defaults: request)
                do {
                    try reader.forEachLine { number, bytes in
                        guard let cell = cells.parse(number, bytes) else { return }  // a blank line
                        if let error = cell.error {
                            Output.standardError("plumb render: line \(number): \(error)\n")
                            failed = true
                            return
                        }
                        rows.append(engine.drawing(cell.text, style: cell.request.style, width: cell.request.width, scale: cell.request.scale))
                    }
                } catch {
                    Output.standardError("plumb render: \(error)\n")  // a read error: the rows so far are drawn
                    failed = true
                }
            }
        } catch {
            Output.standardError("plumb render: \(error.message)\n")
            return UsageError.exitCode
        }
        let svg = SVGRenderer.render(rows: rows, options: options)
        if let path = args.string("output") {
            guard let f = fopen(path, "wb") else {
                Output.standardError("plumb render: cannot write '\(path)'\n")
                return 1
            }
            var s = svg
            s.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        } else {
            Output.standardOutput(Array(svg.utf8))
        }
        return failed ? 1 : 0
    }

    static func renderOptions(_ args: ParsedArguments) throws(LineError) -> RenderOptions {
        var o = RenderOptions()
        for name in args.list("overlays") ?? [] {
            switch name.trimmingSpaces {
            case "boxes": o.overlays.insert(.boxes)
            case "lines": o.overlays.insert(.lineRects)
            case "baselines": o.overlays.insert(.baselines)
            case "gaps": o.overlays.insert(.gaps)
            case "ellipsis": o.overlays.insert(.ellipsis)
            case "warnings": o.overlays.insert(.warnings)
            case "all": o.overlays = .all
            case "none", "": break
            default: throw LineError("unknown overlay '\(name)'")
            }
        }
        o.fadeLastLine = args.double("fade-last-line")
        if let g = args.list("gradient") {
            var colors = g.map(\.trimmingSpaces)
            var angle = 0.0
            if let last = colors.last, let a = Double(last) {
                guard a.isFinite else { throw LineError("--gradient: the angle must be a finite number of degrees, not '\(last)'") }
                angle = a
                colors.removeLast()
            }
            guard colors.count >= 2 else { throw LineError("--gradient needs two colors") }
            if let bad = colors.first(where: { !CSSColor.isValid($0) }) {
                throw LineError("--gradient: '\(bad)' is not a color (#rgb, #rrggbb, #rrggbbaa, rgb(…), hsl(…) or a CSS color name)")
            }
            o.gradient = (colors, angle)
        }
        if let h = args.double("viewport") {
            let side = args.string("fade-side") ?? "bottom"
            guard let edge = RenderOptions.Edge(rawValue: side) else { throw LineError("--fade-side must be top or bottom") }
            o.viewport = (h, args.double("fade-edge") ?? 24, edge)
        }
        for name in ["reveal-line", "reveal-at-y"] where args.isGiven(name) && !args.flag("cover-lines") {
            throw LineError("--\(name) needs --cover-lines (it chooses the line left uncovered)")
        }
        if args.flag("cover-lines") {
            if let y = args.double("reveal-at-y") { o.cover = .y(y) } else { o.cover = .line(args.int("reveal-line") ?? -1) }
        }
        return o
    }
}
