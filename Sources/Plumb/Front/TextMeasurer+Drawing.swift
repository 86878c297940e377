extension DrawingSource {
    /// The drawing data of a pipeline result measured in `style`, or `nil` when it has no
    /// lines.
    init?(_ r: PipelineResult, _ style: ResolvedStyle) {
        self.init(r)
        weight = style.sanitized.font.weight
        italic = style.sanitized.font.italic
        synthesis = style.sanitized.conventions.synthesis
    }

    /// The drawing data of a pipeline result, or `nil` when it has no lines (upright, regular,
    /// no synthesis: what placing glyphs for their extents needs).
    init?(_ r: PipelineResult) {
        guard let layout = r.layout, let prepared = r.prepared else { return nil }
        self.prepared = prepared
        fontSize = r.fontSize
        tabs = r.tabs
        lineTabStarts = layout.lines.map { r.tabs.start(of: $0.broken, in: prepared) }
        lineGraphemes = layout.lines.map { line in
            guard let t = line.truncation else { return ([line.broken.graphemeStart..<line.broken.graphemeEnd], false) }
            return ([line.broken.graphemeStart..<t.headEnd, t.tailStart..<t.tailEnd], true)
        }
        lineEllipses = layout.lines.map { line in line.truncation.map { ($0.ellipsisFont, $0.ellipsisWidth) } }
        justifications = r.justifications
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
        Self.drawing(drawingParts(text, style: style, width: width, scale: scale))
    }

    /// The layout, what drawing it needs and its box width (internal: tests check the
    /// drawing order against the source).
    func drawingParts(_ text: String, style: TextStyle, width: Double, scale: Double)
        -> (layout: TextLayout, source: DrawingSource?, boxWidth: Double?)
    {
        let resolved = resolve(style)
        let r = compute(text, style: resolved, width: width, scale: scale, extraWarnings: [])
        var source = DrawingSource(r, resolved)
        source?.tokenRuns = Self.tokenRuns(style, resolved)
        return (makeLayout(text, r), source, Self.boxWidth(r))
    }

    /// Lays out one attributed cell and says what to draw: as `drawing(_:style:width:scale:)`,
    /// with each run placed at its own size, raised by its baseline offset and in its colour
    /// (``PlacedGlyph/color``). Inline boxes are blank advances in `lines`; draw them at
    /// `layout.inlineBoxes`.
    ///
    /// The layout is the one `layout(_: AttributedText, style:width:scale:)` returns; colours
    /// never change it.
    ///
    /// - Complexity: as `layout`, plus O(glyphs) shaping of the drawn lines (not cached) and
    ///   O(log runs) per font run.
    /// - Thread safety: safe from any thread, concurrently.
    public func drawing(_ text: AttributedText, style: TextStyle, width: Double, scale: Double = 2) -> TextDrawing {
        Self.drawing(drawingParts(text, style: style, width: width, scale: scale))
    }

    /// The glyphs of laid-out parts (none for a layout without lines).
    private static func drawing(_ parts: (layout: TextLayout, source: DrawingSource?, boxWidth: Double?)) -> TextDrawing {
        let lines = parts.source.map { GlyphPlacer.glyphs(of: parts.layout, $0) } ?? parts.layout.lines.map { _ in [] }
        return TextDrawing(layout: parts.layout, boxWidth: parts.boxWidth, lines: lines)
    }

    /// The layout of an attributed cell, what drawing it needs (its runs' sizes, offsets and
    /// colours) and its box width.
    func drawingParts(_ text: AttributedText, style: TextStyle, width: Double, scale: Double)
        -> (layout: TextLayout, source: DrawingSource?, boxWidth: Double?)
    {
        let hasColor = text.runs.contains { $0.attributes.color != nil }
        if text.isPlain && !hasColor { return drawingParts(text.string, style: style, width: width, scale: scale) }
        let resolved = resolve(style)
        let r: PipelineResult
        let runs: [DrawingRun]
        if text.isPlain {
            // Measured as the plain string (as `layout` does); only the colours differ.
            r = compute(text.string, style: resolved, width: width, scale: scale, extraWarnings: [])
            runs = text.runs.map {
                DrawingRun(byteEnd: $0.utf8Range.upperBound, size: r.fontSize, baselineOffset: 0, color: $0.attributes.color,
                           weight: resolved.sanitized.font.weight, italic: resolved.sanitized.font.italic)
            }
        } else {
            let content = richContent(text, style: resolved, key: CellKeys.contentKey(text))
            r = compute(text.string, style: resolved, width: width, scale: scale, extraWarnings: [], content: content)
            runs = zip(text.runs, content.runs).map { run, resolvedRun in
                DrawingRun(byteEnd: resolvedRun.byteEnd, size: resolvedRun.size,
                           baselineOffset: resolvedRun.baselineOffset, color: run.attributes.color,
                           weight: resolvedRun.cascade.key.weight, italic: resolvedRun.cascade.key.italic)
            }
        }
        var source = DrawingSource(r, resolved)
        source?.runs = runs
        source?.tokenRuns = Self.tokenRuns(style, resolved)
        return (makeLayout(text.string, r, boxes: text.inlineBoxes), source, Self.boxWidth(r))
    }

    /// The truncation token's runs as drawn: resolved sizes and offsets, the token's colours.
    private static func tokenRuns(_ style: TextStyle, _ resolved: ResolvedStyle) -> [DrawingRun] {
        guard let token = style.truncationToken, let input = resolved.token else { return [] }
        return zip(token.runs, input.runs).map { run, r in
            DrawingRun(byteEnd: r.byteEnd, size: r.size, baselineOffset: r.baselineOffset, color: run.attributes.color,
                       weight: r.cascade.key.weight, italic: r.cascade.key.italic)
        }
    }

    /// The width lines are aligned in (`TextDrawing.boxWidth`).
    private static func boxWidth(_ r: PipelineResult) -> Double? {
        switch r.layoutWidth {
        case .points(let w): return w
        case .unconstrained: return r.layout?.widestLine ?? 0
        case .unmeasurable: return nil
        }
    }
}
