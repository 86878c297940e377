// Equality and hashing of the value types that hold numbers: NaN equals NaN and every NaN
// hashes alike, so `==` is reflexive for any value a caller can build. A style whose
// `lineSpacing` is NaN is a valid input (it is sanitised with a warning); it must be found in a
// `Set`, serve as a dictionary key and equal itself after a `Codable` round trip, as must the
// measurement that carries the warning. Types built only of these (`TextMeasurement`,
// `AttributedText`, the placements) keep their synthesised conformances.
//
// Every stored property is compared and hashed; `ValueEqualityTests` walks each type's
// properties with `Mirror`, so a new field that is left out here fails a test.

extension Double {
    /// `==`, except that NaN equals NaN (any payload, either sign).
    @inline(__always)
    func isSameValue(as other: Double) -> Bool { self == other || (isNaN && other.isNaN) }
}

extension Optional<Double> {
    /// Both `nil`, or both numbers that are the same value (`Double.isSameValue(as:)`).
    @inline(__always)
    func isSameValue(as other: Double?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let a?, let b?): a.isSameValue(as: b)
        default: false
        }
    }
}

extension Hasher {
    /// Feeds `value`, every NaN as the one quiet NaN (so values that are the same hash alike;
    /// 0 and −0 already do).
    @inline(__always)
    mutating func combineValue(_ value: Double) { combine(value.isNaN ? Double.nan : value) }

    /// Feeds an optional number: its presence, then the number as `combineValue(_:)`.
    @inline(__always)
    mutating func combineValue(_ value: Double?) {
        combine(value != nil)
        if let value { combineValue(value) }
    }
}

extension TabStop {
    /// Equal locations (NaN equal to NaN) and alignments.
    public static func == (a: TabStop, b: TabStop) -> Bool {
        a.location.isSameValue(as: b.location) && a.alignment == b.alignment
    }

    /// Hashes the location, every NaN alike, and the alignment.
    public func hash(into hasher: inout Hasher) {
        hasher.combineValue(location)
        hasher.combine(alignment)
    }
}

extension TabSize {
    /// The same kind and number, NaN equal to NaN.
    public static func == (a: TabSize, b: TabSize) -> Bool {
        switch (a, b) {
        case (.spaces(let x), .spaces(let y)), (.length(let x), .length(let y)): x.isSameValue(as: y)
        default: false
        }
    }

    /// Hashes the kind and the number, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .spaces(let n):
            hasher.combine(0)
            hasher.combineValue(n)
        case .length(let n):
            hasher.combine(1)
            hasher.combineValue(n)
        }
    }
}

extension Size {
    /// Equal widths and heights, NaN equal to NaN.
    public static func == (a: Size, b: Size) -> Bool {
        a.width.isSameValue(as: b.width) && a.height.isSameValue(as: b.height)
    }

    /// Hashes the width and height, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combineValue(width)
        hasher.combineValue(height)
    }
}

extension Rect {
    /// Equal origins and sizes, NaN equal to NaN.
    public static func == (a: Rect, b: Rect) -> Bool {
        a.x.isSameValue(as: b.x) && a.y.isSameValue(as: b.y) && a.width.isSameValue(as: b.width)
            && a.height.isSameValue(as: b.height)
    }

    /// Hashes the four numbers, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combineValue(x)
        hasher.combineValue(y)
        hasher.combineValue(width)
        hasher.combineValue(height)
    }
}

extension Point {
    /// Equal coordinates, NaN equal to NaN.
    public static func == (a: Point, b: Point) -> Bool { a.x.isSameValue(as: b.x) && a.y.isSameValue(as: b.y) }

    /// Hashes both coordinates, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combineValue(x)
        hasher.combineValue(y)
    }
}

extension FontDescriptor {
    /// Equal cascades, weights and slants, and sizes that are the same value (NaN equal to NaN).
    public static func == (a: FontDescriptor, b: FontDescriptor) -> Bool {
        a.families == b.families && a.size.isSameValue(as: b.size) && a.weight == b.weight && a.italic == b.italic
            && a.width.isSameValue(as: b.width) && a.features == b.features && a.variations == b.variations
            && a.opticalSizing == b.opticalSizing
    }

    /// Hashes every field, a NaN size or width as any other NaN.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(families)
        hasher.combineValue(size)
        hasher.combine(weight)
        hasher.combine(italic)
        hasher.combineValue(width)
        hasher.combine(features)
        hasher.combine(variations)
        hasher.combine(opticalSizing)
    }
}

extension FontVariation {
    /// Equal tags and values, NaN equal to NaN.
    public static func == (a: FontVariation, b: FontVariation) -> Bool {
        a.tag == b.tag && a.value.isSameValue(as: b.value)
    }

    /// Hashes the tag and the value, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tag)
        hasher.combineValue(value)
    }
}

