/// Positions the glyphs of a layout from Plumb's own geometry: each line starts at its rect's
/// x (its alignment) on its baseline; runs of one font are shaped for their glyphs and placed
/// from the run's start; after each run the pen moves by the run's advances as the layout
/// measured them, so drawing never drifts from the measured lines.
///
/// Lines are drawn in visual order (UAX #9 through L2, ICU's ubidi): the line's bidi runs left
/// to right, and inside a right-to-left run its font runs from the last to the first, each
/// shaped right to left by HarfBuzz. A right-to-left paragraph's hanging whitespace sits left
/// of the line's rect. A truncated line's head, ellipsis and tail follow the paragraph's
/// direction and are reordered each on its own (not as one bidi paragraph); a truncation token
/// is reordered as a bidi paragraph of its line's direction (``tokenItems(_:paragraph:)``).
///
/// In an attributed text each run is placed on its own (as it was shaped when measured), at
/// its own size, raised by its baseline offset and in its colour; an inline box is a blank
/// advance (renderers draw it from `TextLayout.inlineBoxes`).
enum GlyphPlacer {
    /// What a line draws, in logical order.
    private enum Piece {
        case graphemes(Range<Int32>)
        case ellipsis
    }

    /// One step of drawing a line, in visual order (left to right).
    enum DrawItem: Equatable {
        /// Graphemes of one font inside one bidi run, shaped in the run's direction.
        case fontRun(Range<Int>, TextDirection)
        /// A tab (grapheme index): blank, as wide as the line breaker measured it (to the next
        /// stop after its logical position).
        case tab(Int, width: Double)
        /// The "…" of a truncated line.
        case ellipsis(TextDirection)
        /// An inline box (grapheme index): blank, as wide as the box.
        case box(Int, width: Double)
        /// Blank width a justified line adds between two clusters.
        case stretch(Double)
    }

    /// Each line's drawing steps from left to right: the bidi runs of its pieces (head,
    /// ellipsis, tail in the paragraph's direction), and inside a right-to-left run its font
    /// runs from the last to the first.
    ///
    /// - Complexity: O(graphemes); ICU is asked only for lines that need reordering.
    static func drawingOrder(of layout: TextLayout, _ source: DrawingSource) -> [[DrawItem]] {
        var text = layout.text
        return text.withUTF8 { utf8 in
            layout.lines.enumerated().map { (i, line) in drawingOrder(ofLine: i, direction: line.direction, utf8, source) }
        }
    }

    /// Line `i`'s drawing steps from left to right (see `drawingOrder(of:_:)`).
    static func drawingOrder(
        ofLine i: Int, direction: TextDirection, _ utf8: UnsafeBufferPointer<UInt8>, _ source: DrawingSource
    ) -> [DrawItem] {
        let p = source.prepared
        let logical = pieces(source.lineGraphemes[i])
        let tabs = source.tabs.tabAdvances(
            source.lineGraphemes[i].visible, ellipsis: source.ellipsis(ofLine: i).width, in: p, start: source.lineTabStarts[i],
            direction: direction)
        var items: [DrawItem] = []
        for piece in direction == .rightToLeft ? logical.reversed() : logical {
            switch piece {
            case .ellipsis: items.append(.ellipsis(direction))
            case .graphemes(let range):
                for run in visualRuns(range, p, utf8, paragraph: direction) {
                    items += fontRuns(
                        run.graphemes, direction: run.direction, tabs: tabs, justification: source.justification(ofLine: i),
                        source)
                }
            }
        }
        return items
    }

