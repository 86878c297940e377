/// What the full pipeline gives for one cell: sanitize → fonts → prepare → break → heights → grid.
struct PipelineResult: Sendable {
    var measurement: TextMeasurement
    var layout: AssembledLayout?
    var prepared: PreparedText?
    var exactHeight: Double
    var scale: Double
    var fontSize: Double = 0
    /// Where the text's tabs stop (geometry: the breaker has placed them).
    var tabs = TabRuler.every(TextStyle.defaultTabInterval)
    /// The width lines were broken at, and where they sit in it (geometry only).
    var layoutWidth: LayoutWidth = .unmeasurable
    var alignment: TextAlignment = .natural
    /// The alignment of each paragraph's last line (`TextStyle.resolvedLastLineAlignment`).
    var lastLineAlignment: TextAlignment = .natural
    /// Per line, how it is stretched when justified (empty when no line is).
    var justifications: [LineJustification?] = []
    /// Where lines start and end in the box (geometry: the breaker has applied them).
    var indents = LineIndents.none
    /// The truncation token's text when the layout is truncated (its boxes are placed).
    var token: AttributedText? = nil
}

extension TextMeasurer {
    func compute(
        _ text: String, style: ResolvedStyle, width: Double, scale: Double,
        extraWarnings: [MeasureWarning], textKey: CacheKey? = nil, needsLines: Bool = true,
        content: RichContent? = nil
    ) -> PipelineResult {
        var warnings = extraWarnings.isEmpty ? style.warnings : style.warnings + extraWarnings
        if let content, !content.warnings.isEmpty { warnings += content.warnings }
        let s = style.sanitized
        let scale = Sanitizer.scale(scale, warnings: &warnings)
        let layoutWidth = PixelGrid.snap(
            Sanitizer.width(width, warnings: &warnings), scale: scale, unit: s.conventions.widthUnit)
        let grid = PixelGrid(scale: scale)
        let cascade = style.cascade

        if text.isEmpty {
            return PipelineResult(
                measurement: TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: warnings),
                layout: nil, prepared: nil, exactHeight: 0, scale: scale, layoutWidth: layoutWidth)
        }
        let byteCount = text.utf8.count
        if byteCount > configuration.maximumTextBytes {
            warnings.append(.textTooLong(bytes: byteCount, limit: configuration.maximumTextBytes))
        }
        if layoutWidth == .unmeasurable || byteCount > configuration.maximumTextBytes {
            let h = fallbackHeight(cascade: cascade, style: s)
            return PipelineResult(
                measurement: TextMeasurement(
                    size: Size(width: 0, height: grid.ceil(h)), lineCount: 0, isTruncated: false,
                    warnings: warnings),
                layout: nil, prepared: nil, exactHeight: h, scale: scale)
        }
        var utf8Text = text
        return utf8Text.withUTF8 { utf8 in
            do {
                if let mode = style.style.whiteSpace, let w = Sanitizer.whiteSpaceWarning(mode, utf8) { warnings.append(w) }
                let prepared = preparedText(utf8, style: style, textKey: content?.key ?? textKey, content: content)
                let deviceMetrics = s.options.contains(.usesDeviceMetrics)
                var layout = LayoutAssembler.assemble(
                    prepared, style: s, width: layoutWidth, scale: scale, needsLines: needsLines || deviceMetrics)
                if !layout.warnings.isEmpty { warnings.append(contentsOf: layout.warnings) }
                if prepared.missingGlyphClusters > 0 {
                    warnings.append(.missingGlyphs(count: prepared.missingGlyphClusters))
                }
                var height = layout.height
                if s.options.contains(.usesDeviceMetrics) {
                    height = pool.withPreparer { preparer in
                        inkHeight(layout, prepared: prepared, utf8: utf8, size: s.font.size, preparer: preparer)
                    }
                }
                if !height.isFinite || !layout.widestLine.isFinite {
                    // Cannot happen with sanitised input; never let a non-finite number out.
                    warnings.append(.invalidValue(field: "layout", description: "non-finite result; used the fallback height"))
                    height = fallbackHeight(cascade: cascade, style: s)
                    layout.widestLine = 0
                }
                let size = Size(width: grid.ceil(layout.widestLine), height: grid.ceil(height))
                var result = PipelineResult(
                    measurement: TextMeasurement(
                        size: size, lineCount: layout.lineCount, isTruncated: layout.isTruncated,
                        warnings: warnings),
                    layout: layout, prepared: prepared, exactHeight: height, scale: scale,
                    fontSize: s.font.size, tabs: s.tabs.ruler(spaceWidth: prepared.tabFacts?.spaceWidth ?? 0),
                    layoutWidth: layoutWidth,
                    alignment: style.style.alignment, lastLineAlignment: style.style.resolvedLastLineAlignment,
                    indents: s.indents, token: layout.isTruncated ? style.style.truncationToken : nil)
                if needsLines && style.style.justifiesLines {
                    result.justifications = Self.justifications(result, utf8, rule: s.conventions.justification)
                }
                return result
            }
        }
    }

    /// The cached path's miss for a plain cell whose keys `k` are known (e.g. a re-layout at
    /// a new width): `compute(text, style:, width:, scale:, extraWarnings: [], textKey: k.text,
    /// needsLines: false)`'s measurement by the same steps in the same order, so the same
    /// bits, without `compute`'s general result (no copy of the style, the text or the
    /// warnings; no line arrays), cached as the general path caches it (`range`: the
    /// width-range entry found). `nil` where `compute` must answer: device metrics, a text
    /// over the size limit, a non-finite result, text without contiguous UTF-8.
    ///
    /// The keys already checked what `compute` sanitises: `k.scale` is within the scale
    /// limits (no warning), the width is positive (no warning) and `k.layoutWidth` is its
    /// snapped value (∞ stays unconstrained).
    ///
    /// - Complexity: O(words + lines) when tier 1 holds the prepared text (arithmetic only).
    func measureCell(_ text: String, style: ResolvedStyle, keys k: CellKeys, range: CachedResult?) -> TextMeasurement? {
        // A white-space mode that may warn about the text is `compute`'s to answer.
        guard !style.sanitized.options.contains(.usesDeviceMetrics),
            text.utf8.count <= configuration.maximumTextBytes,
            style.style.whiteSpace.map({ $0 == .pre || $0 == .preWrap }) ?? true
        else { return nil }
        let width: LayoutWidth = k.layoutWidth == .infinity ? .unconstrained : .points(k.layoutWidth)
        // A streamed layout at the default scale borrows the style's line-height model and
        // reads its breaking settings here (no model built, no copy of the style).
        let measured = text.utf8.withContiguousStorageIfAvailable { utf8 -> TextMeasurement? in
            let prepared = preparedText(utf8, style: style, textKey: k.text, content: nil)
            let layout = k.scale == ResolvedStyle.defaultScale && LayoutAssembler.streams(style.sanitized)
                ? withUnsafePointer(to: style.lineHeights) {
                    LayoutAssembler.measureStreamed(
                        prepared, breaking: LayoutAssembler.BreakSettings(style.sanitized), model: $0, width: width)
                }
                : LayoutAssembler.measure(prepared, style: style.sanitized, width: width, scale: k.scale)
            guard layout.height.isFinite, layout.widestLine.isFinite else { return nil }
            let m = Self.measurement(layout, prepared: prepared, style: style, scale: k.scale)
            // As the general path: a cell with warnings of its own is not cached.
            if m.warningCount == style.warnings.count,
                let cached = Self.cached(
                    m, brokeInsideWord: layout.brokeInsideWord || style.sanitized.balancesLines,
                    widestLine: layout.widestLine, layoutWidth: k.layoutWidth, scale: k.scale)
            {
                insert(cached, keys: k.keys, range: range, style: style.layoutFingerprint)
            }
            return m
        }
        return measured ?? nil
    }

    /// `compute`'s measurement of a finite layout summary.
    @inline(__always)
    private static func measurement(
        _ layout: LayoutAssembler.Summary, prepared: PreparedText, style: ResolvedStyle, scale: Double
    ) -> TextMeasurement {
        let grid = PixelGrid(scale: scale)
        let size = Size(width: grid.ceil(layout.widestLine), height: grid.ceil(layout.height))
        // `compute`'s warnings, in its order: the style's, the layout's, missing glyphs.
        if style.warnings.isEmpty && layout.warnings == nil && prepared.missingGlyphClusters == 0 {
            return TextMeasurement(size: size, lineCount: layout.lineCount, isTruncated: layout.isTruncated, warnings: [])
        }
        var warnings = style.warnings
        if let own = layout.warnings { warnings.append(contentsOf: own) }
        if prepared.missingGlyphClusters > 0 { warnings.append(.missingGlyphs(count: prepared.missingGlyphClusters)) }
        return TextMeasurement(size: size, lineCount: layout.lineCount, isTruncated: layout.isTruncated, warnings: warnings)
    }

    /// The width-independent preparation of a text, from tier 1 when it was seen before.
    ///
    /// A worker's `TextPreparer` (ICU iterators, HarfBuzz buffer) is taken only on a miss.
    /// Not inlined into `compute`: inlined, its miss path's closures cost the hit path
    /// reference counting (callgrind: +35 `swift_release_n` per re-layout).
    @inline(never)
    private func preparedText(
        _ utf8: UnsafeBufferPointer<UInt8>, style: ResolvedStyle, textKey: CacheKey?, content: RichContent?
    ) -> PreparedText {
        var e = KeyEncoder(.preparedText)
        e.append(textKey ?? CacheKey(bytes: UnsafeRawBufferPointer(utf8)))
        e.append(style.shapingFingerprint)
        let key = e.key
        if let hit = preparedCache.value(for: key) { return hit }
        let s = style.sanitized
        let prepared = pool.withPreparer { preparer in
            if let content {
                return preparer.prepare(
                    utf8, runs: content.runs, ellipsis: content.ellipsis, token: style.token, conventions: s.conventions,
                    hyphenation: s.hyphenationRequest, wordSpacing: s.wordSpacing)
            }
            if let token = style.token {
                let run = PreparationRun(
                    byteEnd: utf8.count, cascade: style.cascade, size: s.font.size, letterSpacing: s.letterSpacing)
                return preparer.prepare(
                    utf8, runs: [run], ellipsis: run, token: token, conventions: s.conventions, hyphenation: s.hyphenationRequest,
                    wordSpacing: s.wordSpacing)
            }
            return preparer.prepare(
                utf8, cascade: style.cascade, size: s.font.size, letterSpacing: s.letterSpacing, wordSpacing: s.wordSpacing,
                conventions: s.conventions, hyphenation: s.hyphenationRequest)
        }
        preparedCache.insert(prepared, for: key, admitWhenFull: preparedAdmission.seenBefore)
        return prepared
    }

    /// One line of the style's primary font, with the line-height rules applied.
    func fallbackHeight(cascade: ResolvedCascade, style: SanitizedStyle) -> Double {
        switch configuration.unmeasurableHeight {
        case .points(let p): return p.isFinite && p > 0 ? p : 0
        case .oneLine:
            let model = LineHeightModel(style: style)
            // A fixed Blink height does not depend on the fonts (at scale 1 here).
            if model.blinkFixedUnits > 0 { return Double(model.blinkFixedUnits) / Double(BlinkLineBox.unitsPerPixel) }
            let m = cascade.primary.metrics
            let size = style.font.size
            return model.oneLineHeight(
                ascender: m.ascender(atSize: size), withLeading: m.lineHeight(atSize: size, includingLeading: true),
                withoutLeading: m.lineHeight(atSize: size, includingLeading: false), size: size)
        }
    }

    /// The height of the union of the glyph ink bounds of all lines (device metrics).
    private func inkHeight(
        _ layout: AssembledLayout, prepared: PreparedText, utf8: UnsafeBufferPointer<UInt8>,
        size: Double, preparer: TextPreparer
    ) -> Double {
        var minY = Double.infinity
        var maxY = -Double.infinity
        for line in layout.lines {
            let baseline = line.y + line.baselineOffset
            var ranges: [Range<Int32>] = []
            if let t = line.truncation {
                ranges = [line.broken.graphemeStart..<t.headEnd, t.tailStart..<t.tailEnd]
            } else {
                ranges = [line.broken.graphemeStart..<line.broken.graphemeEnd]
            }
            for r in ranges where !r.isEmpty {
                if let ink = preparer.inkBounds(utf8, prepared: prepared, graphemes: r, size: size) {
                    minY = min(minY, baseline - ink.top)
                    maxY = max(maxY, baseline - ink.bottom)
                }
            }
            if line.truncation != nil, let ink = preparer.ellipsisInk(prepared: prepared, size: size) {
                minY = min(minY, baseline - ink.top)
                maxY = max(maxY, baseline - ink.bottom)
            }
        }
        return minY.isFinite ? max(0, maxY - minY) : 0
    }

    /// Turns a pipeline result into public geometry (string indexes, scalar offsets, rects).
    func makeLayout(_ text: String, _ r: PipelineResult, boxes: [(utf8Offset: Int, box: InlineBox)] = []) -> TextLayout {
        guard let layout = r.layout, let prepared = r.prepared else {
            return TextLayout(text: text, measurement: r.measurement, lines: [], exactHeight: r.exactHeight, scale: r.scale)
        }
        let utf8 = text.utf8
        var scalarCounter = ScalarCounter(text: text)
        func index(_ byte: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: byte) }
        func byteStart(_ broken: BrokenLine) -> Int {
            broken.graphemeStart < broken.graphemeEnd
                ? Int(prepared.graphemeStarts[Int(broken.graphemeStart)])
                : Int(prepared.paragraphs[Int(broken.paragraph)].byteStart)
        }
        func byteOffset(ofGrapheme g: Int32, paragraph: Int32) -> Int {
            let p = prepared.paragraphs[Int(paragraph)]
            return g < p.graphemeEnd ? Int(prepared.graphemeStarts[Int(g)]) : Int(p.byteEnd)
        }
        let boxWidth = r.boxWidth(layout)
        let lines = layout.lines.enumerated().map { (i, line) -> LayoutLine in
            let start = byteStart(line.broken)
            let end = line.broken.graphemeStart < line.broken.graphemeEnd
                ? Int(prepared.graphemeEnds[Int(line.broken.graphemeEnd - 1)]) : start
            let (scalarStart, utf16Start) = scalarCounter.offsets(upTo: start)
            let (scalarEnd, utf16End) = scalarCounter.offsets(upTo: end)
            var truncation: LineTruncation? = nil
            if let t = line.truncation {
                let headEnd = byteOffset(ofGrapheme: t.headEnd, paragraph: line.broken.paragraph)
                let tailStart = byteOffset(ofGrapheme: t.tailStart, paragraph: line.broken.paragraph)
                let tailEnd = t.tailEnd > t.tailStart
                    ? Int(prepared.graphemeEnds[Int(t.tailEnd - 1)]) : tailStart
                truncation = LineTruncation(
                    placement: t.placement, head: index(start)..<index(max(start, headEnd)),
                    tail: index(tailStart)..<index(max(tailStart, tailEnd)), ellipsisWidth: t.ellipsisWidth)
            }
            let direction = prepared.paragraphs[Int(line.broken.paragraph)].direction
            let stretch = r.justification(ofLine: i)?.width ?? 0
            let x = Self.lineX(line.broken, prepared, r, box: boxWidth, direction: direction, stretch: stretch)
            return LayoutLine(
                range: index(start)..<index(end), scalarRange: scalarStart..<scalarEnd,
                utf8Range: start..<end, utf16Range: utf16Start..<utf16End,
                rect: Rect(x: x, y: line.y, width: line.broken.usedWidth + stretch, height: line.height),
                usedWidth: line.broken.usedWidth, hangingWidth: line.broken.hangingWidth,
                baseline: line.y + line.baselineOffset, naturalHeight: line.naturalHeight,
                gapAfter: line.gapAfter, endsParagraph: line.broken.endsParagraph,
                direction: direction, truncation: truncation, hyphenWidth: line.broken.hyphenWidth,
                justificationWidth: stretch)
        }
        var result = TextLayout(text: text, measurement: r.measurement, lines: lines, exactHeight: r.exactHeight, scale: r.scale)
        let visual = Self.mixedDirectionLines(text, r, lines: lines)
        if !boxes.isEmpty {
            result.inlineBoxes = Self.placeBoxes(
                boxes, in: text, layout: layout, lines: lines, prepared: prepared, tabs: r.tabs, visual: visual,
                justifications: r.justifications)
        }
        result.caretMap = Self.caretMap(
            layout: layout, lines: lines, prepared: prepared, tabs: r.tabs, visual: visual, justifications: r.justifications)
        if layout.isTruncated {
            result.truncationToken = Self.placeToken(
                layout: layout, lines: lines, prepared: prepared, tabs: r.tabs, token: r.token, visual: visual)
        }
        return result
    }
}