extension TextStyle {
    /// Every field equal, numbers compared with NaN equal to NaN.
    public static func == (a: TextStyle, b: TextStyle) -> Bool {
        a.font == b.font && a.lineSpacing.isSameValue(as: b.lineSpacing)
            && a.minimumLineHeight.isSameValue(as: b.minimumLineHeight)
            && a.maximumLineHeight.isSameValue(as: b.maximumLineHeight)
            && a.lineHeightMultiple.isSameValue(as: b.lineHeightMultiple) && a.lineHeightEm.isSameValue(as: b.lineHeightEm)
            && a.paragraphSpacing.isSameValue(as: b.paragraphSpacing)
            && a.paragraphSpacingBefore.isSameValue(as: b.paragraphSpacingBefore)
            && a.letterSpacing.isSameValue(as: b.letterSpacing) && a.tabInterval.isSameValue(as: b.tabInterval)
            && a.wordSpacing.isSameValue(as: b.wordSpacing)
            && a.tabStops == b.tabStops && a.tabSize == b.tabSize
            && a.heightLimit.isSameValue(as: b.heightLimit) && a.maxLines == b.maxLines
            && a.lineBreakMode == b.lineBreakMode && a.options == b.options && a.compatibility == b.compatibility
            && a.alignment == b.alignment && a.lastLineAlignment == b.lastLineAlignment
            && a.whiteSpace == b.whiteSpace && a.wordBreak == b.wordBreak && a.overflowWrap == b.overflowWrap
            && a.lineBreak == b.lineBreak && a.textWrap == b.textWrap && a.lineClamp == b.lineClamp
            && a.truncationToken == b.truncationToken
            && a.firstLineHeadIndent.isSameValue(as: b.firstLineHeadIndent) && a.headIndent.isSameValue(as: b.headIndent)
            && a.tailIndent.isSameValue(as: b.tailIndent) && a.indentEachLine == b.indentEachLine
            && a.language == b.language && a.hyphenation == b.hyphenation
            && a.hyphenationFactor.isSameValue(as: b.hyphenationFactor)
    }

    /// Hashes every field, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(font)
        hasher.combineValue(lineSpacing)
        hasher.combineValue(minimumLineHeight)
        hasher.combineValue(maximumLineHeight)
        hasher.combineValue(lineHeightMultiple)
        hasher.combineValue(lineHeightEm)
        hasher.combineValue(paragraphSpacing)
        hasher.combineValue(paragraphSpacingBefore)
        hasher.combineValue(letterSpacing)
        hasher.combineValue(wordSpacing)
        hasher.combineValue(tabInterval)
        hasher.combine(tabStops)
        hasher.combine(tabSize)
        hasher.combineValue(heightLimit)
        hasher.combine(maxLines)
        hasher.combine(lineBreakMode)
        hasher.combine(options)
        hasher.combine(compatibility)
        hasher.combine(alignment)
        hasher.combine(lastLineAlignment)
        hasher.combine(whiteSpace)
        hasher.combine(wordBreak)
        hasher.combine(overflowWrap)
        hasher.combine(lineBreak)
        hasher.combine(textWrap)
        hasher.combine(lineClamp)
        hasher.combine(truncationToken)
        hasher.combineValue(firstLineHeadIndent)
        hasher.combineValue(headIndent)
        hasher.combineValue(tailIndent)
        hasher.combine(indentEachLine)
        hasher.combine(language)
        hasher.combine(hyphenation)
        hasher.combineValue(hyphenationFactor)
    }
}

extension TextAttributes {
    /// Every field equal, numbers compared with NaN equal to NaN.
    public static func == (a: TextAttributes, b: TextAttributes) -> Bool {
        a.families == b.families && a.size.isSameValue(as: b.size) && a.weight == b.weight && a.italic == b.italic
            && a.letterSpacing.isSameValue(as: b.letterSpacing) && a.baselineOffset.isSameValue(as: b.baselineOffset)
            && a.color == b.color && a.width.isSameValue(as: b.width) && a.features == b.features
            && a.variations == b.variations && a.language == b.language
    }

    /// Hashes every field, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(families)
        hasher.combineValue(size)
        hasher.combine(weight)
        hasher.combine(italic)
        hasher.combineValue(letterSpacing)
        hasher.combineValue(baselineOffset)
        hasher.combine(color)
        hasher.combineValue(width)
        hasher.combine(features)
        hasher.combine(variations)
        hasher.combine(language)
    }
}

extension InlineBox {
    /// Equal sizes, offsets and ids, NaN equal to NaN.
    public static func == (a: InlineBox, b: InlineBox) -> Bool {
        a.width.isSameValue(as: b.width) && a.height.isSameValue(as: b.height)
            && a.baselineOffset.isSameValue(as: b.baselineOffset) && a.id == b.id
    }

    /// Hashes every field, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combineValue(width)
        hasher.combineValue(height)
        hasher.combineValue(baselineOffset)
        hasher.combine(id)
    }
}

