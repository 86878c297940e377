extension DrawingSource {
    /// The drawing data of a computed layout, or `nil` when it has no lines.
    init?(_ r: ComputeResult) {
        guard let layout = r.layout, let prepared = r.prepared else { return nil }
        self.prepared = prepared
        fontSize = r.fontSize
        tabInterval = r.tabInterval
        lineGraphemes = layout.lines.map { line in
            guard let t = line.truncation else { return ([line.box.graphemeStart..<line.box.graphemeEnd], false) }
            return ([line.box.graphemeStart..<t.headEnd, t.tailStart..<t.tailEnd], true)
        }
    }
}

extension TextMeasurer {
    /// Lays out one cell and says what to draw: per line, the glyphs left to right (bidi runs
    /// in visual order, the ellipsis of a truncated line in its place) at the pen positions
    /// the layout measured, so drawing never drifts from the measured lines.
    ///
    /// The layout is the one `layout(_:style:width:scale:)` returns; the glyphs are shaped
    /// again, per run of one font, for their ids and offsets (measuring keeps advances only).
    ///
    /// - Complexity: as `layout`, plus O(glyphs) shaping of the drawn lines (not cached).
    /// - Thread safety: safe from any thread, concurrently.
    public func drawing(_ text: String, style: TextStyle, width: Double, scale: Double = 2) -> TextDrawing {
        let (layout, source, boxWidth) = drawingParts(text, style: style, width: width, scale: scale)
        let lines = source.map { GlyphPlacer.glyphs(of: layout, $0) } ?? layout.lines.map { _ in [] }
        return TextDrawing(layout: layout, boxWidth: boxWidth, lines: lines)
    }

    /// The layout, what drawing it needs and its box width (internal: tests check the
    /// drawing order against the source).
    func drawingParts(_ text: String, style: TextStyle, width: Double, scale: Double)
        -> (layout: TextLayout, source: DrawingSource?, boxWidth: Double?)
    {
        let r = compute(text, style: resolve(style), width: width, scale: scale, extraWarnings: [])
        let boxWidth: Double?
        switch r.layoutWidth {
        case .points(let w): boxWidth = w
        case .unconstrained: boxWidth = r.layout?.widestLine ?? 0
        case .unmeasurable: boxWidth = nil
        }
        return (makeLayout(text, r), DrawingSource(r), boxWidth)
    }
}
