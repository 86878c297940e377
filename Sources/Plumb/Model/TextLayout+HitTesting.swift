/// Where each visible grapheme cluster of a layout is drawn, for hit testing: its UTF-8 range,
/// its line and its horizontal extent in the text box. Clusters are in logical order per line;
/// their extents are where drawing puts them: a right-to-left paragraph's line mirrored, and a
/// line that mixes directions in the visual order of its bidi runs (UAX #9 through L2).
struct CaretMap: Hashable, Sendable {
    struct Cluster: Hashable, Sendable {
        var utf8Start: Int32
        var utf8End: Int32
        var line: Int32
        var minX: Double
        var maxX: Double
    }
    var clusters: [Cluster] = []
    /// Per line, its clusters' range in `clusters`.
    var lineClusters: [Range<Int>] = []
}

extension TextLayout {
    /// The offset (in `unit`) of the character at `point` — the start of the grapheme cluster
    /// under it; a point beside a line maps to the line's nearest cluster, a point above or
    /// below the text to the first or last line (as `lineIndex(atY:)`). Selection starts here;
    /// a tap handler wants `hit(at:unit:)`, which also tells inline boxes and the truncation
    /// token apart (here a point on the token gives the nearest visible character).
    ///
    /// - Returns: `nil` when there are no lines, or the line under the point shows no text.
    /// - Complexity: O(log lines + clusters on the line), plus O(n) to convert the offset out
    ///   of UTF-8.
    public func characterOffset(at point: Point, unit: TextOffsetUnit = .utf16) -> Int? {
        guard !point.x.isNaN, let line = lineIndex(atY: point.y), let best = nearestCluster(toX: point.x, onLine: line) else {
            return nil
        }
        return offset(utf8: Int(caretMap.clusters[best].utf8Start), in: unit)
    }

    /// What is at `point`: the truncation token, an inline box or a character (offset in
    /// `unit`).
    ///
    /// The line is the one under `point.y` (as `lineIndex(atY:)`: a line owns the gap below
    /// it). On it, whatever spans `point.x` is hit — a cluster of the text, a box's U+FFFC or
    /// the token, each over its advance and the line's full height; a point beside them all
    /// hits the nearest (a cluster when a cluster and the token are as near).
    ///
    /// - Returns: `nil` when there are no lines, `point` has a NaN coordinate, or the line
    ///   under it shows neither text nor token.
    /// - Complexity: O(log lines + clusters on the line + inline boxes), plus O(n) to convert
    ///   a character's offset out of UTF-8.
    public func hit(at point: Point, unit: TextOffsetUnit = .utf16) -> TextHit? {
        guard !point.x.isNaN, let line = lineIndex(atY: point.y) else { return nil }
        let cluster = nearestCluster(toX: point.x, onLine: line).map { caretMap.clusters[$0] }
        if let token = truncationToken, token.line == line {
            let onToken = Self.distance(point.x, to: token.rect.x, token.rect.maxX)
            let onCluster = cluster.map { Self.distance(point.x, to: $0.minX, $0.maxX) } ?? .infinity
            if onToken == 0 || onToken < onCluster { return .truncationToken }
        }
        guard let cluster else { return nil }
        if let box = inlineBoxes.first(where: { $0.line == line && $0.utf8Offset == Int(cluster.utf8Start) }) {
            return .inlineBox(box)
        }
        return .character(offset: offset(utf8: Int(cluster.utf8Start), in: unit))
    }

