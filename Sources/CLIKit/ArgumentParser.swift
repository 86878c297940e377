// Small table-driven command-line parser with swift-argument-parser-style help.
//
// Syntax: `--name value`, `--name=value`, `-x value` (single-letter short names, no
// bundling), `--` ends options, `-h`/`--help` anywhere before `--` wins over errors,
// `--version` when the root command has a version. Repeated options: the last one wins.
// A value may start with "-" only if it is a negative number (`--offset -3`); otherwise
// a following option is reported as a missing value. "-" alone is a positional argument.
// If a command has subcommands, the first argument selects one; when it is not a
// subcommand name and `defaultSubcommand` is set, all arguments go to the default.

public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        case flag
        case int
        case double
        case string
        /// Split on `separator`; elements are trimmed of spaces and empty ones dropped.
        case list(separator: Character)
        /// A string that may be given several times: every value, in order (read with `list`).
        case repeated
    }

    public var name: String             // long name without "--"
    public var short: Character?
    public var valueName: String?       // shown lowercased as <valuename>; default: name
    public var kind: Kind
    public var help: String
    /// Textual default (parsed like a command-line value), shown in help as "(default: …)".
    public var defaultValue: String?

    public init(name: String, short: Character? = nil, valueName: String? = nil, kind: Kind,
                help: String, defaultValue: String? = nil) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.kind = kind
        self.help = help
        self.defaultValue = defaultValue
    }

    var valueLabel: String { "<" + (valueName ?? name).lowercased() + ">" }
    var usageLabel: String { kind == .flag ? "--\(name)" : "--\(name) \(valueLabel)" }
    var helpLabel: String { (short.map { "-\($0), " } ?? "") + usageLabel }
}

public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// Takes all remaining positional arguments (must be the last positional).
    public var isRepeating: Bool

    public init(name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }

    var usageLabel: String {
        let base = "<\(name)>" + (isRepeating ? " ..." : "")
        return isOptional ? "[\(base)]" : base
    }
}

public struct CommandSpec: Sendable {
    public var name: String
    public var overview: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    public var subcommands: [CommandSpec]
    public var defaultSubcommand: String?
    /// Enables `--version` (inherited by subcommands).
    public var version: String?

    public init(name: String, overview: String, options: [OptionSpec] = [], positionals: [PositionalSpec] = [],
                subcommands: [CommandSpec] = [], defaultSubcommand: String? = nil, version: String? = nil) {
        self.name = name
        self.overview = overview
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.version = version
    }

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
}

/// A command-line mistake. The message is lowercase without "Error:"; `description`
/// renders the full report. Exit with `UsageError.exitCode` (64, EX_USAGE).
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public static let exitCode: Int32 = 64
    public let message: String
    public let commandPath: [String]
    /// "USAGE: …" line(s) of the command where the error happened.
    public let usage: String

    public var description: String {
        "Error: \(message)\n\(usage)\n  See '\(commandPath.joined(separator: " ")) --help' for more information."
    }
}

public enum ParsedCommandLine: Sendable {
    case run(ParsedArguments)
    /// Help text to print to standard output (exit 0).
    case help(String)
    /// Version string to print to standard output (exit 0).
    case version(String)
}

public struct ParsedArguments: Sendable {
    enum Value: Sendable {
        case flag
        case int(Int)
        case double(Double)
        case string(String)
        case list([String])
    }

    /// E.g. ["plumb", "measure"].
    public let commandPath: [String]
    public let command: CommandSpec
    /// Long names of the options given on the command line, in first-given order.
    public let givenOptions: [String]
    var values: [String: Value]
    var positionalValues: [String: [String]]

    public var subcommand: String? { commandPath.count > 1 ? commandPath.last : nil }
    public func isGiven(_ name: String) -> Bool { givenOptions.contains(name) }

    /// A usage error (exit 64) for a value the command cannot use although it parsed, e.g. an
    /// unknown name: `--name: problem`, with this command's usage line.
    public func invalidValue(of name: String, _ problem: String) -> UsageError {
        UsageError(message: "--\(name): \(problem)", commandPath: commandPath,
                   usage: CommandLineParser.usageText(for: command, path: commandPath))
    }

    private func value(_ name: String, _ kind: String) -> Value? {
        guard let spec = command.option(named: name) else {
            preconditionFailure("'\(commandPath.joined(separator: " "))' has no option --\(name)")
        }
        let matches: Bool
        switch (spec.kind, kind) {
        case (.flag, "flag"), (.int, "int"), (.double, "double"), (.string, "string"), (.list, "list"), (.repeated, "list"):
            matches = true
        default: matches = false
        }
        precondition(matches, "option --\(name) is not of kind \(kind)")
        return values[name]
    }