    /// Where a line that mixes directions shows each grapheme and its "…": extents from the
    /// line's start x in visual order, as `glyphs(of:_:)` draws them (a right-to-left run's
    /// graphemes from the last to the first). `nil` when the line reads in one direction
    /// (its extents are the logical ones, mirrored in a right-to-left paragraph).
    ///
    /// - Complexity: O(graphemes on the line); ICU is asked only for a line in a right-to-left
    ///   paragraph or with a right-to-left character (`Bidi.mayContainRightToLeft`).
    static func mixedDirectionExtents(
        ofLine i: Int, direction: TextDirection, startX: Double, _ utf8: UnsafeBufferPointer<UInt8>, _ source: DrawingSource
    ) -> (graphemes: [Int32: (minX: Double, maxX: Double)], ellipsisX: Double?)? {
        let p = source.prepared
        let bytesFrom = source.lineGraphemes[i].visible.compactMap { r -> Range<Int>? in
            r.isEmpty ? nil : Int(p.graphemeStarts[Int(r.lowerBound)])..<Int(p.graphemeEnds[Int(r.upperBound) - 1])
        }
        let rightToLeft = bytesFrom.contains { Bidi.mayContainRightToLeft(UnsafeBufferPointer(rebasing: utf8[$0])) }
        if direction == .leftToRight && !rightToLeft { return nil }
        let items = drawingOrder(ofLine: i, direction: direction, utf8, source)
        let mixed = items.contains { if case .fontRun(_, let d) = $0 { return d != direction } else { return false } }
        guard mixed else { return nil }
        var extents: [Int32: (minX: Double, maxX: Double)] = [:]
        var ellipsisX: Double? = nil
        var x = startX
        // A cluster's extent holds the width a justified line added around it (the stretch
        // items beside it are counted here instead).
        let justification = source.justification(ofLine: i)
        func add(_ g: Int, _ width: Double) {
            let stretched = width + (justification.map { $0.extra(before: Int32(g)) + $0.extra(after: Int32(g)) } ?? 0)
            extents[Int32(g)] = (x, x + stretched)
            x += stretched
        }
        for item in items {
            switch item {
            case .ellipsis:
                ellipsisX = x
                x += source.ellipsis(ofLine: i).width
            case .tab(let g, let width), .box(let g, let width): add(g, width)
            case .stretch: continue
            case .fontRun(let run, let d):
                for g in d == .rightToLeft ? Array(run.reversed()) : Array(run) { add(g, p.advances[g]) }
            }
        }
        return (extents, ellipsisX)
    }

    /// Each line's glyphs from left to right, from the line's start (its rect's x, less the
    /// hanging whitespace of a right-to-left line) on its baseline.
    ///
    /// - Complexity: O(glyphs): every font run of the drawn lines is shaped again.
    static func glyphs(of layout: TextLayout, _ source: DrawingSource) -> [[PlacedGlyph]] {
        let order = drawingOrder(of: layout, source)
        var text = layout.text
        let shaper = Shaper()
        return text.withUTF8 { utf8 in
            layout.lines.enumerated().map { (i, line) -> [PlacedGlyph] in
                var out: [PlacedGlyph] = []
                var x = line.rect.x - (line.direction == .rightToLeft ? line.hangingWidth : 0)
                // The hyphen of a line that breaks a word ends it: at its right in a
                // left-to-right line, at its left in a right-to-left one (there before any
                // hanging spaces).
                if line.direction == .rightToLeft {
                    placeHyphen(of: line, i, source, shaper, x: &x, into: &out)
                }
                for item in order[i] {
                    switch item {
                    case .ellipsis(let direction):
                        placeEllipsis(source, line: i, shaper, baseline: line.baseline, direction: direction, x: &x, into: &out)
                    case .tab(_, let width), .box(_, let width), .stretch(let width):
                        x += width
                    case .fontRun(let run, let direction):
                        placeFontRun(run, direction: direction, source, utf8, shaper, baseline: line.baseline, x: &x, into: &out)
                    }
                }
                if line.direction != .rightToLeft {
                    // Right after the visible content: hanging spaces after a soft hyphen stay
                    // past it (Blink's "word\u{AD} ").
                    var hyphenX = line.rect.maxX - line.hyphenWidth
                    placeHyphen(of: line, i, source, shaper, x: &hyphenX, into: &out)
                }
                return out
            }
        }
    }

    /// A line's pieces in logical order: head, ellipsis, tail for a truncated line.
    private static func pieces(_ drawn: (visible: [Range<Int32>], hasEllipsis: Bool)) -> [Piece] {
        var pieces: [Piece] = []
        for (k, range) in drawn.visible.enumerated() {
            pieces.append(.graphemes(range))
            if drawn.hasEllipsis && k == 0 { pieces.append(.ellipsis) }
        }
        return pieces
    }

