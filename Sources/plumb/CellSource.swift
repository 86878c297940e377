import CLIKit
import Glibc
import Plumb

/// What `layout` and `render` work on: one text, or the JSON Lines cells of a file or of
/// standard input (the cells `measure` reads, `"runs"` included).
enum CellSource: Equatable {
    case text(String)
    case file(String)

    /// The input the command line names: `--text`, `--file`, or the positional — a file when
    /// it ends in `.jsonl` (then it must exist) or is `-` (standard input), an error when it
    /// names a directory (never the path taken as text), otherwise the text itself.
    init(_ args: ParsedArguments) throws(LineError) {
        var given: [Result<CellSource, LineError>] = []
        if let value = args.positional(Self.positionalName(args)) { given.append(Self.positional(value)) }
        if let text = args.string("text") { given.append(.success(.text(text))) }
        if let path = args.string("file") { given.append(.success(.file(path))) }
        guard given.count == 1 else {
            throw LineError(given.isEmpty ? "nothing to \(args.subcommand == "render" ? "draw" : "lay out"): give a text, --text TEXT or --file FILE"
                            : "give one input: a text, --text TEXT or --file FILE")
        }
        self = try given[0].get()
    }

    /// The positional's name: `input` for render, `text` for layout.
    private static func positionalName(_ args: ParsedArguments) -> String {
        args.subcommand == "layout" ? "text" : "input"
    }

    private static func positional(_ value: String) -> Result<CellSource, LineError> {
        if value == "-" { return .success(.file("-")) }
        if isDirectory(value) {
            return .failure(LineError("'\(value)' is a directory, not a .jsonl file (to use it as text: --text '\(value)')"))
        }
        return .success(value.lowercased().hasSuffix(".jsonl") ? .file(value) : .text(value))
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Reads the cells of `path` ('-': standard input) with `defaults` for fields a line does
    /// not set; `body` gets each valid cell, a bad line is reported on standard error as
    /// `plumb COMMAND: line N: …`. Returns whether every line was valid and read.
    static func forEachCell(
        _ path: String, command: String, defaults: CellRequest, _ body: (CellInput) -> Void
    ) throws(LineError) -> Bool {
        let reader: LineReader
        do { reader = try LineReader.openInput(path) } catch { throw LineError(error.description) }
        var cells = CellParser(defaults: defaults)
        var ok = true
        do {
            try reader.forEachLine { number, bytes in
                guard let cell = cells.parse(number, bytes) else { return }  // a blank line
                if let error = cell.error {
                    Output.standardError("plumb \(command): line \(number): \(error)\n")
                    ok = false
                    return
                }
                body(cell)
            }
        } catch {
            Output.standardError("plumb \(command): \(error)\n")  // a read error: the cells so far stand
            ok = false
        }
        return ok
    }
}
