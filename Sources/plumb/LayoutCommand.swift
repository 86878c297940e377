import CLIKit
import Plumb

/// `plumb layout "text"`: one layout explained line by line — how a person answers "why is
/// this cell 61 pt?".
enum LayoutCommand {
    static let spec = CommandSpec(
        name: "layout",
        overview: "Explain the layout of one text: lines, rects, baselines and the height sum.",
        options: StyleFields.options,
        positionals: [PositionalSpec(name: "text", help: "The text to lay out.")])

    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        let request = try StyleFields.defaults(from: args)
        let text = args.positional("text") ?? ""
        let engine = TextMeasurer()
        let layout = engine.layout(text, style: request.style, width: request.width, scale: request.scale)
        print(render(layout, request: request))
        return 0
    }

    static func render(_ layout: TextLayout, request: CellRequest) -> String {
        let s = request.style
        var out: [String] = []
        out.append("text: \(layout.text.debugDescription)")
        out.append("font: \(s.font.families.joined(separator: ", ")) \(num(s.font.size)) pt, weight \(s.font.weight)\(s.font.italic ? ", italic" : "")")
        out.append("box: width \(num(request.width)) pt, scale \(num(layout.scale))×, mode \(s.lineBreakMode.rawValue)"
            + (s.maxLines > 0 ? ", max \(s.maxLines) lines" : ""))
        out.append("")
        for (i, line) in layout.lines.enumerated() {
            var shown = String(layout.text(ofLine: i))
            if let t = line.truncation {
                switch t.placement {
                case .tail: shown = String(layout.text[t.head]) + "…"
                case .head: shown = "…" + String(layout.text[t.tail])
                case .middle: shown = String(layout.text[t.head]) + "…" + String(layout.text[t.tail])
                }
            }
            out.append("line \(i + 1): \(shown.debugDescription)")
            out.append("  scalars \(line.scalarRange.lowerBound)..<\(line.scalarRange.upperBound), width \(num(line.usedWidth))"
                + (line.hangingWidth > 0 ? " (+\(num(line.hangingWidth)) hanging)" : ""))
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
        for w in layout.measurement.warnings { out.append("warning: \(w)") }
        return out.joined(separator: "\n")
    }

    static func num(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
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
        ],
        positionals: [PositionalSpec(name: "families", help: "Comma-separated font cascade, e.g. \"Noto Sans, Noto Sans CJK SC\".")])

    /// - Throws: a usage error for a weight outside 1–1000 (the engine would clamp it).
    static func run(_ args: ParsedArguments) throws(UsageError) -> Int32 {
        if let w = args.int("weight"), let problem = StyleField.Domain.closed(1...1000).problem(Double(w)) {
            throw args.invalidValue(of: "weight", problem)
        }
        let families = (args.positional("families") ?? "").split(separator: ",").map { String($0).trimmingSpaces }
        let report = TextMeasurer().fontReport(
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
