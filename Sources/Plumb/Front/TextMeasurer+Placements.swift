/// Placing inline boxes and the truncation token in a finished layout.
extension TextMeasurer {
    /// Walks the visible clusters of a placed line in logical order (head, then tail of a
    /// truncated line) with their pen positions from the line's start — tabs to their stops,
    /// the tail after the ellipsis — as the line breaker measured them, each cluster widened
    /// by the line's `justification`. Returns where the ellipsis starts on a truncated line.
    ///
    /// - Complexity: O(graphemes shown on the line).
    @discardableResult
    static func walkPens(
        of placed: PlacedLine, _ p: PreparedText, tabs: TabRuler, justification: LineJustification? = nil,
        _ visit: (_ g: Int32, _ start: Double, _ end: Double) -> Void
    ) -> Double? {
        let b = placed.broken
        let ranges = placed.truncation.map { [b.graphemeStart..<$0.headEnd, $0.tailStart..<$0.tailEnd] }
            ?? [b.graphemeStart..<b.graphemeEnd]
        let tabAdvances = tabs.tabAdvances(
            ranges, ellipsis: placed.truncation?.ellipsisWidth ?? 0, in: p, start: tabs.start(of: b, in: p),
            direction: p.paragraphs[Int(b.paragraph)].direction)
        var x = 0.0
        func walk(_ range: Range<Int32>) {
            for g in range {
                let start = x
                x += tabAdvances[g] ?? p.advances[Int(g)]
                if let j = justification { x += j.extra(before: g) + j.extra(after: g) }
                visit(g, start, x)
            }
        }
        guard let t = placed.truncation else {
            walk(b.graphemeStart..<b.graphemeEnd)
            return nil
        }
        walk(placed.broken.graphemeStart..<t.headEnd)
        let ellipsis = x
        x += t.ellipsisWidth
        walk(t.tailStart..<t.tailEnd)
        return ellipsis
    }

    /// A line that mixes directions: each visible grapheme's extent and where its "…" starts,
    /// in visual order (`GlyphPlacer.mixedDirectionExtents`).
    typealias VisualExtents = (graphemes: [Int32: (minX: Double, maxX: Double)], ellipsisX: Double?)

    /// The lines of a layout whose bidi runs reorder them, with their visual extents (empty
    /// for text that reads in one direction, without asking ICU for a left-to-right line of
    /// left-to-right characters).
    ///
    /// - Complexity: O(graphemes shown) for lines in a right-to-left paragraph or with
    ///   right-to-left characters; O(bytes) otherwise, without allocating.
    static func mixedDirectionLines(_ text: String, _ r: PipelineResult, lines: [LayoutLine]) -> [Int: VisualExtents] {
        var text = text
        return text.withUTF8 { utf8 in
            let maybeMixed = lines.contains { $0.direction == .rightToLeft } || Bidi.mayContainRightToLeft(utf8)
            guard maybeMixed, let source = DrawingSource(r) else { return [:] }
            var out: [Int: VisualExtents] = [:]
            for (i, line) in lines.enumerated() {
                let startX = line.rect.x - (line.direction == .rightToLeft ? line.hangingWidth : 0)
                out[i] = GlyphPlacer.mixedDirectionExtents(ofLine: i, direction: line.direction, startX: startX, utf8, source)
            }
            return out
        }
    }

    /// The caret map of a layout: per line, its visible clusters (head, then tail of a
    /// truncated line) with their pen extents, mirrored in right-to-left paragraphs.
    ///
    /// - Complexity: O(graphemes shown).
    static func caretMap(
        layout: AssembledLayout, lines: [LayoutLine], prepared p: PreparedText, tabs: TabRuler,
        visual: [Int: VisualExtents] = [:], justifications: [LineJustification?] = []
    ) -> CaretMap {
        var map = CaretMap()
        map.clusters.reserveCapacity(p.graphemeStarts.count)
        // Bounds read in order (a palette text derives each from a checkpoint otherwise),
        // through a pointer: a captured `var` would be checked for exclusivity per read.
        var cursor = PreparedText.GraphemeCursor(p.graphemeColumns)
        withUnsafeMutablePointer(to: &cursor) { cursor in
            for (index, placed) in layout.lines.enumerated() {
                let first = map.clusters.count
                let line = lines[index]
                let reordered = visual[index]?.graphemes
                let justification = index < justifications.count ? justifications[index] : nil
                walkPens(of: placed, p, tabs: tabs, justification: justification) { g, start, x in
                    var minX = line.direction == .rightToLeft ? line.rect.maxX - x : line.rect.x + start
                    var maxX = minX + (x - start)
                    if let extent = reordered?[g] { (minX, maxX) = extent }
                    let bounds = cursor.pointee.bounds(Int(g))
                    map.clusters.append(
                        CaretMap.Cluster(
                            utf8Start: bounds.start, utf8End: bounds.end, line: Int32(index),
                            minX: minX, maxX: maxX))
                }
                map.lineClusters.append(first..<map.clusters.count)
            }
        }
        return map
    }

