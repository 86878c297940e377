// `TextLayout` and its lines in the JSON form of `plumb measure --lines`: the measurement's
// fields, `"text"`, `"exactHeight"`, `"scale"` and `"lineBoxes"`, one object per line with
// `"start"`/`"end"` (Unicode-scalar offsets, as the CLI prints them), `"rect"` as
// `[x, y, width, height]`, `"baseline"`, `"usedWidth"` and `"rtl": true` for a line of a
// right-to-left paragraph, plus what the CLI leaves out (UTF-8 and UTF-16 offsets, hanging
// width, natural height, gap, paragraph end, truncation). What hit testing reads is there too:
// `"clusters"`, per line its visible clusters as `[utf8Start, utf8End, minX, maxX]` (the caret
// map), and `"runEnds"` (UTF-8 offsets) for an attributed text, so a decoded layout answers
// every query as the original.
//
// A line's `String.Index` ranges only mean something with its text: a `TextLayout` carries
// it; a lone `LayoutLine` finds it under `LayoutLine.textUserInfoKey` in the coder's
// `userInfo`.

extension LayoutLine: Codable {
    /// A `userInfo` key for encoders and decoders of a lone `LayoutLine`: the `String` the line
    /// belongs to (a `TextLayout` supplies its own text to its lines).
    public static let textUserInfoKey = CodingUserInfoKey(rawValue: "Plumb.LayoutLine.text")!

    /// Decodes a line of the text under `textUserInfoKey`, rebuilding its string-index,
    /// UTF-8 and UTF-16 ranges from its scalar offsets.
    ///
    /// - Throws: `DecodingError.dataCorrupted` without a text in `userInfo`, or for offsets
    ///   outside the text.
    public init(from decoder: any Decoder) throws {
        guard let text = decoder.userInfo[Self.textUserInfoKey] as? String else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "a LayoutLine needs its text: decode the TextLayout, or set userInfo[LayoutLine.textUserInfoKey]"))
        }
        self = try LineJSON(from: decoder).line(in: TextOffsets(text), codingPath: decoder.codingPath)
    }

    /// Encodes the line with the offsets of the text under `textUserInfoKey`.
    ///
    /// - Throws: `EncodingError.invalidValue` without a text in `userInfo`.
    public func encode(to encoder: any Encoder) throws {
        guard let text = encoder.userInfo[Self.textUserInfoKey] as? String else {
            throw EncodingError.invalidValue(self, .init(
                codingPath: encoder.codingPath,
                debugDescription: "a LayoutLine needs its text: encode the TextLayout, or set userInfo[LayoutLine.textUserInfoKey]"))
        }
        try LineJSON(self, in: TextOffsets(text)).encode(to: encoder)
    }
}

extension TextLayout: Codable {
    private enum LayoutJSONKey: String, CodingKey {
        case text, exactHeight, scale, lineBoxes, boxes, token, clusters, runEnds
    }

