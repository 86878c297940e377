/// Attributed text: runs of character styles and inline boxes in one cell.
///
/// The runs are resolved to fonts here, then the cell goes through the same pipeline as plain
/// text (`compute`), with its runs as the preparer's input and a content key that covers the
/// text, every run end and every layout attribute (a box's id and colours excluded).
extension TextMeasurer {
    /// Measures one attributed cell.
    ///
    /// A text whose runs set nothing that changes a layout (``AttributedText/isPlain``) is
    /// measured exactly as its plain string.
    ///
    /// - Parameters:
    ///   - text: the runs; each run's attributes override `style`'s font fields.
    ///   - style: paragraph settings, drawing options and the default font.
    ///   - width: the layout width in points (as for plain text).
    ///   - scale: device pixels per point.
    /// - Complexity: O(n) in the text plus O(runs) to resolve their fonts (cached per cascade).
    /// - Thread safety: safe from any thread, concurrently.
    public func measure(_ text: AttributedText, style: TextStyle, width: Double, scale: Double = 2)
        -> TextMeasurement
    {
        if text.isPlain { return measure(text.string, style: style, width: width, scale: scale) }
        let resolved = resolve(style)
        let key = CellKeys.contentKey(text)
        // A hit needs only the content key (the runs' attributes as given); their fonts are
        // resolved on a miss. A cell whose runs need repairs is not cached: its warnings are
        // its own.
        var keys = cellKeys(text.string, style: resolved, width: width, scale: scale)
        if let plain = keys { keys = plain.withContent(key, fingerprint: resolved.layoutFingerprint) }
        return measure(text.string, style: resolved, width: width, scale: scale, keys: keys, runs: text)
    }

    /// Measures one attributed cell and returns its geometry, inline boxes included.
    ///
    /// - Complexity: as `measure`, plus O(n) for the geometry.
    /// - Thread safety: safe from any thread, concurrently.
    public func layout(_ text: AttributedText, style: TextStyle, width: Double, scale: Double = 2)
        -> TextLayout
    {
        if text.isPlain { return layout(text.string, style: style, width: width, scale: scale) }
        let resolved = resolve(style)
        let content = richContent(text, style: resolved, key: CellKeys.contentKey(text))
        let r = compute(text.string, style: resolved, width: width, scale: scale, extraWarnings: [], content: content)
        var layout = makeLayout(text.string, r, boxes: text.inlineBoxes)
        layout.runEnds = text.runs.map(\.utf8Range.upperBound)
        return layout
    }

    /// Resolves `text`'s runs against `style`: a cascade per distinct font, sanitized numbers
    /// (with warnings), the content key.
    func richContent(_ text: AttributedText, style: ResolvedStyle, key: CacheKey) -> RichContent {
        var warnings: [MeasureWarning] = []
        let s = style.sanitized
        let base = PreparationRun(byteEnd: 0, cascade: style.cascade, size: s.font.size, letterSpacing: s.letterSpacing)
        var runs = Self.resolveRuns(of: text, fonts: fonts, base: base, font: s.font, warnings: &warnings)
        if runs.isEmpty { runs = [base] }
        return RichContent(
            runs: runs, ellipsis: base, key: key, warnings: warnings)
    }

    /// Every run of `text` resolved (`resolveRun`), with its end and its box's numbers.
    static func resolveRuns(
        of text: AttributedText, fonts: FontResolver, base: PreparationRun, font: FontDescriptor,
        warnings: inout [MeasureWarning]
    ) -> [PreparationRun] {
        text.runs.map { run in
            var r = resolveRun(run.attributes, fonts: fonts, base: base, font: font, warnings: &warnings)
            r.byteEnd = run.utf8Range.upperBound
            if let box = run.inlineBox { r.box = sanitized(box, warnings: &warnings) }
            return r
        }
    }