extension TextMeasurer {
    /// A line's x in a box `box` wide: aligned between its start and end under `r`'s
    /// indents (measured from the right in a right-to-left paragraph); `stretch` is the width
    /// justification added to it.
    static func lineX(
        _ line: BrokenLine, _ prepared: PreparedText, _ r: PipelineResult, box: Double, direction: TextDirection,
        stretch: Double = 0
    ) -> Double {
        let start = r.indents.start(of: line, in: prepared)
        let end = r.indents.end(box: box)
        let offset = direction == .rightToLeft ? box - end : start
        return offset + TextAlignment.lineX(
            usedWidth: line.usedWidth + stretch, box: max(0, end - start), alignment: r.alignment(of: line, prepared),
            direction: direction)
    }

    /// How each line of `r` is stretched: lines that are not their paragraph's last under
    /// `alignment`, the last ones under `lastLineAlignment`, when it is `.justified`; a
    /// truncated line never (its ellipsis ends it).
    ///
    /// - Complexity: O(graphemes of the justified lines).
    static func justifications(
        _ r: PipelineResult, _ utf8: UnsafeBufferPointer<UInt8>, rule: LayoutConventions.JustifyRule
    ) -> [LineJustification?] {
        guard let layout = r.layout, let prepared = r.prepared else { return [] }
        let box = r.boxWidth(layout)
        return layout.lines.map { line in
            guard line.truncation == nil, r.alignment(of: line.broken, prepared) == .justified else { return nil }
            let available = r.indents.width(box: box, start: r.indents.start(of: line.broken, in: prepared))
            return LineJustification(line.broken, prepared, utf8, available: available, rule: rule)
        }
    }
}

