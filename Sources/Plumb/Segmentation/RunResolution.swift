/// An attributed text's runs resolved for the preparer: each run's font fields over the
/// style's, its cascade (cached by the resolver per distinct font), its numbers made usable
/// with a warning each (`Sanitizer`'s limits), and each inline box's numbers.
///
/// - Thread safety: stateless; safe from any thread.
enum RunResolution {
    /// Every run of `text` resolved (`run(_:fonts:base:font:warnings:)`), with its end and its
    /// box's numbers.
    static func runs(
        of text: AttributedText, fonts: FontResolver, base: PreparationRun, font: FontDescriptor,
        warnings: inout [MeasureWarning]
    ) -> [PreparationRun] {
        text.runs.map { textRun in
            var r = Self.run(textRun.attributes, fonts: fonts, base: base, font: font, warnings: &warnings)
            r.byteEnd = textRun.utf8Range.upperBound
            if let inline = textRun.inlineBox { r.box = Self.box(inline, warnings: &warnings) }
            return r
        }
    }

    /// One run's fonts and numbers: the style's (`base`, `font`), overridden by the set
    /// attributes.
    static func run(
        _ a: TextAttributes, fonts: FontResolver, base: PreparationRun, font styleFont: FontDescriptor,
        warnings: inout [MeasureWarning]
    ) -> PreparationRun {
        var run = base
        run.language = a.language.map { String($0.trimmingCSSSpaces) }
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
    static func box(_ box: InlineBox, warnings: inout [MeasureWarning]) -> InlineBoxMetrics {
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