    /// The graphemes of `range` as bidi runs from left to right. A left-to-right paragraph
    /// without a right-to-left character (`Bidi.mayContainRightToLeft`) is one run, without
    /// asking ICU.
    private static func visualRuns(
        _ range: Range<Int32>, _ p: PreparedText, _ utf8: UnsafeBufferPointer<UInt8>, paragraph: TextDirection
    ) -> [(graphemes: Range<Int32>, direction: TextDirection)] {
        guard !range.isEmpty else { return [] }
        let start = Int(p.graphemeStarts[Int(range.lowerBound)])
        let end = Int(p.graphemeEnds[Int(range.upperBound) - 1])
        let bytes = UnsafeBufferPointer(rebasing: utf8[start..<end])
        if paragraph == .leftToRight && !Bidi.mayContainRightToLeft(bytes) {
            return [(range, .leftToRight)]
        }
        // A grapheme belongs to the run that holds its first byte (runs split at characters,
        // and a cluster's marks take their base's level).
        // Starts read in order (a palette text derives each from a checkpoint otherwise).
        var cursor = PreparedText.GraphemeCursor(p.graphemeColumns)
        func startOf(_ g: Int32) -> Int { Int(cursor.bounds(Int(g)).start) }
        return Bidi.visualRuns(bytes, paragraph: paragraph).compactMap { run in
            var lo = range.lowerBound
            while lo < range.upperBound && startOf(lo) - start < run.bytes.lowerBound { lo += 1 }
            var hi = lo
            while hi < range.upperBound && startOf(hi) - start < run.bytes.upperBound { hi += 1 }
            return lo < hi ? (lo..<hi, run.direction) : nil
        }
    }

    /// One bidi run's font runs, tabs, boxes and justification stretches: in logical order, or
    /// from the last to the first when it reads right to left. A font run never crosses a run
    /// of an attributed text (each run was shaped alone), nor a place where a justified line
    /// stretches.
    private static func fontRuns(
        _ range: Range<Int32>, direction: TextDirection, tabs: [Int32: Double], justification: LineJustification?,
        _ source: DrawingSource
    ) -> [DrawItem] {
        let p = source.prepared
        let blank: PreparedText.GraphemeFlags = [.tab, .inlineBox]
        var items: [DrawItem] = []
        var g = Int(range.lowerBound)
        let end = Int(range.upperBound)
        // Starts read in order (a palette text derives each from a checkpoint otherwise).
        var cursor = PreparedText.GraphemeCursor(p.graphemeColumns)
        func startOf(_ k: Int) -> Int32 { cursor.bounds(k).start }
        func stretch(_ w: Double) { if w != 0 { items.append(.stretch(w)) } }
        while g < end {
            stretch(justification?.extra(before: Int32(g)) ?? 0)
            if p.flags[g].contains(.tab) {
                items.append(.tab(g, width: tabs[Int32(g)] ?? 0))
                g += 1
                continue
            }
            if p.flags[g].contains(.inlineBox) {
                items.append(.box(g, width: p.advances[g]))
                stretch(justification?.extra(after: Int32(g)) ?? 0)
                g += 1
                continue
            }
            // The run's end byte: a font run stops there (plain text: never).
            let runEndByte = source.run(atByte: startOf(g)).map { Int32(source.runs[$0].byteEnd) } ?? .max
            var runEnd = g + 1
            while runEnd < end && p.flags[runEnd].isDisjoint(with: blank) && p.graphemeFonts[runEnd] == p.graphemeFonts[g]
                && startOf(runEnd) < runEndByte && justification?.stretches(Int32(runEnd - 1)) != true
                && justification?.stretches(Int32(runEnd)) != true
            {
                runEnd += 1
            }
            items.append(.fontRun(g..<runEnd, direction))
            stretch(justification?.extra(after: Int32(runEnd - 1)) ?? 0)
            g = runEnd
        }
        return direction == .rightToLeft ? items.reversed() : items
    }