    public func flag(_ name: String) -> Bool { value(name, "flag") != nil }
    public func int(_ name: String) -> Int? { if case .int(let v)? = value(name, "int") { return v } else { return nil } }
    public func double(_ name: String) -> Double? {
        if case .double(let v)? = value(name, "double") { return v } else { return nil }
    }
    public func string(_ name: String) -> String? {
        if case .string(let v)? = value(name, "string") { return v } else { return nil }
    }
    public func list(_ name: String) -> [String]? {
        if case .list(let v)? = value(name, "list") { return v } else { return nil }
    }
    /// The value of a non-repeating positional, nil if absent.
    public func positional(_ name: String) -> String? { positionalValues[name]?.first }
    /// All values of a (repeating) positional.
    public func positionals(_ name: String) -> [String] { positionalValues[name] ?? [] }
}

public enum CommandLineParser {
    /// Parses `arguments` (without the program name) against `spec`.
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedCommandLine {
        try parse(arguments[...], spec: spec, path: [spec.name], version: spec.version)
    }

    private static func parse(_ args: ArraySlice<String>, spec: CommandSpec, path: [String],
                              version: String?) throws(UsageError) -> ParsedCommandLine {
        func fail(_ message: String) -> UsageError {
            UsageError(message: message, commandPath: path, usage: usageText(for: spec, path: path))
        }
        // A default subcommand takes everything unless a subcommand is named explicitly.
        if let name = spec.defaultSubcommand, let sub = spec.subcommands.first(where: { $0.name == name }) {
            let first = args.first
            let explicit = first.map { a in spec.subcommands.contains { $0.name == a } } ?? false
            if !explicit, first != "-h", first != "--help", first != "--version" {
                return try parse(args, spec: sub, path: path + [name], version: version)
            }
        }

        var values: [String: ParsedArguments.Value] = [:]
        var given: [String] = []
        var positionals: [String] = []
        var firstError: UsageError?
        var optionsEnded = false
        var k = args.startIndex
        while k < args.endIndex {
            let arg = args[k]
            k += 1
            if !optionsEnded, arg == "--" { optionsEnded = true; continue }
            if !optionsEnded, arg == "-h" || arg == "--help" { return .help(helpText(for: spec, path: path)) }
            if !optionsEnded, arg == "--version", let version { return .version(version) }
            if !optionsEnded, looksLikeOption(arg) {
                var name = Substring(arg)
                var inline: String?
                let option: OptionSpec?
                if arg.hasPrefix("--") {
                    name = arg.dropFirst(2)
                    if let eq = name.firstIndex(of: "=") {
                        inline = String(name[name.index(after: eq)...])
                        name = name[..<eq]
                    }
                    option = spec.options.first { $0.name == name }
                } else {
                    let rest = arg.dropFirst()
                    option = rest.count == 1 ? spec.options.first { $0.short == rest.first } : nil
                }
                guard let option else {
                    let hint = arg.hasPrefix("--") ? suggestion(for: String(name), among: spec.options.map(\.name)) : nil
                    firstError = firstError ?? fail("unknown option '\(inline == nil ? arg : "--" + name)'"
                        + (hint.map { " (did you mean '--\($0)'?)" } ?? ""))
                    continue
                }
                if option.kind == .flag {
                    if inline != nil {
                        firstError = firstError ?? fail("option '--\(option.name)' does not take a value")
                        continue
                    }
                    values[option.name] = .flag
                } else {
                    var text = inline
                    if text == nil, k < args.endIndex, !looksLikeOption(args[k]) {
                        text = args[k]
                        k += 1
                    }
                    guard let text else {
                        firstError = firstError ?? fail("missing value for '\(option.usageLabel)'")
                        continue
                    }
                    switch convert(text, option) {
                    case .success(.list(let more)) where option.kind == .repeated:
                        if case .list(let earlier)? = values[option.name] {
                            values[option.name] = .list(earlier + more)
                        } else {
                            values[option.name] = .list(more)
                        }
                    case .success(let v): values[option.name] = v
                    case .failure(let message): firstError = firstError ?? fail(message.text); continue
                    }
                }
                if !given.contains(option.name) { given.append(option.name) }
                continue
            }
            if !spec.subcommands.isEmpty, spec.positionals.isEmpty, !optionsEnded {
                guard let sub = spec.subcommands.first(where: { $0.name == arg }) else {
                    let hint = suggestion(for: arg, among: spec.subcommands.map(\.name))
                    firstError = firstError ?? fail("unknown subcommand '\(arg)'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""))
                    continue
                }
                if let firstError { throw firstError }
                return try parse(args[k...], spec: sub, path: path + [arg], version: version)
            }
            positionals.append(arg)
        }
        if let firstError { throw firstError }
        if !spec.subcommands.isEmpty, spec.positionals.isEmpty, positionals.isEmpty {
            return .help(helpText(for: spec, path: path))  // no subcommand named
        }

        // Assign positionals in order.
        var assigned: [String: [String]] = [:]
        var rest = positionals[...]
        for p in spec.positionals {
            if p.isRepeating {
                assigned[p.name] = Array(rest)
                rest = []
            } else if let v = rest.first {
                assigned[p.name] = [v]
                rest = rest.dropFirst()
            }
            if assigned[p.name, default: []].isEmpty, !p.isOptional {
                throw fail("missing expected argument '<\(p.name)>'")
            }
        }
        if let extra = rest.first { throw fail("unexpected argument '\(extra)'") }

        // Defaults for options not given.
        for option in spec.options where values[option.name] == nil && option.kind != .flag {
            guard let text = option.defaultValue else { continue }
            guard case .success(let v) = convert(text, option) else {
                preconditionFailure("invalid default '\(text)' for --\(option.name)")
            }
            values[option.name] = v
        }
        return .run(ParsedArguments(commandPath: path, command: spec, givenOptions: given,
                                    values: values, positionalValues: assigned))
    }

    /// The name in `names` nearest to a mistyped `name`, if one is near enough to be what was
    /// meant: at most 2 edits (insertions, deletions, substitutions or swaps of neighbours)
    /// and fewer than half the typed name's length, so `widht` suggests `width` but `x` does
    /// not suggest `max-lines`. Ties go to the first name.
    ///
    /// - Complexity: O(names × length²); called once, on an error.
    static func suggestion(for name: String, among names: [String]) -> String? {
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in names {
            let d = editDistance(typed, Array(candidate))
            if d <= 2, 2 * d < typed.count, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Optimal string alignment distance (Levenshtein plus swaps of adjacent characters).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// "-x", "--x" but not "-", "--" or a negative number such as "-3" or "-.5".
    static func looksLikeOption(_ s: String) -> Bool {
        let u = s.utf8
        guard u.count >= 2, u.first == 0x2D else { return false }
        let second = u[u.index(after: u.startIndex)]
        if second == 0x2D { return u.count > 2 }
        return !(second >= 0x30 && second <= 0x39 || second == 0x2E)
    }

    struct Message: Error { let text: String }

    static func convert(_ text: String, _ option: OptionSpec) -> Result<ParsedArguments.Value, Message> {
        let bad = { (expected: String) in
            Result<ParsedArguments.Value, Message>.failure(
                Message(text: "invalid value '\(text)' for '\(option.usageLabel)': expected \(expected)"))
        }
        switch option.kind {
        case .flag: return .success(.flag)
        case .string: return .success(.string(text))
        case .int:
            guard let v = Int(text) else { return bad("an integer") }
            return .success(.int(v))
        case .double:
            guard let v = Double(text), v.isFinite else { return bad("a number") }
            return .success(.double(v))
        case .repeated: return .success(.list([text]))
        case .list(let separator):
            let parts = text.split(separator: separator, omittingEmptySubsequences: false).map { part in
                String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            }
            return .success(.list(parts.filter { !$0.isEmpty }))
        }
    }

    // MARK: Help

    static let width = 80
    static let helpColumn = 26

    /// The "USAGE: …" line(s), wrapped at 80 columns with a hanging indent.
    public static func usageText(for spec: CommandSpec, path: [String]) -> String {
        var tokens: [String] = []
        if !spec.subcommands.isEmpty, spec.positionals.isEmpty { tokens.append("<subcommand>") }
        tokens += spec.positionals.map(\.usageLabel)
        tokens += spec.options.map { "[\($0.usageLabel)]" }
        let head = "USAGE: " + path.joined(separator: " ")
        let indent = String(repeating: " ", count: min(head.count + 1, 24))
        var lines: [String] = []
        var line = head
        var lineHasToken = false
        for token in tokens {
            if lineHasToken, line.count + 1 + token.count > width {
                lines.append(line)
                line = indent + token
            } else {
                line += " " + token
            }
            lineHasToken = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Full help text, ending with a newline.
    public static func helpText(for spec: CommandSpec, path: [String]) -> String {
        var out = wrap("OVERVIEW: " + spec.overview, width: width).joined(separator: "\n") + "\n\n"
        out += usageText(for: spec, path: path) + "\n"
        if !spec.positionals.isEmpty {
            out += "\nARGUMENTS:\n"
            for p in spec.positionals { out += row("<\(p.name)>" + (p.isRepeating ? " ..." : ""), p.help) }
        }
        out += "\nOPTIONS:\n"
        for o in spec.options {
            let help = o.help + (o.defaultValue.map { " (default: \($0))" } ?? "")
            out += row(o.helpLabel, help)
        }
        if spec.version != nil { out += row("--version", "Show the version.") }
        out += row("-h, --help", "Show help information.")
        if !spec.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in spec.subcommands {
                out += row(s.name + (s.name == spec.defaultSubcommand ? " (default)" : ""), s.overview)
            }
            out += "\n  See '\(path.joined(separator: " ")) <subcommand> --help' for detailed help.\n"
        }
        return out
    }

    /// "  label" padded to the help column, then the wrapped help text.
    static func row(_ label: String, _ help: String) -> String {
        let pad = String(repeating: " ", count: helpColumn)
        let lines = wrap(help, width: width - helpColumn)
        var out = "  " + label
        if out.count + 2 > helpColumn {
            out += "\n" + pad
        } else {
            out += String(repeating: " ", count: helpColumn - out.count)
        }
        out += lines.joined(separator: "\n" + pad)
        return out + "\n"
    }

    /// Greedy word wrap on spaces; words longer than `width` stay whole.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines
    }
}