    /// Decodes a layout: its text, the measurement's fields (see `TextMeasurement`),
    /// `exactHeight`, `scale`, `lineBoxes`, and the optional `boxes`, `token`, `clusters` and
    /// `runEnds` (a layout without `clusters`, as `plumb measure --lines` prints it, has no
    /// characters to hit-test).
    ///
    /// - Throws: `DecodingError` for a missing or mistyped field, an unknown enum value, a
    ///   line or cluster whose offsets lie outside the text or inside a scalar, or `clusters`
    ///   that do not have one entry per line.
    /// - Complexity: O(text length + lines).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: LayoutJSONKey.self)
        let text = try c.decode(String.self, forKey: .text)
        let offsets = TextOffsets(text)
        var boxes = try c.nestedUnkeyedContainer(forKey: .lineBoxes)
        var lines: [LayoutLine] = []
        while !boxes.isAtEnd {
            lines.append(try boxes.decode(LineJSON.self).line(in: offsets, codingPath: boxes.codingPath))
        }
        self.init(
            text: text, measurement: try TextMeasurement(from: decoder), lines: lines,
            exactHeight: try c.decode(Double.self, forKey: .exactHeight), scale: try c.decode(Double.self, forKey: .scale))
        inlineBoxes = try c.decodeIfPresent([InlineBoxPlacement].self, forKey: .boxes) ?? []
        truncationToken = try c.decodeIfPresent(TruncationTokenPlacement.self, forKey: .token)
        if let clusters = try c.decodeIfPresent([[CaretMap.Cluster]].self, forKey: .clusters) {
            caretMap = try CaretMap(lines: clusters, offsets: offsets, codingPath: c.codingPath + [LayoutJSONKey.clusters])
        }
        runEnds = try c.decodeIfPresent([Int].self, forKey: .runEnds) ?? []
        try Self.validate(runEnds: runEnds, offsets: offsets, codingPath: c.codingPath + [LayoutJSONKey.runEnds])
        guard caretMap.lineClusters.isEmpty || caretMap.lineClusters.count == lines.count else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: c.codingPath + [LayoutJSONKey.clusters],
                debugDescription: "\(caretMap.lineClusters.count) lines of clusters for \(lines.count) lines"))
        }
    }

    /// Run ends must ascend and lie on scalar boundaries of the text.
    private static func validate(runEnds: [Int], offsets: TextOffsets, codingPath: [any CodingKey]) throws {
        for (k, end) in runEnds.enumerated() where !offsets.isScalarBoundary(utf8: end) || (k > 0 && runEnds[k - 1] > end) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: "run end \(end) is not an ascending scalar boundary of the text"))
        }
    }

    /// Encodes the text, the measurement's fields, `exactHeight`, `scale`, `lineBoxes`, and
    /// `boxes`, `token`, `clusters` and `runEnds` when there are any.
    public func encode(to encoder: any Encoder) throws {
        try measurement.encode(to: encoder)
        var c = encoder.container(keyedBy: LayoutJSONKey.self)
        try c.encode(text, forKey: .text)
        try c.encode(exactHeight, forKey: .exactHeight)
        try c.encode(scale, forKey: .scale)
        let offsets = TextOffsets(text)
        try c.encode(lines.map { LineJSON($0, in: offsets) }, forKey: .lineBoxes)
        if !inlineBoxes.isEmpty { try c.encode(inlineBoxes, forKey: .boxes) }
        try c.encodeIfPresent(truncationToken, forKey: .token)
        if !caretMap.lineClusters.isEmpty {
            try c.encode(caretMap.lineClusters.map { Array(caretMap.clusters[$0]) }, forKey: .clusters)
        }
        if !runEnds.isEmpty { try c.encode(runEnds, forKey: .runEnds) }
    }
}

/// A cluster is `[utf8Start, utf8End, minX, maxX]`; its line is where it is listed.
extension CaretMap.Cluster: Codable {
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let start = try c.decode(Int32.self), end = try c.decode(Int32.self)
        self.init(utf8Start: start, utf8End: end, line: 0, minX: try c.decode(Double.self), maxX: try c.decode(Double.self))
        guard c.isAtEnd, start <= end else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a cluster is [utf8Start, utf8End, minX, maxX]")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(utf8Start)
        try c.encode(utf8End)
        try c.encode(minX)
        try c.encode(maxX)
    }
}

extension CaretMap {
    /// The map of decoded clusters, listed per line: each gets its line's index, and its
    /// offsets are checked against the text (a scalar boundary each, so that converting them
    /// to UTF-16 or scalars cannot land inside a character).
    init(lines: [[Cluster]], offsets: TextOffsets, codingPath: [any CodingKey]) throws {
        self.init()
        for (line, clusters) in lines.enumerated() {
            let first = self.clusters.count
            for var cluster in clusters {
                guard offsets.isScalarBoundary(utf8: Int(cluster.utf8Start)), offsets.isScalarBoundary(utf8: Int(cluster.utf8End)) else {
                    throw DecodingError.dataCorrupted(.init(
                        codingPath: codingPath,
                        debugDescription: "cluster \(cluster.utf8Start)..<\(cluster.utf8End) of line \(line) is not a range of the text's scalars"))
                }
                cluster.line = Int32(line)
                self.clusters.append(cluster)
            }
            lineClusters.append(first..<self.clusters.count)
        }
    }
}

