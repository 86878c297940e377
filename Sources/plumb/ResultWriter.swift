import CLIKit
import Plumb

/// Formats `plumb measure`'s answer lines: one JSON object per input line, in input order.
///
/// - Thread safety: an immutable value; workers format their own chunks with it
///   concurrently.
struct ResultWriter: Sendable {
    /// `--line-starts`: each line's start offset.
    let wantsStarts: Bool
    /// `--lines`: line boxes, inline boxes and the truncation token's rect.
    let wantsBoxes: Bool
    /// `--clusters`: each line's visible clusters with their extents.
    var wantsClusters = false
    /// `--list`: rows with running offsets instead of measurements (`ListWriter`).
    var wantsList = false
    /// `--exact-numbers`: shortest round-trip numbers instead of 6 decimals.
    let exactNumbers: Bool
    /// `--offsets`: the unit of every offset written.
    let offsets: OffsetUnit

    /// The answer lines of a measured batch, each ending in a newline, and how many of them
    /// are errors.
    ///
    /// - Complexity: O(output bytes); one writer buffer reused for every line.
    func format(_ measured: MeasuredBatch) -> (bytes: [UInt8], errors: Int) {
        let batch = measured.batch
        var all: [UInt8] = []
        all.reserveCapacity(batch.count * 96)
        var errors = 0
        var out = JSONWriter(reservingCapacity: 256)
        // Numbers rounded to 6 decimals unless --exact-numbers asks for the shortest round-trip text.
        out.roundsNumbers = !exactNumbers
        // Fields are read from the batch in place: a `for (i, input)` loop, or an input passed
        // on whole, copies it (retaining its text, id and every string of its style).
        batch.withUnsafeBufferPointer { inputs in
            for i in inputs.indices {
                out.reset()
                out.beginObject()
                out.key(literal: "id")
                out.write(inputs[i].id)
                if let error = inputs[i].error ?? measured.measurements[i].flatMap(Self.tooLong) {
                    errors += 1
                    out.field("line", inputs[i].line)
                    out.field("error", error)
                } else if let m = measured.measurements[i] {
                    write(
                        m, layout: measured.layouts[i], inputWarnings: inputs[i].warnings,
                        asksForToken: inputs[i].request.style.truncationToken != nil, to: &out)
                }
                out.endObject()
                all.append(contentsOf: out.bytes)
                all.append(0x0A)
            }
        }
        return (all, errors)
    }

    /// `--list`: each line's row, to be placed by `ListWriter` (which knows the offsets).
    func listEntries(_ measured: MeasuredBatch) -> [ListEntry] {
        measured.batch.indices.map { i in
            let input = measured.batch[i]
            let m = measured.measurements[i]
            let error = input.error ?? m.flatMap(Self.tooLong) ?? (m != nil && measured.rowHeights[i] == nil ? "not measured" : nil)
            return ListEntry(
                id: input.id, line: input.line, size: error == nil ? measured.rowHeights[i] ?? 0 : 0, error: error,
                fallback: m?.isFallback ?? false, warnings: input.warnings + (m?.warnings.map(\.description) ?? []))
        }
    }

    /// A text over the size limit is an error for its line, not a stand-in height.
    static func tooLong(_ m: TextMeasurement) -> String? {
        for case .textTooLong(let bytes, let limit) in m.warnings {
            return "the text is \(bytes) UTF-8 bytes, over the limit of \(limit) (--max-text-bytes)"
        }
        return nil
    }

    /// Writes one measured line's fields: `inputWarnings` are the line's own (from parsing),
    /// `asksForToken` whether its style has a truncation token (only then is the token's rect
    /// written). Two fields, not the whole input: passing an input copied it, with every
    /// string of its style.
    func write(_ m: TextMeasurement, layout: TextLayout?, inputWarnings: [String], asksForToken: Bool, to out: inout JSONWriter) {
        // The fields of every line, keys copied as they are (`key(literal:)`).
        out.key(literal: "height")
        out.write(m.height)
        out.key(literal: "width")
        out.write(m.width)
        out.key(literal: "lines")
        out.write(m.lineCount)
        out.key(literal: "truncated")
        out.write(m.isTruncated)
        if m.isFallback { out.field("fallback", true) }
        if let layout { write(layout, asksForToken: asksForToken, to: &out) }
        let warnings = inputWarnings + m.warnings.map(\.description)
        if !warnings.isEmpty {
            out.key("warnings")
            out.beginArray()
            for w in warnings { out.write(w) }
            out.endArray()
        }
    }

    /// `"clusters"`: per line, `[start, end, minX, maxX]` of each visible cluster in logical
    /// order (offsets in the `--offsets` unit).
    private func writeClusters(_ layout: TextLayout, to out: inout JSONWriter) {
        let unit: TextOffsetUnit = switch offsets {
        case .scalars: .scalars
        case .utf8: .utf8
        case .utf16: .utf16
        }
        out.key("clusters")
        out.beginArray()
        for i in layout.lines.indices {
            out.beginArray()
            for c in layout.clusters(onLine: i, unit: unit) {
                out.beginArray()
                out.write(c.range.lowerBound)
                out.write(c.range.upperBound)
                out.write(c.minX)
                out.write(c.maxX)
                out.endArray()
            }
            out.endArray()
        }
        out.endArray()
    }