    /// Places one run of one font from `x`; moves `x` by the run's measured advances.
    private static func placeFontRun(
        _ run: Range<Int>, direction: TextDirection, _ source: DrawingSource, _ utf8: UnsafeBufferPointer<UInt8>,
        _ shaper: Shaper, baseline: Double, x: inout Double, into out: inout [PlacedGlyph]
    ) {
        let p = source.prepared
        let bytes = UnsafeBufferPointer(rebasing: utf8[Int(p.graphemeStarts[run.lowerBound])..<Int(p.graphemeEnds[run.upperBound - 1])])
        // Each face at its run's size, raised by its run's offset (plain text: the style's size).
        let attributes = source.run(atByte: p.graphemeStarts[run.lowerBound]).map { source.runs[$0] }
        place(bytes, font: p.fonts[Int(p.graphemeFonts[run.lowerBound])].font, source.style(of: attributes),
              width: run.reduce(0.0) { $0 + p.advances[$1] }, direction: direction, isEllipsis: false,
              shaper, baseline: baseline - (attributes?.baselineOffset ?? 0), x: &x, into: &out)
    }

    /// Places the hyphen line `i` ends with (none when `hyphenWidth` is 0): U+2010 or "-" as
    /// measured (`Shaper.hyphenScalar`), in the face and run style of the text before it.
    private static func placeHyphen(
        of line: LayoutLine, _ i: Int, _ source: DrawingSource, _ shaper: Shaper, x: inout Double,
        into out: inout [PlacedGlyph]
    ) {
        guard line.hyphenWidth > 0, let last = source.lineGraphemes[i].visible.last, !last.isEmpty else { return }
        let p = source.prepared
        // The point: after the line's last grapheme, or after its hanging spaces (Blink shows
        // the hyphen of "word\u{AD} " there).
        var end = last.upperBound
        let textEnd = p.paragraphs[p.paragraphs.count - 1].graphemeEnd
        while p.hyphenPoints.face(after: end - 1) == nil && end < textEnd && p.flags[Int(end)].contains(.hangingSpace) { end += 1 }
        guard let face = p.hyphenPoints.face(after: end - 1) else { return }
        let font = face as! Font
        let g = Int(last.upperBound) - 1
        let attributes = source.run(atByte: p.graphemeStarts[g]).map { source.runs[$0] }
        let utf8 = Array(String(Character(Unicode.Scalar(Shaper.hyphenScalar(font: font)) ?? "-")).utf8)
        utf8.withUnsafeBufferPointer {
            place($0, font: font, source.style(of: attributes), width: line.hyphenWidth, direction: line.direction,
                  isEllipsis: false, shaper, baseline: line.baseline - (attributes?.baselineOffset ?? 0), x: &x, into: &out)
        }
    }

    /// Places the "…" of a truncated line, or the style's truncation token: each piece of one
    /// face at its run's size, offset and colour, in visual order (``tokenItems(_:paragraph:)``;
    /// a box in the token is a blank advance).
    private static func placeEllipsis(
        _ source: DrawingSource, line: Int, _ shaper: Shaper, baseline: Double, direction: TextDirection,
        x: inout Double, into out: inout [PlacedGlyph]
    ) {
        let p = source.prepared
        if let token = p.token {
            token.utf8.withUnsafeBufferPointer { utf8 in
                for item in tokenItems(token, paragraph: direction) {
                    if item.isBox {
                        x += item.width
                        continue
                    }
                    let run = DrawingSource.run(atByte: Int32(item.bytes.lowerBound), in: source.tokenRuns).map { source.tokenRuns[$0] }
                    place(UnsafeBufferPointer(rebasing: utf8[item.bytes]), font: p.fonts[Int(item.font)].font,
                          source.style(of: run), width: item.width, direction: item.direction, isEllipsis: true,
                          shaper, baseline: baseline - (run?.baselineOffset ?? 0), x: &x, into: &out)
                }
            }
            return
        }
        let (font, width) = source.ellipsis(ofLine: line)
        // A plain text's faces all have the style's size; a run style's "…" has its run's.
        let size = p.ellipsisByGroup.isEmpty ? source.fontSize : p.scales[Int(font)].size
        var style = source.style(of: nil)
        style.size = size
        TextPreparer.ellipsisUTF8.withUnsafeBufferPointer {
            place($0, font: p.fonts[Int(font)].font, style, width: width,
                  direction: direction, isEllipsis: true, shaper, baseline: baseline, x: &x, into: &out)
        }
    }