/// `{"id", "box": {"width", "height", "baselineOffset"}, "offset" (scalars), "utf8Offset",
/// "utf16Offset", "line", "rect": [x, y, w, h]}` — the CLI's `"boxes"` entries plus the box.
extension InlineBoxPlacement: Codable {
    private enum Key: String, CodingKey { case id, box, offset, utf8Offset, utf16Offset, line, rect }
    private enum BoxKey: String, CodingKey { case width, height, baselineOffset }

    /// Decodes a placement written by `encode(to:)`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let b = try c.nestedContainer(keyedBy: BoxKey.self, forKey: .box)
        let id = try c.decodeIfPresent(String.self, forKey: .id)
        self.init(
            id: id,
            box: InlineBox(
                width: try b.decode(Double.self, forKey: .width), height: try b.decode(Double.self, forKey: .height),
                baselineOffset: try b.decode(Double.self, forKey: .baselineOffset), id: id),
            utf8Offset: try c.decode(Int.self, forKey: .utf8Offset), scalarOffset: try c.decode(Int.self, forKey: .offset),
            utf16Offset: try c.decode(Int.self, forKey: .utf16Offset), line: try c.decode(Int.self, forKey: .line),
            rect: try c.decode(Rect.self, forKey: .rect))
    }

    /// Encodes the box's id, size and offset, its offsets in three units, line and rect.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(id, forKey: .id)
        var b = c.nestedContainer(keyedBy: BoxKey.self, forKey: .box)
        try b.encode(box.width, forKey: .width)
        try b.encode(box.height, forKey: .height)
        try b.encode(box.baselineOffset, forKey: .baselineOffset)
        try c.encode(scalarOffset, forKey: .offset)
        try c.encode(utf8Offset, forKey: .utf8Offset)
        try c.encode(utf16Offset, forKey: .utf16Offset)
        try c.encode(line, forKey: .line)
        try c.encode(rect, forKey: .rect)
    }
}



/// The JSON shape of one line (offsets instead of string indexes).
private struct LineJSON: Codable {
    struct TruncationJSON: Codable {
        var placement: EllipsisPlacement
        /// Scalar offsets `[start, end]` of the visible text before and after the ellipsis.
        var head: [Int]
        var tail: [Int]
        var ellipsisWidth: Double
    }

    var start: Int
    var end: Int
    var utf8Start: Int?
    var utf8End: Int?
    var utf16Start: Int?
    var utf16End: Int?
    var rect: Rect
    var baseline: Double
    var usedWidth: Double
    var hangingWidth: Double
    var naturalHeight: Double
    var gapAfter: Double
    var endsParagraph: Bool
    var rtl: Bool?
    var truncation: TruncationJSON?
    /// `LayoutLine.hyphenWidth`, only when the line ends with a hyphen.
    var hyphenWidth: Double?

    init(_ line: LayoutLine, in offsets: TextOffsets) {
        start = line.scalarRange.lowerBound
        end = line.scalarRange.upperBound
        utf8Start = line.utf8Range.lowerBound
        utf8End = line.utf8Range.upperBound
        utf16Start = line.utf16Range.lowerBound
        utf16End = line.utf16Range.upperBound
        rect = line.rect
        baseline = line.baseline
        usedWidth = line.usedWidth
        hangingWidth = line.hangingWidth
        naturalHeight = line.naturalHeight
        gapAfter = line.gapAfter
        endsParagraph = line.endsParagraph
        rtl = line.direction == .rightToLeft ? true : nil
        hyphenWidth = line.hyphenWidth > 0 ? line.hyphenWidth : nil
        truncation = line.truncation.map {
            TruncationJSON(placement: $0.placement, head: offsets.scalarOffsets($0.head),
                       tail: offsets.scalarOffsets($0.tail), ellipsisWidth: $0.ellipsisWidth)
        }
    }