    /// `"lineStarts"` and `"lineBoxes"` (with `"boxes"` and `"token"`) as the options ask.
    private func write(_ layout: TextLayout, asksForToken: Bool, to out: inout JSONWriter) {
        let converter = OffsetUnit.Converter(offsets)
        if wantsStarts {
            out.key("lineStarts")
            out.beginArray()
            for line in layout.lines { out.write(converter.range(of: line).lowerBound) }
            out.endArray()
        }
        if wantsClusters { writeClusters(layout, to: &out) }
        guard wantsBoxes else { return }
        out.key("lineBoxes")
        out.beginArray()
        for line in layout.lines {
            let range = converter.range(of: line)
            out.beginObject()
            out.field("start", range.lowerBound)
            out.field("end", range.upperBound)
            out.key("rect")
            out.beginArray()
            for v in [line.rect.x, line.rect.y, line.rect.width, line.rect.height] { out.write(v) }
            out.endArray()
            out.field("baseline", line.baseline)
            out.field("usedWidth", line.usedWidth)
            if line.hyphenWidth > 0 { out.field("hyphenWidth", line.hyphenWidth) }
            if line.justificationWidth > 0 { out.field("justificationWidth", line.justificationWidth) }
            if line.direction == .rightToLeft { out.field("rtl", true) }
            out.endObject()
        }
        out.endArray()
        if !layout.inlineBoxes.isEmpty { writeBoxes(layout.inlineBoxes, converter, to: &out) }
        // The token's rect when the cell asks for a token (so a plain cell answers as before).
        if asksForToken, let token = layout.truncationToken {
            out.key("token")
            out.beginObject()
            out.field("line", token.line)
            out.key("rect")
            out.beginArray()
            for v in [token.rect.x, token.rect.y, token.rect.width, token.rect.height] { out.write(v) }
            out.endArray()
            if !token.boxes.isEmpty { writeBoxes(token.boxes, converter, to: &out) }
            out.endObject()
        }
    }

    /// `"boxes"`: each inline box the layout (or its truncation token) shows, with its id, rect,
    /// line and offset (absent when it shows none, so a cell without boxes answers as its
    /// `"text"` form; a token box's offset counts in the token's text).
    private func writeBoxes(_ boxes: [InlineBoxPlacement], _ converter: OffsetUnit.Converter, to out: inout JSONWriter) {
        out.key("boxes")
        out.beginArray()
        for box in boxes {
            out.beginObject()
            if let id = box.id { out.field("id", id) } else { out.field("id", JSONValue.null) }
            out.key("rect")
            out.beginArray()
            for v in [box.rect.x, box.rect.y, box.rect.width, box.rect.height] { out.write(v) }
            out.endArray()
            out.field("line", box.line)
            out.field("offset", converter.offset(of: box))
            out.endObject()
        }
        out.endArray()
    }
}

/// One row of `plumb measure --list` before its offset is known (workers make them; the main
/// thread places them in input order).
struct ListEntry: Sendable {
    var id: JSONValue
    var line: Int
    /// The row's height on its grid (`ListHeights`' rule); 0 for a line with an error.
    var size: Double
    var error: String?
    var fallback: Bool
    var warnings: [String]
}

/// Writes `plumb measure --list`'s rows with their running offsets — `{"id", "index",
/// "start", "size", "end"}`, the shape of TanStack Virtual's measurement items, from which
/// React Native's `getItemLayout` (`length`, `offset`, `index`) follows — and the total last.
/// A line with an error keeps its place (size 0) and says why.
///
/// - Thread safety: the main thread's; one per run.
struct ListWriter {
    let exactNumbers: Bool
    private(set) var index = 0
    private(set) var offset = 0.0
    private var out = JSONWriter(reservingCapacity: 4096)

    init(exactNumbers: Bool) {
        self.exactNumbers = exactNumbers
        out.roundsNumbers = !exactNumbers
    }

    /// The lines of `entries`, each ending in a newline.
    ///
    /// - Complexity: O(entries).
    mutating func format(_ entries: [ListEntry]) -> [UInt8] {
        var all: [UInt8] = []
        for e in entries {
            out.reset()
            out.beginObject()
            out.field("id", e.id)
            out.field("index", index)
            out.field("start", offset)
            out.field("size", e.size)
            offset += e.size
            out.field("end", offset)
            if let error = e.error {
                out.field("line", e.line)
                out.field("error", error)
            }
            if e.fallback { out.field("fallback", true) }
            if !e.warnings.isEmpty {
                out.key("warnings")
                out.beginArray()
                for w in e.warnings { out.write(w) }
                out.endArray()
            }
            out.endObject()
            all.append(contentsOf: out.bytes)
            all.append(0x0A)
            index += 1
        }
        return all
    }

    /// The closing line: `{"total": height, "count": rows}`.
    mutating func total() -> [UInt8] {
        out.reset()
        out.beginObject()
        out.field("total", offset)
        out.field("count", index)
        out.endObject()
        return out.bytes + [0x0A]
    }
}