    /// One step of drawing a truncation token, left to right: bytes of one face inside one
    /// bidi run (or a box), their measured advance and direction.
    struct TokenItem: Equatable {
        var bytes: Range<Int>
        var font: UInt8
        var width: Double
        var isBox: Bool
        var direction: TextDirection
    }

    /// The token's pieces in visual order on a line of direction `paragraph`: the token is
    /// reordered as one bidi paragraph of that direction (UAX #9 through L2), its pieces split
    /// where its bidi runs do, and a right-to-left run's pieces placed from the last to the
    /// first — so "… עוד" starts at the right of a Hebrew line and "… more" keeps "more"
    /// left to right. A left-to-right line without right-to-left characters keeps the pieces.
    ///
    /// - Complexity: O(token length); ICU is asked only when reordering may be needed.
    static func tokenItems(_ token: PreparedToken, paragraph: TextDirection) -> [TokenItem] {
        let needsBidi = paragraph == .rightToLeft || token.utf8.withUnsafeBufferPointer(Bidi.mayContainRightToLeft)
        guard needsBidi else {
            return token.pieces.map { TokenItem(bytes: $0.bytes, font: $0.font, width: $0.width, isBox: $0.isBox, direction: .leftToRight) }
        }
        let runs = token.utf8.withUnsafeBufferPointer { Bidi.visualRuns($0, paragraph: paragraph) }
        var items: [TokenItem] = []
        for run in runs {
            var inRun: [TokenItem] = []
            var clusterStart = 0
            for cluster in token.clusters {
                defer { clusterStart = Int(cluster.end) }
                guard run.bytes.contains(clusterStart),
                    let piece = token.pieces.first(where: { $0.bytes.contains(clusterStart) })
                else { continue }
                let bytes = clusterStart..<Int(cluster.end)
                if let last = inRun.last, !piece.isBox, !last.isBox, last.font == piece.font, last.bytes.upperBound == bytes.lowerBound,
                    piece.bytes.contains(last.bytes.lowerBound)
                {
                    inRun[inRun.count - 1].bytes = last.bytes.lowerBound..<bytes.upperBound
                    inRun[inRun.count - 1].width += cluster.width
                } else {
                    inRun.append(TokenItem(bytes: bytes, font: piece.font, width: cluster.width, isBox: piece.isBox, direction: run.direction))
                }
            }
            items += run.direction == .rightToLeft ? inRun.reversed() : inRun
        }
        return items
    }

    /// Shapes `bytes` in `font` and places the glyphs from `x`, spreading the difference
    /// between the measured `width` and the shaped advances (letter spacing, rounding) over the
    /// clusters; moves `x` by `width`, so drawing never drifts from the measured line.
    private static func place(
        _ bytes: UnsafeBufferPointer<UInt8>, font: Font, _ style: DrawnStyle, width: Double, direction: TextDirection,
        isEllipsis: Bool, _ shaper: Shaper, baseline: Double, x: inout Double, into out: inout [PlacedGlyph]
    ) {
        let k = style.size / font.upem
        let synthetic = style.synthesis.drawing(of: font, weight: style.weight, italic: style.italic, size: style.size)
        // Left-to-right runs keep HarfBuzz's guess from the script (what measuring shaped).
        let shaped = shaper.glyphs(bytes, font: font, direction: direction == .rightToLeft ? .rightToLeft : nil)
        let letterSpacing = width - Double(shaped.reduce(0) { $0 + Int($1.advance) }) * k
        let clusters = Set(shaped.map(\.cluster)).count
        let extraPerCluster = clusters > 0 ? letterSpacing / Double(clusters) : 0
        var pen = x
        var lastCluster: UInt32? = nil
        for s in shaped {
            if let last = lastCluster, last != s.cluster { pen += extraPerCluster }
            lastCluster = s.cluster
            out.append(PlacedGlyph(
                face: FontFace(font), glyph: s.id, x: pen + Double(s.xOffset) * k,
                baseline: baseline - Double(s.yOffset) * k, scale: k, isEllipsis: isEllipsis, color: style.color,
                skew: synthetic.skew, emboldening: synthetic.emboldening))
            pen += Double(s.advance) * k
        }
        x += width
    }
}