    /// One run's fonts and numbers: the style's (`base`, `font`), overridden by the set
    /// attributes.
    static func resolveRun(
        _ a: TextAttributes, fonts: FontResolver, base: PreparationRun, font styleFont: FontDescriptor,
        warnings: inout [MeasureWarning]
    ) -> PreparationRun {
        var run = base
        var font = styleFont
        var fontChanged = a.families != nil || a.weight != nil || a.italic != nil || a.width != nil
            || a.features != nil || a.variations != nil
        if let families = a.families, !families.isEmpty { font.families = families }
        if let weight = a.weight { font.weight = Sanitizer.clampedWeight(weight) }
        if let italic = a.italic { font.italic = italic }
        if let width = a.width { font.width = width }
        if let features = a.features { font.features = features }
        if let variations = a.variations { font.variations = variations }
        if fontChanged { Sanitizer.fontInstance(&font, field: "runs.font", warnings: &warnings) }
        if let size = a.size {
            if size.isFinite && size > 0 {
                run.size = min(size, Sanitizer.maximumFontSize)
                // A face with an optical size axis is instantiated per size.
                font.size = run.size
                if base.cascade.hasOpticalSizeAxis && font.opticalSizing { fontChanged = true }
            } else {
                warnings.append(.invalidFontSize(size, replacement: run.size))
            }
        }
        // Lengths as the style's: NaN, ∞ or beyond ±10⁷ pt → 0 with a warning (an offset of
        // 10³⁰⁸ would overflow every position below it).
        if let spacing = a.letterSpacing {
            if spacing.isFinite && abs(spacing) <= Sanitizer.maximumLength {
                run.letterSpacing = spacing
            } else {
                warnings.append(.invalidSpacing(field: "letterSpacing", value: spacing))
            }
        }
        if a.baselineOffset.isFinite && abs(a.baselineOffset) <= Sanitizer.maximumLength {
            run.baselineOffset = a.baselineOffset
        } else {
            warnings.append(.invalidSpacing(field: "baselineOffset", value: a.baselineOffset))
        }
        if fontChanged {
            let cascade = fonts.cascade(for: font, fallback: base.cascade.key.fallback)
            for w in cascade.warnings where !warnings.contains(w) { warnings.append(w) }
            run.cascade = cascade
        }
        return run
    }

    /// A box's numbers made usable: NaN, ∞ or negative sizes → 0, a non-finite offset → 0, each
    /// with a warning (the result is then flagged).
    static func sanitized(_ box: InlineBox, warnings: inout [MeasureWarning]) -> InlineBoxMetrics {
        func size(_ v: Double, _ name: String) -> Double {
            if v.isFinite && v >= 0 && v <= Sanitizer.maximumLength { return v }
            warnings.append(.invalidValue(field: "attachment.\(name)", description: "\(v) is not a usable size; used 0"))
            return 0
        }
        var offset = box.baselineOffset
        if !offset.isFinite || abs(offset) > Sanitizer.maximumLength {
            warnings.append(.invalidValue(field: "attachment.baselineOffset", description: "\(offset) is not a usable offset; used 0"))
            offset = 0
        }
        return InlineBoxMetrics(width: size(box.width, "width"), height: size(box.height, "height"), baselineOffset: offset)
    }
}

/// An attributed cell's runs resolved for the preparer, with its key.
struct RichContent: @unchecked Sendable {  // immutable; ResolvedCascade is shared read-only
    let runs: [PreparationRun]
    /// The run whose font draws "…" (the style's own).
    let ellipsis: PreparationRun
    /// The content key (`CellKeys.contentKey(_:)`: the text and every run's layout attributes).
    let key: CacheKey
    /// Warnings from resolving the runs (repaired numbers, skipped families).
    let warnings: [MeasureWarning]
}

extension ResolvedStyle {
    /// The style's truncation token resolved like a text's runs (`nil` without a token; its
    /// key is `SanitizedStyle.truncationToken`'s encoding in the shaping fingerprint).
    static func resolveToken(
        _ token: AttributedText?, sanitized s: SanitizedStyle, cascade: ResolvedCascade, fonts: FontResolver,
        warnings: inout [MeasureWarning]
    ) -> TokenInput? {
        guard let token, !token.runs.isEmpty else { return nil }
        let base = PreparationRun(byteEnd: 0, cascade: cascade, size: s.font.size, letterSpacing: s.letterSpacing)
        let runs = TextMeasurer.resolveRuns(of: token, fonts: fonts, base: base, font: s.font, warnings: &warnings)
        return TokenInput(utf8: Array(token.string.utf8), runs: runs)
    }
}
