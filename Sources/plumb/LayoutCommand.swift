import CLIKit
import Plumb

/// `plumb layout "text"`: one layout explained line by line — how a person answers "why is
/// this cell 61 pt?".
enum LayoutCommand {
    static let spec = CommandSpec(
        name: "layout",
        overview: "Explain the layout of a text, or of each JSON Lines cell of a file: lines, rects, baselines, inline boxes and the height sum.",
        options: StyleFields.options + [
            OptionSpec(name: "text", valueName: "text", kind: .string, help: "The text to lay out, whatever it looks like."),
            OptionSpec(name: "file", valueName: "file", kind: .string,
                       help: "A JSON Lines file of cells ('-': standard input), as `measure` reads them (\"runs\" included); each cell is explained in turn."),
            OptionSpec(name: "offsets", valueName: "unit", kind: .string,
                       help: "The unit of each line's offsets (start..<end) and each box's offset, as `measure --offsets`: scalars (Unicode scalars; an inline box is one), utf8 or utf16. (default: scalars)"),
        ],
        positionals: [PositionalSpec(
            name: "text", help: "The text to lay out; a name ending in .jsonl is a file of cells (as --file), '-' reads cells from standard input.",
            isOptional: true)])

    /// An engine with the `--font-file` and `--font-dir` fonts.
    static func engine(_ args: ParsedArguments) throws(UsageError) -> TextMeasurer {
        var configuration = TextMeasurer.Configuration()
        configuration.fonts = FontOptions.configuration(args)
        return TextMeasurer(configuration: configuration, fonts: try FontOptions.resolver(args))
    }

    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try StyleFields.defaults(from: args)
        let offsets = try offsetUnit(args)
        let engine = try engine(args)
        do throws(LineError) {
            switch try CellSource(args) {
            case .text(let text):
                let layout = engine.layout(text, style: request.style, width: request.width, scale: request.scale)
                print(render(layout, request: request, offsets: offsets))
                return 0
            case .file(let path):
                var first = true
                let ok = try CellSource.forEachCell(path, command: "layout", defaults: request) { cell in
                    if !first { print("") }
                    first = false
                    print(explain(cell, engine, offsets: offsets))
                }
                return ok ? 0 : 1
            }
        } catch {
            Output.standardError("plumb layout: \(error.message)\n")
            return UsageError.exitCode
        }
    }

    /// `--offsets`: the unit of the printed offsets, named as `measure` names them.
    static func offsetUnit(_ args: ParsedArguments) throws(UsageError) -> OffsetUnit {
        let unit = args.string("offsets") ?? "scalars"
        guard let offsets = OffsetUnit(rawValue: unit) else {
            throw args.invalidValue(of: "offsets", "unknown unit '\(unit)' (one of \(OffsetUnit.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return offsets
    }

    /// One cell of a file explained: a header with its id and line, its runs, the layout.
    static func explain(_ cell: CellInput, _ engine: TextMeasurer, offsets: OffsetUnit) -> String {
        let r = cell.request
        var out = ["cell \(JSONWriter.encodeToString(cell.id)) (line \(cell.line))"]
        let layout: TextLayout
        if let runs = cell.runs {
            layout = engine.layout(runs, style: r.style, width: r.width, scale: r.scale)
            out += describe(runs)
        } else {
            layout = engine.layout(cell.text, style: r.style, width: r.width, scale: r.scale)
        }
        out.append(render(layout, request: r, offsets: offsets))
        for w in cell.warnings { out.append("warning: \(w)") }
        return out.joined(separator: "\n")
    }

    /// The runs of an attributed cell, one line each: its text or box and what it sets.
    static func describe(_ text: AttributedText) -> [String] {
        var out = ["runs:"]
        for (i, run) in text.runs.enumerated() {
            let a = run.attributes
            var set: [String] = []
            if let f = a.families { set.append("families \(f.joined(separator: ", "))") }
            if let s = a.size { set.append("size \(num(s))") }
            if let w = a.weight { set.append("weight \(w)") }
            if let it = a.italic { set.append(it ? "italic" : "upright") }
            if let l = a.letterSpacing { set.append("letter spacing \(num(l))") }
            if a.baselineOffset != 0 { set.append("baseline offset \(num(a.baselineOffset))") }
            if let c = a.color { set.append("color \(c)") }
            let what: String
            if let b = run.inlineBox {
                what = "box \(b.id.map(\.debugDescription) ?? "(no id)") \(num(b.width))×\(num(b.height)), offset \(num(b.baselineOffset))"
            } else {
                what = text.string.utf8Slice(run.utf8Range).debugDescription
            }
            out.append("  \(i + 1). \(what)" + (set.isEmpty ? "" : " — " + set.joined(separator: ", ")))
        }
        return out
    }

    /// The layout explained line by line, offsets in `offsets`.
    static func render(_ layout: TextLayout, request: CellRequest, offsets: OffsetUnit = .scalars) -> String {
        let s = request.style
        let converter = OffsetUnit.Converter(offsets)
        var out: [String] = []
        out.append("text: \(layout.text.debugDescription)")
        out.append("font: \(s.font.families.joined(separator: ", ")) \(num(s.font.size)) pt, weight \(s.font.weight)\(s.font.italic ? ", italic" : "")")
        out.append("box: width \(num(request.width)) pt, scale \(num(layout.scale))×, mode \(s.lineBreakMode.rawValue)"
            + (s.maxLines > 0 ? ", max \(s.maxLines) lines" : ""))
        out.append("")
        for (i, line) in layout.lines.enumerated() {
            out.append("line \(i + 1): \(shown(line: i, of: layout, style: s).debugDescription)")
            let range = converter.range(of: line)
            out.append("  \(offsets.rawValue) \(range.lowerBound)..<\(range.upperBound), width \(num(line.usedWidth))"
                + (line.hangingWidth > 0 ? " (+\(num(line.hangingWidth)) hanging)" : "")
                + (line.hyphenWidth > 0 ? " (hyphen \(num(line.hyphenWidth)))" : "")
                + (line.justificationWidth > 0 ? " (justified +\(num(line.justificationWidth)))" : ""))
            out.append("  rect (x \(num(line.rect.x)), y \(num(line.rect.y)), w \(num(line.rect.width)), h \(num(line.rect.height))), baseline \(num(line.baseline))"
                + (line.direction == .rightToLeft ? ", right to left" : ""))
            let natural = line.naturalHeight == line.rect.height ? "natural" : "natural \(num(line.naturalHeight)) → \(num(line.rect.height)) after multiple/min/max"
            out.append("  height \(num(line.rect.height)) (\(natural))" + (line.gapAfter > 0 ? ", gap after \(num(line.gapAfter))" : "")
                + (line.endsParagraph ? ", ends paragraph" : ""))
        }
        let heights = layout.lines.map { num($0.rect.height) }.joined(separator: " + ")
        let gaps = layout.lines.map(\.gapAfter).filter { $0 > 0 }.map(num).joined(separator: " + ")
        out.append("")
        out.append("height: \(heights.isEmpty ? "0" : heights)" + (gaps.isEmpty ? "" : " + gaps \(gaps)")
            + " = \(num(layout.exactHeight)) → \(num(layout.size.height)) on the 1/\(num(layout.scale)) pt grid")
        out.append("width: \(num(layout.size.width)) (widest line, ceiled); lines: \(layout.lineCount)"
            + (layout.measurement.isTruncated ? ", truncated" : ""))
        for b in layout.inlineBoxes {
            let offset = offsets == .scalars ? "scalar \(b.scalarOffset) (UTF-16 \(b.utf16Offset))" : "\(offsets.rawValue) \(converter.offset(of: b))"
            out.append("box \(b.id.map(\.debugDescription) ?? "(no id)") on line \(b.line + 1), \(offset): rect (x \(num(b.rect.x)), y \(num(b.rect.y)), w \(num(b.rect.width)), h \(num(b.rect.height)))")
        }
        if let t = layout.truncationToken {
            out.append("truncation token on line \(t.line + 1): rect (x \(num(t.rect.x)), y \(num(t.rect.y)), w \(num(t.rect.width)), h \(num(t.rect.height)))")
            for b in t.boxes {
                out.append("  token box \(b.id.map(\.debugDescription) ?? "(no id)"), token scalar \(b.scalarOffset): rect (x \(num(b.rect.x)), y \(num(b.rect.y)), w \(num(b.rect.width)), h \(num(b.rect.height)))")
            }
        }
        for w in layout.measurement.warnings { out.append("warning: \(w)") }
        return out.joined(separator: "\n")
    }

    /// What line `i` shows: its text, or for a truncated line the visible head and tail
    /// around the truncation token as drawn (the style's token, such as "… more", when the
    /// layout placed it on this line; "…" otherwise).
    static func shown(line i: Int, of layout: TextLayout, style: TextStyle) -> String {
        guard let t = layout.lines[i].truncation else { return String(layout.text(ofLine: i)) }
        let token = layout.truncationToken?.line == i ? style.truncationToken?.string ?? "" : ""
        let ellipsis = token.isEmpty ? "…" : token
        switch t.placement {
        case .tail: return String(layout.text[t.head]) + ellipsis
        case .head: return ellipsis + String(layout.text[t.tail])
        case .middle: return String(layout.text[t.head]) + ellipsis + String(layout.text[t.tail])
        }
    }

    /// A number rounded to 3 decimals, without a fraction when whole; a value too large for
    /// an integer (a box of 1e300 as given) as Swift prints it.
    static func num(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        guard r.isFinite, abs(r) < 1e15 else { return "\(v)" }
        return r == r.rounded() ? String(Int(r)) : "\(r)"
    }
}

/// `plumb fonts "families"`: how a cascade resolves and which font draws each cluster.
enum FontsCommand {
    static let spec = CommandSpec(
        name: "fonts",
        overview: "Show how a font cascade resolves and which font draws each cluster of a text.",
        options: [
            OptionSpec(name: "text", valueName: "text", kind: .string, help: "Sample text whose clusters are shown with their fonts."),
            OptionSpec(name: "weight", valueName: "weight", kind: .int, help: "CSS font weight, 1–1000. (default: 400)"),
            OptionSpec(name: "italic", kind: .flag, help: "Use an italic face."),
        ] + FontOptions.options,
        positionals: [PositionalSpec(
            name: "families", help: "Comma-separated font cascade, e.g. \"Noto Sans, Noto Sans CJK SC\" (none: only list the registered fonts).",
            isOptional: true)])

    /// - Throws: a usage error for a weight outside 1–1000 (the engine would clamp it).
    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        if let w = args.int("weight"), let problem = StyleField.Domain.closed(1...1000).problem(Double(w)) {
            throw args.invalidValue(of: "weight", problem)
        }
        let families = (args.positional("families") ?? "").split(separator: ",").map { String($0).trimmingSpaces }
        let engine = try LayoutCommand.engine(args)
        let registered = engine.fonts.registeredFonts
        if !registered.isEmpty {
            print("registered:")
            for f in registered { print("  \(f.family) — \(f.source) (\(f.format.rawValue))") }
        }
        if families.isEmpty && !registered.isEmpty { return 0 }
        let report = engine.fontReport(
            families: families, weight: args.int("weight") ?? 400, italic: args.flag("italic"),
            text: args.string("text") ?? "")
        func describe(_ f: FontReport.Face) -> String {
            "\(f.family) — \(f.path) face \(f.faceIndex); upem \(LayoutCommand.num(f.unitsPerEm)), ascender \(LayoutCommand.num(f.ascender)), descender \(LayoutCommand.num(f.descender)), line gap \(LayoutCommand.num(f.lineGap))"
                + (f.hasColorGlyphs ? ", color" : "")
        }
        print("cascade:")
        for (i, f) in report.cascade.enumerated() { print("  \(i + 1). \(describe(f))") }
        if let e = report.emojiFace { print("emoji: \(describe(e))") }
        if let c = report.cjkFace { print("CJK preference: \(describe(c))") }
        for w in report.warnings { print("warning: \(w)") }
        if !report.clusters.isEmpty {
            print("clusters:")
            for c in report.clusters {
                let scalars = c.cluster.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
                print("  \(c.cluster.debugDescription) (\(scalars)) → \(c.face.family)" + (c.isMissing ? " (missing glyph)" : ""))
            }
        }
        return 0
    }
}

extension String {
    /// The text of a UTF-8 byte range (on scalar boundaries).
    func utf8Slice(_ range: Range<Int>) -> String {
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(self[start..<utf8.index(start, offsetBy: range.count)])
    }
}
