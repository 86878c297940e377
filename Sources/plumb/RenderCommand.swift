import CLIKit
import Glibc
import Plumb
import PlumbRender

/// `plumb render`: a cell, or a JSON Lines file of cells stacked as a list, drawn as SVG with
/// overlays and effects positioned from Plumb's geometry.
enum RenderCommand {
    /// The length of `--viewport`'s fading edge when `--fade-edge` is not given, in points.
    static let defaultFadeEdge = 24.0

    static let spec = CommandSpec(
        name: "render",
        overview: "Draw a layout (or a JSON Lines file of cells as a list, each row as `measure` lays it out) as SVG, with overlays and effects.",
        options: StyleFields.options + [
            OptionSpec(name: "text", valueName: "text", kind: .string, help: "The text to draw, whatever it looks like."),
            OptionSpec(name: "file", valueName: "file", kind: .string,
                       help: "A JSON Lines file of cells ('-': standard input), drawn as a list; each row takes its own width and style, as `measure` reads them (\"runs\" cells draw each run in its font, size and color, inline boxes as labelled rects)."),
            OptionSpec(name: "output", short: "o", valueName: "file", kind: .string, help: "Write the SVG here. (default: standard output)"),
            OptionSpec(name: "overlays", valueName: "list", kind: .list(separator: ","),
                       help: "Comma-separated: boxes, lines, baselines, gaps, ellipsis, warnings, all, none. (default: none)"),
            OptionSpec(name: "fade-last-line", valueName: "points", kind: .double, help: "Fade out the last points of the last line."),
            OptionSpec(name: "gradient", valueName: "colors", kind: .list(separator: ","), help: "Gradient text: COLOR,COLOR[,ANGLE], once across the text's box (ANGLE in degrees, 0: left to right, 90: top to bottom); emoji keep their colors."),
            OptionSpec(name: "viewport", valueName: "points", kind: .double, help: "Show the text in a scroll viewport of this height."),
            OptionSpec(name: "fade-edge", valueName: "points", kind: .double, help: "Length of the viewport's fading edge. (default: \(LayoutCommand.num(Self.defaultFadeEdge)))"),
            OptionSpec(name: "fade-side", valueName: "side", kind: .string, help: "Which viewport edge fades: top or bottom. (default: bottom)"),
            OptionSpec(name: "cover-lines", kind: .flag, help: "Cover every line with its own rect except the revealed one."),
            OptionSpec(name: "reveal-line", valueName: "n", kind: .int, help: "The line left uncovered (0-based)."),
            OptionSpec(name: "reveal-at-y", valueName: "points", kind: .double, help: "Reveal the line under this y (Plumb's hit test)."),
        ],
        positionals: [PositionalSpec(
            name: "input", help: "The text to draw; a name ending in .jsonl is a file of cells (as --file), '-' reads cells from standard input, and a directory is an error.",
            isOptional: true)])

    /// What to draw: one text, or the cells of a JSON Lines file.
    typealias Input = CellSource

    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try StyleFields.defaults(from: args)
        let engine = try LayoutCommand.engine(args)
        var rows: [TextDrawing] = []
        var failed = false
        let options: RenderOptions
        do throws(LineError) {
            options = try renderOptions(args)
            switch try Input(args) {
            case .text(let text):
                rows = [engine.drawing(text, style: request.style, width: request.width, scale: request.scale)]
            case .file(let path):
                failed = try !CellSource.forEachCell(path, command: "render", defaults: request) { cell in
                    rows.append(drawing(cell, engine))
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

    /// The drawing of one cell: its runs when it gives `"runs"`, else its text.
    static func drawing(_ cell: CellInput, _ engine: TextMeasurer) -> TextDrawing {
        let r = cell.request
        if let runs = cell.runs { return engine.drawing(runs, style: r.style, width: r.width, scale: r.scale) }
        return engine.drawing(cell.text, style: r.style, width: r.width, scale: r.scale)
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
            o.viewport = (h, args.double("fade-edge") ?? Self.defaultFadeEdge, edge)
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