extension MeasureWarning {
    /// The same case with equal values, the numbers compared with NaN equal to NaN (a warning
    /// about a NaN width equals itself).
    public static func == (a: MeasureWarning, b: MeasureWarning) -> Bool {
        guard a.code == b.code else { return false }
        let (x, y) = (a.values, b.values)
        return x.texts == y.texts && x.counts == y.counts && x.numbers.elementsEqual(y.numbers) { $0.isSameValue(as: $1) }
    }

    /// Hashes the case and its values, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        let v = values
        hasher.combine(v.texts)
        hasher.combine(v.counts)
        for n in v.numbers { hasher.combineValue(n) }
    }

    /// The case's values: its numbers, its counts and its strings.
    private var values: (numbers: [Double], counts: [Int], texts: [String]) {
        switch self {
        case .unmeasurableWidth(let v), .heightLimitBelowFirstLine(let v): ([v], [], [])
        case .invalidFontSize(let v, let r), .invalidScale(let v, let r): ([v, r], [], [])
        case .invalidSpacing(let field, let v): ([v], [], [field])
        case .unknownFontFamily(let f), .cascadeFellBackToDefault(let f): ([], [], [f])
        case .noFontsAvailable, .invalidTextRepaired: ([], [], [])
        case .missingGlyphs(let n): ([], [n], [])
        case .invalidValue(let field, let d): ([], [], [field, d])
        case .textTooLong(let n, let limit): ([], [n, limit], [])
        }
    }
}

extension LineTruncation {
    /// Equal placements and ranges, and ellipsis widths that are the same value.
    public static func == (a: LineTruncation, b: LineTruncation) -> Bool {
        a.placement == b.placement && a.head == b.head && a.tail == b.tail && a.ellipsisWidth.isSameValue(as: b.ellipsisWidth)
    }

    /// Hashes every field, a NaN width as any other NaN.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(placement)
        hasher.combine(head)
        hasher.combine(tail)
        hasher.combineValue(ellipsisWidth)
    }
}

extension LayoutLine {
    /// Every field equal, numbers compared with NaN equal to NaN.
    public static func == (a: LayoutLine, b: LayoutLine) -> Bool {
        a.range == b.range && a.scalarRange == b.scalarRange && a.utf8Range == b.utf8Range && a.utf16Range == b.utf16Range
            && a.rect == b.rect && a.usedWidth.isSameValue(as: b.usedWidth) && a.hangingWidth.isSameValue(as: b.hangingWidth)
            && a.baseline.isSameValue(as: b.baseline) && a.naturalHeight.isSameValue(as: b.naturalHeight)
            && a.gapAfter.isSameValue(as: b.gapAfter) && a.endsParagraph == b.endsParagraph && a.direction == b.direction && a.truncation == b.truncation
            && a.hyphenWidth.isSameValue(as: b.hyphenWidth) && a.justificationWidth.isSameValue(as: b.justificationWidth)
    }

    /// Hashes every field, every NaN alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(range)
        hasher.combine(scalarRange)
        hasher.combine(utf8Range)
        hasher.combine(utf16Range)
        hasher.combine(rect)
        hasher.combineValue(usedWidth)
        hasher.combineValue(hangingWidth)
        hasher.combineValue(baseline)
        hasher.combineValue(naturalHeight)
        hasher.combineValue(gapAfter)
        hasher.combine(endsParagraph)
        hasher.combine(direction)
        hasher.combine(truncation)
        hasher.combineValue(hyphenWidth)
        hasher.combineValue(justificationWidth)
    }
}

extension CaretMap.Cluster {
    /// Equal offsets and lines, extents compared with NaN equal to NaN.
    static func == (a: Self, b: Self) -> Bool {
        a.utf8Start == b.utf8Start && a.utf8End == b.utf8End && a.line == b.line && a.minX.isSameValue(as: b.minX)
            && a.maxX.isSameValue(as: b.maxX)
    }

    /// Hashes every field, every NaN alike.
    func hash(into hasher: inout Hasher) {
        hasher.combine(utf8Start)
        hasher.combine(utf8End)
        hasher.combine(line)
        hasher.combineValue(minX)
        hasher.combineValue(maxX)
    }
}

extension TextLayout: Hashable {
    /// Every field equal, the geometry hit testing reads included (a layout decoded from JSON
    /// equals the one encoded); numbers compared with NaN equal to NaN.
    public static func == (a: TextLayout, b: TextLayout) -> Bool {
        a.text == b.text && a.measurement == b.measurement && a.lines == b.lines
            && a.exactHeight.isSameValue(as: b.exactHeight) && a.scale.isSameValue(as: b.scale)
            && a.inlineBoxes == b.inlineBoxes && a.truncationToken == b.truncationToken && a.caretMap == b.caretMap
            && a.runEnds == b.runEnds
    }

    /// Hashes every field, every NaN alike.
    ///
    /// - Complexity: O(text length + clusters).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(measurement)
        hasher.combine(lines)
        hasher.combineValue(exactHeight)
        hasher.combineValue(scale)
        hasher.combine(inlineBoxes)
        hasher.combine(truncationToken)
        hasher.combine(caretMap)
        hasher.combine(runEnds)
    }
}