    /// The index in `caretMap.clusters` of the cluster on `line` that spans `x` (the first, in
    /// text order), or else the nearest; `nil` when the line shows no cluster.
    private func nearestCluster(toX x: Double, onLine line: Int) -> Int? {
        guard line < caretMap.lineClusters.count, !caretMap.lineClusters[line].isEmpty else { return nil }
        let range = caretMap.lineClusters[line]
        var best = range.lowerBound
        var bestDistance = Double.infinity
        for i in range {
            let c = caretMap.clusters[i]
            if x >= c.minX && x < c.maxX { return i }
            let d = Self.distance(x, to: c.minX, c.maxX)
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }

    /// How far `x` is from the extent `minX..<maxX` (0 inside it, and at `maxX`).
    private static func distance(_ x: Double, to minX: Double, _ maxX: Double) -> Double {
        if x >= minX && x < maxX { return 0 }
        return x < minX ? minX - x : x - maxX
    }

    /// The rects covering the characters `range` (offsets in `unit`), each as tall as its
    /// line: what a link highlight or a selection draws. One rect per line the range is on —
    /// several on a line that mixes directions, where the range's clusters are apart (left to
    /// right).
    ///
    /// - Complexity: O(clusters) plus O(n) to convert the range into UTF-8; a line that mixes
    ///   directions sorts its selected clusters.
    public func rects(forCharacters range: Range<Int>, unit: TextOffsetUnit = .utf16) -> [Rect] {
        guard let lo = utf8Offset(range.lowerBound, from: unit), let hi = utf8Offset(range.upperBound, from: unit),
            lo < hi
        else { return [] }
        var out: [Rect] = []
        for (line, clusters) in caretMap.lineClusters.enumerated() {
            let r = lines[line].rect
            for (minX, maxX) in Self.visualSpans(of: clusters.map { caretMap.clusters[$0] }, overlapping: lo..<hi) {
                out.append(Rect(x: minX, y: r.y, width: maxX - minX, height: r.height))
            }
        }
        return out
    }

    /// Clusters this close (points) or closer touch: the rounding noise of summed advances.
    static let touchingSlack = 1e-9

    /// The horizontal spans covered by the clusters overlapping `bytes`, touching extents
    /// merged, left to right.
    private static func visualSpans(of clusters: [CaretMap.Cluster], overlapping bytes: Range<Int>) -> [(Double, Double)] {
        let selected = clusters.filter { Int($0.utf8End) > bytes.lowerBound && Int($0.utf8Start) < bytes.upperBound }
            .sorted { $0.minX < $1.minX }
        var spans: [(Double, Double)] = []
        for c in selected {
            if let last = spans.last, c.minX <= last.1 + Self.touchingSlack {
                spans[spans.count - 1].1 = max(last.1, c.maxX)
            } else {
                spans.append((c.minX, c.maxX))
            }
        }
        return spans
    }

    /// A UTF-8 offset of `text` expressed in `unit`.
    func offset(utf8 o: Int, in unit: TextOffsetUnit) -> Int {
        switch unit {
        case .utf8: return o
        case .utf16, .scalars:
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: o)
            return unit == .utf16
                ? text.utf16.distance(from: text.startIndex, to: index)
                : text.unicodeScalars.distance(from: text.startIndex, to: index)
        }
    }

    /// An offset in `unit` as a UTF-8 offset of `text` (`nil` when out of range; an offset
    /// inside a scalar rounds down to it).
    func utf8Offset(_ o: Int, from unit: TextOffsetUnit) -> Int? {
        guard o >= 0 else { return nil }
        switch unit {
        case .utf8:
            return o <= text.utf8.count ? o : nil
        case .utf16:
            guard o <= text.utf16.count else { return nil }
            let index = text.utf16.index(text.utf16.startIndex, offsetBy: o)
            let scalar = index.samePosition(in: text.unicodeScalars) ?? text.unicodeScalars.index(before: index)
            return text.utf8.distance(from: text.utf8.startIndex, to: scalar)
        case .scalars:
            guard o <= text.unicodeScalars.count else { return nil }
            let index = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: o)
            return text.utf8.distance(from: text.utf8.startIndex, to: index)
        }
    }
}

extension TextLayout {
    /// The runs on line `index`, one entry per visual stretch of a run, left to right, each
    /// with its rect (for a truncated line, the visible head and tail only).
    ///
    /// A stretch is what is drawn side by side: a run that bidi reordering splits (a Hebrew
    /// word of a plain run drawn on the far side of a bold one) gives one entry per part, and
    /// the head and tail of a truncated line are apart (the token lies between them). A
    /// stretch whose characters are not consecutive in the text (digits in right-to-left text
    /// in a left-to-right line) is cut where its logical order jumps, so an entry's range is
    /// exactly its characters. Rects never overlap; together they cover what
    /// `rects(forCharacters:)` covers for the line.
    ///
    /// - Complexity: O(k log k) for the k clusters on the line, plus O(n) for the UTF-16
    ///   offsets.
    public func runs(onLine index: Int) -> [LineRun] {
        guard index >= 0, index < caretMap.lineClusters.count else { return [] }
        let line = lines[index].rect
        let visual = caretMap.lineClusters[index].map { caretMap.clusters[$0] }.sorted(by: Self.isDrawnBefore)
        return Self.stretches(of: visual, run: runIndex).flatMap(Self.logicalPieces).map { piece in
            let minX = piece.map(\.minX).min() ?? 0, maxX = piece.map(\.maxX).max() ?? 0
            let bytes = Self.byteSpan(of: piece)
            return LineRun(
                run: runIndex(of: piece[0]), utf8Range: bytes,
                utf16Range: offset(utf8: bytes.lowerBound, in: .utf16)..<offset(utf8: bytes.upperBound, in: .utf16),
                rect: Rect(x: minX, y: line.y, width: maxX - minX, height: line.height))
        }
    }

