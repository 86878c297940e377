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
        var runs = RunResolution.runs(of: text, fonts: fonts, base: base, font: s.font, warnings: &warnings)
        if runs.isEmpty { runs = [base] }
        // A run's language only matters to `auto`: say once per language it has no dictionary.
        if s.hyphenation == .auto && s.conventions.hyphens.hasDictionaries {
            var warned = Set<String>()
            for language in runs.compactMap(\.language) where !warned.contains(language) {
                warned.insert(language)
                if HyphenationDictionaries.dictionary(for: language) == nil { warnings.append(Sanitizer.noDictionary(for: language)) }
            }
        }
        return RichContent(
            runs: runs, ellipsis: base, key: key, warnings: warnings)
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
