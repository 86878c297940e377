/// Placing inline boxes and the truncation token in a finished layout.
extension TextMeasurer {
    /// The caret map of a layout: per line, its visible clusters (head, then tail of a
    /// truncated line) with their pen extents, mirrored in right-to-left paragraphs.
    ///
    /// - Complexity: O(graphemes shown).
    static func caretMap(layout: ComputedLayout, lines: [LayoutLine], prepared p: PreparedText, tabInterval: Double) -> CaretMap {
        var map = CaretMap()
        map.clusters.reserveCapacity(p.graphemeStarts.count)
        for (index, placed) in layout.lines.enumerated() {
            let first = map.clusters.count
            let line = lines[index]
            var x = 0.0
            func add(_ range: Range<Int32>) {
                for g in range {
                    let start = x
                    if p.flags[Int(g)].contains(.tab) {
                        x = (x / tabInterval).rounded(.down) * tabInterval + tabInterval
                    } else {
                        x += p.advances[Int(g)]
                    }
                    let minX = line.direction == .rightToLeft ? line.rect.maxX - x : line.rect.x + start
                    map.clusters.append(
                        CaretMap.Cluster(
                            utf8Start: p.graphemeStarts[Int(g)], utf8End: p.graphemeEnds[Int(g)], line: Int32(index),
                            minX: minX, maxX: minX + (x - start)))
                }
            }
            if let t = placed.truncation {
                add(placed.box.graphemeStart..<t.headEnd)
                x += t.ellipsisWidth
                add(t.tailStart..<t.tailEnd)
            } else {
                add(placed.box.graphemeStart..<placed.box.graphemeEnd)
            }
            map.lineClusters.append(first..<map.clusters.count)
        }
        return map
    }

    /// Where the truncated line's "…" or token is: after the visible head, as wide as the
    /// token, as tall as its line (mirrored in a right-to-left paragraph).
    static func placeToken(layout: ComputedLayout, lines: [LayoutLine], prepared: PreparedText, tabInterval: Double)
        -> TruncationTokenPlacement?
    {
        guard let index = layout.lines.lastIndex(where: { $0.truncation != nil }),
            let t = layout.lines[index].truncation
        else { return nil }
        let placed = layout.lines[index]
        let line = lines[index]
        var x = 0.0
        for k in placed.box.graphemeStart..<t.headEnd {
            if prepared.flags[Int(k)].contains(.tab) {
                x = (x / tabInterval).rounded(.down) * tabInterval + tabInterval
            } else {
                x += prepared.advances[Int(k)]
            }
        }
        let width = t.ellipsisWidth
        let visualX = line.direction == .rightToLeft ? line.rect.maxX - x - width : line.rect.x + x
        return TruncationTokenPlacement(line: index, rect: Rect(x: visualX, y: line.rect.y, width: width, height: line.rect.height))
    }

    /// The rect of every box that a line shows: x from the advances before it on its line
    /// (tabs to their stops; after the ellipsis for the tail of a truncated line), y from the
    /// line's baseline and the box's offset. In a right-to-left paragraph x is mirrored within
    /// the line (exact for lines of one direction).
    ///
    /// - Complexity: O(log graphemes) per box, plus the advances before it on its line.
    static func placeBoxes(
        _ boxes: [(utf8Offset: Int, box: InlineBox)], in text: String, layout: ComputedLayout,
        lines: [LayoutLine], prepared: PreparedText, tabInterval: Double
    ) -> [InlineBoxPlacement] {
        var placements: [InlineBoxPlacement] = []
        var lineIndex = 0
        let utf8 = text.utf8
        for (offset, box) in boxes {
            guard let g = grapheme(startingAt: Int32(offset), in: prepared) else { continue }
            while lineIndex < layout.lines.count && layout.lines[lineIndex].box.graphemeEnd <= g { lineIndex += 1 }
            guard lineIndex < layout.lines.count, layout.lines[lineIndex].box.graphemeStart <= g else { continue }
            let placed = layout.lines[lineIndex]
            guard let x = xWithinLine(of: g, placed, prepared: prepared, tabInterval: tabInterval) else { continue }
            let line = lines[lineIndex]
            let width = prepared.advances[Int(g)]
            let visualX = line.direction == .rightToLeft ? line.rect.maxX - x - width : line.rect.x + x
            let bottom = line.baseline - box.baselineOffset
            let height = max(0, box.height.isFinite ? box.height : 0)
            let index = utf8.index(utf8.startIndex, offsetBy: offset)
            placements.append(
                InlineBoxPlacement(
                    id: box.id, box: box, utf8Offset: offset,
                    scalarOffset: text.unicodeScalars.distance(from: text.startIndex, to: index),
                    utf16Offset: text.utf16.distance(from: text.startIndex, to: index), line: lineIndex,
                    rect: Rect(x: visualX, y: bottom - height, width: width, height: height)))
        }
        return placements
    }

    /// The grapheme whose first byte is `offset` (binary search).
    private static func grapheme(startingAt offset: Int32, in p: PreparedText) -> Int32? {
        var lo = 0
        var hi = p.graphemeStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if p.graphemeStarts[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        guard lo < p.graphemeStarts.count, p.graphemeStarts[lo] == offset, p.flags[lo].contains(.inlineBox) else { return nil }
        return Int32(lo)
    }

    /// The pen position of grapheme `g` from its line's start, or `nil` when truncation hid it.
    private static func xWithinLine(of g: Int32, _ line: PlacedLine, prepared p: PreparedText, tabInterval: Double) -> Double? {
        func advance(from start: Int32, to end: Int32, at x0: Double) -> Double {
            var x = x0
            for k in start..<end {
                if p.flags[Int(k)].contains(.tab) {
                    x = (x / tabInterval).rounded(.down) * tabInterval + tabInterval
                } else {
                    x += p.advances[Int(k)]
                }
            }
            return x
        }
        guard let t = line.truncation else { return advance(from: line.box.graphemeStart, to: g, at: 0) }
        if g < t.headEnd { return advance(from: line.box.graphemeStart, to: g, at: 0) }
        guard g >= t.tailStart && g < t.tailEnd else { return nil }
        let head = advance(from: line.box.graphemeStart, to: t.headEnd, at: 0)
        return advance(from: t.tailStart, to: g, at: head + t.ellipsisWidth)
    }
}