    /// The line, its ranges rebuilt from the scalar offsets (the UTF-8 and UTF-16 offsets in
    /// the JSON are derived values and not read).
    func line(in offsets: TextOffsets, codingPath: [any CodingKey]) throws -> LayoutLine {
        func range(_ bounds: [Int]) throws -> Range<String.Index> {
            guard bounds.count == 2 else { throw corrupt("a range is [start, end]") }
            return try offsets.indexRange(bounds[0]..<max(bounds[0], bounds[1]), orThrow: corrupt)
        }
        func corrupt(_ message: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
        }
        guard start <= end else { throw corrupt("line start \(start) is after its end \(end)") }
        let scalars = start..<end
        return LayoutLine(
            range: try offsets.indexRange(scalars, orThrow: corrupt), scalarRange: scalars,
            utf8Range: offsets.utf8[start]..<offsets.utf8[end], utf16Range: offsets.utf16[start]..<offsets.utf16[end],
            rect: rect, usedWidth: usedWidth, hangingWidth: hangingWidth, baseline: baseline,
            naturalHeight: naturalHeight, gapAfter: gapAfter, endsParagraph: endsParagraph,
            direction: rtl == true ? .rightToLeft : .leftToRight,
            truncation: try truncation.map {
                LineTruncation(placement: $0.placement, head: try range($0.head), tail: try range($0.tail),
                               ellipsisWidth: $0.ellipsisWidth)
            }, hyphenWidth: hyphenWidth ?? 0)
    }
}

/// Every Unicode-scalar boundary of a text as a string index and as UTF-8 and UTF-16 offsets.
struct TextOffsets {
    /// Index of scalar boundary k (k = 0…scalar count).
    let indices: [String.Index]
    let utf8: [Int]
    let utf16: [Int]

    init(_ text: String) {
        var indices: [String.Index] = [], utf8: [Int] = [], utf16: [Int] = []
        var i = text.unicodeScalars.startIndex
        var u8 = 0, u16 = 0
        for scalar in text.unicodeScalars {
            indices.append(i); utf8.append(u8); utf16.append(u16)
            u8 += UTF8.width(scalar)
            u16 += UTF16.width(scalar)
            i = text.unicodeScalars.index(after: i)
        }
        indices.append(text.endIndex); utf8.append(u8); utf16.append(u16)
        (self.indices, self.utf8, self.utf16) = (indices, utf8, utf16)
    }

    /// Whether UTF-8 offset `o` is a scalar boundary of the text (its start and end included).
    func isScalarBoundary(utf8 o: Int) -> Bool {
        var lo = 0, hi = utf8.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if utf8[mid] < o { lo = mid + 1 } else { hi = mid }
        }
        return lo < utf8.count && utf8[lo] == o
    }

    /// The string-index range of scalar offsets `range`, or `error` when outside the text.
    func indexRange(_ range: Range<Int>, orThrow error: (String) -> DecodingError) throws -> Range<String.Index> {
        guard range.lowerBound >= 0, range.upperBound < indices.count else {
            throw error("offsets \(range) lie outside the text's \(indices.count - 1) scalars")
        }
        return indices[range.lowerBound]..<indices[range.upperBound]
    }

    /// `[start, end]` scalar offsets of a string-index range (indexes between scalars round down).
    func scalarOffsets(_ range: Range<String.Index>) -> [Int] {
        [scalarOffset(of: range.lowerBound), scalarOffset(of: range.upperBound)]
    }

    /// The scalar offset of `index`: O(log n).
    func scalarOffset(of index: String.Index) -> Int {
        var lo = 0, hi = indices.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if indices[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

extension TruncationTokenPlacement: Codable {
    private enum Key: String, CodingKey { case line, rect, boxes }

    /// Decodes a placement written by `encode(to:)` (`"boxes"` may be absent).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(
            line: try c.decode(Int.self, forKey: .line), rect: try c.decode(Rect.self, forKey: .rect),
            boxes: try c.decodeIfPresent([InlineBoxPlacement].self, forKey: .boxes) ?? [])
    }

    /// Encodes the line and rect, and the token's boxes when it has any.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(line, forKey: .line)
        try c.encode(rect, forKey: .rect)
        if !boxes.isEmpty { try c.encode(boxes, forKey: .boxes) }
    }
}