extension PipelineResult {
    /// The alignment of `line`: a paragraph's last line (or one ending at a mandatory break)
    /// takes `lastLineAlignment`.
    func alignment(of line: BrokenLine, _ prepared: PreparedText) -> TextAlignment {
        let endsAtBreak = line.graphemeEnd > line.graphemeStart
            && prepared.flags[Int(line.graphemeEnd - 1)].contains(.mandatoryBreakAfter)
        return line.endsParagraph || endsAtBreak ? lastLineAlignment : alignment
    }

    /// The box lines are aligned in: the layout width, or the widest line when unconstrained.
    func boxWidth(_ layout: AssembledLayout) -> Double {
        if case .points(let w) = layoutWidth { return w }
        return layout.widestLine
    }

    /// How line `i` is stretched (`nil`: natural width).
    func justification(ofLine i: Int) -> LineJustification? { i < justifications.count ? justifications[i] : nil }
}

/// Counts Unicode scalars and UTF-16 code units up to increasing UTF-8 offsets in one pass.
private struct ScalarCounter {
    let bytes: [UInt8]
    var position = 0
    var count = 0
    var utf16Count = 0

    init(text: String) { bytes = Array(text.utf8) }

    /// Scalars and UTF-16 units in bytes[0..<offset]; offsets should not decrease between
    /// calls, but may repeat or go back (then it recounts from the start).
    mutating func offsets(upTo offset: Int) -> (scalars: Int, utf16: Int) {
        if offset < position { position = 0; count = 0; utf16Count = 0 }
        while position < offset && position < bytes.count {
            let byte = bytes[position]
            if byte & 0xC0 != 0x80 {
                count += 1
                // A 4-byte sequence (lead byte 0xF0…) is a scalar outside the BMP: a surrogate pair.
                utf16Count += byte >= 0xF0 ? 2 : 1
            }
            position += 1
        }
        return (count, utf16Count)
    }
}