    /// The index in `AttributedText.runs` of the run holding `cluster` (0 for plain text).
    private func runIndex(of cluster: CaretMap.Cluster) -> Int {
        var lo = 0, hi = runEnds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runEnds[mid] <= Int(cluster.utf8Start) { lo = mid + 1 } else { hi = mid }
        }
        return runEnds.isEmpty ? 0 : lo
    }

    /// Left to right: by left edge, then right edge (a zero-width cluster before the one it
    /// touches), then text order.
    private static func isDrawnBefore(_ a: CaretMap.Cluster, _ b: CaretMap.Cluster) -> Bool {
        (a.minX, a.maxX, a.utf8Start) < (b.minX, b.maxX, b.utf8Start)
    }

    /// Clusters in drawing order grouped into stretches: consecutive, of one run, touching.
    private static func stretches(of visual: [CaretMap.Cluster], run: (CaretMap.Cluster) -> Int) -> [[CaretMap.Cluster]] {
        var out: [[CaretMap.Cluster]] = []
        for c in visual {
            if let last = out.last?.last, run(last) == run(c), c.minX <= last.maxX + Self.touchingSlack {
                out[out.count - 1].append(c)
            } else {
                out.append([c])
            }
        }
        return out
    }

    /// A stretch whose characters are consecutive in the text, whole; otherwise cut wherever
    /// the next cluster does not continue the previous one in the text (either direction).
    private static func logicalPieces(_ stretch: [CaretMap.Cluster]) -> [[CaretMap.Cluster]] {
        let bytes = stretch.reduce(0) { $0 + Int($1.utf8End - $1.utf8Start) }
        guard bytes != byteSpan(of: stretch).count else { return [stretch] }
        var out: [[CaretMap.Cluster]] = []
        for c in stretch {
            if let last = out.last?.last, c.utf8Start == last.utf8End || c.utf8End == last.utf8Start {
                out[out.count - 1].append(c)
            } else {
                out.append([c])
            }
        }
        return out
    }

    /// From the first byte to the last of `clusters` (not empty).
    private static func byteSpan(of clusters: [CaretMap.Cluster]) -> Range<Int> {
        Int(clusters.map(\.utf8Start).min() ?? 0)..<Int(clusters.map(\.utf8End).max() ?? 0)
    }
}

/// One visible grapheme cluster of a laid-out line: its text range and where it is drawn.
public struct LayoutCluster: Hashable, Sendable {
    /// The cluster's offsets in the unit asked for.
    public var range: Range<Int>
    /// Its horizontal extent in the text box (points): the pen before it, with any width a
    /// justified line added before it (`LayoutLine.justificationWidth`) …
    public var minX: Double
    /// … and the pen after it, with the width added after it.
    public var maxX: Double
}

extension TextLayout {
    /// The visible clusters of line `index` in logical order (head, then tail of a truncated
    /// line) with their extents, as hit testing sees them: caret stops, per-character
    /// highlights, a comparison with a browser's per-character rects.
    ///
    /// - Complexity: O(clusters on the line) in UTF-8; O(text) to convert to another unit.
    public func clusters(onLine index: Int, unit: TextOffsetUnit = .utf16) -> [LayoutCluster] {
        guard index >= 0, index < caretMap.lineClusters.count else { return [] }
        return caretMap.lineClusters[index].map { k in
            let c = caretMap.clusters[k]
            let range = offset(utf8: Int(c.utf8Start), in: unit)..<offset(utf8: Int(c.utf8End), in: unit)
            return LayoutCluster(range: range, minX: c.minX, maxX: c.maxX)
        }
    }
}