    /// Where the truncated line's "…" or token is: after the visible head, as wide as the
    /// token, as tall as its line (mirrored in a right-to-left paragraph).
    static func placeToken(
        layout: AssembledLayout, lines: [LayoutLine], prepared: PreparedText, tabs: TabRuler, token: AttributedText?,
        visual: [Int: VisualExtents] = [:]
    ) -> TruncationTokenPlacement? {
        guard let index = layout.lines.lastIndex(where: { $0.truncation != nil }),
            let t = layout.lines[index].truncation,
            let x = walkPens(of: layout.lines[index], prepared, tabs: tabs, { _, _, _ in })
        else { return nil }
        let line = lines[index]
        let width = t.ellipsisWidth
        let visualX = visual[index]?.ellipsisX
            ?? (line.direction == .rightToLeft ? line.rect.maxX - x - width : line.rect.x + x)
        var placement = TruncationTokenPlacement(
            line: index, rect: Rect(x: visualX, y: line.rect.y, width: width, height: line.rect.height))
        if let token, let prepared = prepared.token {
            placement.boxes = placeTokenBoxes(token, prepared, x: visualX, line: line, lineIndex: index)
        }
        return placement
    }

    /// The token's boxes: its pieces laid left to right from `x` in the order drawing places
    /// them (`GlyphPlacer.tokenItems`), each box's bottom its (sanitized) `baselineOffset`
    /// above the line's baseline.
    ///
    /// - Complexity: O(token pieces × token clusters).
    private static func placeTokenBoxes(
        _ token: AttributedText, _ prepared: PreparedToken, x: Double, line: LayoutLine, lineIndex: Int
    ) -> [InlineBoxPlacement] {
        let boxes = token.inlineBoxes
        guard !boxes.isEmpty else { return [] }
        let text = token.string
        var pen = x
        var placements: [InlineBoxPlacement] = []
        for item in GlyphPlacer.tokenItems(prepared, paragraph: line.direction) {
            defer { pen += item.width }
            guard item.isBox, let (offset, box) = boxes.first(where: { $0.utf8Offset == item.bytes.lowerBound }) else {
                continue
            }
            placements.append(
                InlineBoxPlacement(box, at: offset, in: text, line: lineIndex, x: pen, width: item.width, baseline: line.baseline))
        }
        return placements
    }

    /// The rect of every box that a line shows: x from the advances before it on its line
    /// (tabs to their stops; after the ellipsis for the tail of a truncated line), y from the
    /// line's baseline and the box's offset. In a right-to-left paragraph x is mirrored within
    /// the line (exact for lines of one direction).
    ///
    /// - Complexity: O(log graphemes) per box, plus a walk of its line (`walkPens`).
    static func placeBoxes(
        _ boxes: [(utf8Offset: Int, box: InlineBox)], in text: String, layout: AssembledLayout,
        lines: [LayoutLine], prepared: PreparedText, tabs: TabRuler, visual: [Int: VisualExtents] = [:],
        justifications: [LineJustification?] = []
    ) -> [InlineBoxPlacement] {
        var placements: [InlineBoxPlacement] = []
        var lineIndex = 0
        for (offset, box) in boxes {
            guard let g = grapheme(startingAt: Int32(offset), in: prepared) else { continue }
            while lineIndex < layout.lines.count && layout.lines[lineIndex].broken.graphemeEnd <= g { lineIndex += 1 }
            guard lineIndex < layout.lines.count, layout.lines[lineIndex].broken.graphemeStart <= g else { continue }
            let placed = layout.lines[lineIndex]
            var pen: Double? = nil
            let justification = lineIndex < justifications.count ? justifications[lineIndex] : nil
            walkPens(of: placed, prepared, tabs: tabs, justification: justification) { k, start, _ in
                if k == g { pen = start + (justification?.extra(before: k) ?? 0) }
            }
            guard let x = pen else { continue }  // hidden by truncation
            let line = lines[lineIndex]
            let width = prepared.advances[Int(g)]
            let visualX = visual[lineIndex]?.graphemes[g]?.minX
                ?? (line.direction == .rightToLeft ? line.rect.maxX - x - width : line.rect.x + x)
            placements.append(
                InlineBoxPlacement(
                    box, at: offset, in: text, line: lineIndex, x: visualX, width: width, baseline: line.baseline))
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
}

extension InlineBoxPlacement {
    /// The placement of `box`, whose U+FFFC is at UTF-8 `offset` of `text`: its offsets in
    /// the three units and its rect from `x`, its line's `baseline` and the box's height and
    /// offset as its line was measured with them (`RunResolution.box(_:warnings:)`: an
    /// unusable number is 0), so the rect is finite whatever the box said.
    ///
    /// - Complexity: O(offset) to count scalars and UTF-16 units.
    init(_ box: InlineBox, at offset: Int, in text: String, line: Int, x: Double, width: Double, baseline: Double) {
        var ignored: [MeasureWarning] = []
        let measured = RunResolution.box(box, warnings: &ignored)
        let height = measured.height
        let bottom = baseline - measured.baselineOffset
        let index = text.utf8.index(text.startIndex, offsetBy: offset)
        self.init(
            id: box.id, box: box, utf8Offset: offset,
            scalarOffset: text.unicodeScalars.distance(from: text.startIndex, to: index),
            utf16Offset: text.utf16.distance(from: text.startIndex, to: index), line: line,
            rect: Rect(x: x, y: bottom - height, width: width, height: height))
    }
}
