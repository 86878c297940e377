/// Which style fields go into which fingerprint: the one place that decides it.
///
/// A style's stored properties are each either encoded here (into the shaping or the layout
/// fingerprint) or listed in ``layoutNeutral`` with the reason they cannot change a size or a
/// line break. `StyleKeySchemaTests` walks the style types with `Mirror` and fails on a
/// property that is neither, so a new field cannot silently share keys.
///
/// The field functions are generic over a ``StyleFieldSink`` so that the same code that
/// hashes the fields also names them for that test.
enum StyleKeySchema {
    /// Fields that change shaping, and so prepared texts and segment advances.
    @inline(__always)
    static func shapingFields(_ s: SanitizedStyle, into sink: inout some StyleFieldSink) {
        sink.field("font.families", s.font.families)
        sink.field("font.size", s.font.size)
        sink.field("font.weight", s.font.weight)
        sink.field("font.italic", s.font.italic)
        sink.field("font.width", s.font.width)
        sink.field("font.features", s.font.features)
        sink.field("font.variations", s.font.variations)
        sink.field("font.opticalSizing", s.font.opticalSizing)
        sink.field("letterSpacing", s.letterSpacing)
        sink.field("wordSpacing", s.wordSpacing)
        sink.field("compatibility", s.compatibility)
        // Hyphenation points are found when the text is prepared.
        sink.field("hyphenation", s.hyphenation)
        sink.field("hyphenationLanguage", OptionalKey(s.hyphenationLanguage))
        // CSS breaking options change the break opportunities the preparer marks.
        sink.field("lineBreak", s.lineBreak)
        sink.field("wordBreak", s.wordBreak)
        sink.field("breakLocale", OptionalKey(s.conventions.breakLocale))
        // The token is prepared with the text (its widths and fonts), so it is shaping input.
        sink.field("truncationToken", OptionalKey(s.truncationToken))
    }

    /// Fields that change line breaking and heights but not shaping, normalised so that
    /// settings which cannot change a layout do not split keys: truncation modes and
    /// `truncatesLastVisibleLine` only matter when something can be cut (maxLines or a height
    /// limit); character wrapping does not matter without `usesLineFragmentOrigin`.
    @inline(__always)
    static func layoutFields(_ s: SanitizedStyle, into sink: inout some StyleFieldSink) {
        let canCut = s.maxLines > 0 || s.heightLimit.isFinite
        var mode = s.lineBreakMode
        var options = s.options
        if !canCut {
            if mode != .charWrapping { mode = .wordWrapping }
            options.remove(.truncatesLastVisibleLine)
        }
        if !options.contains(.usesLineFragmentOrigin) && mode == .charWrapping { mode = .wordWrapping }
        sink.field("lineSpacing", s.lineSpacing)
        sink.field("minimumLineHeight", s.minimumLineHeight)
        sink.field("maximumLineHeight", s.maximumLineHeight)
        sink.field("lineHeightMultiple", s.lineHeightMultiple)
        sink.field("paragraphSpacing", s.paragraphSpacing)
        sink.field("paragraphSpacingBefore", s.paragraphSpacingBefore)
        sink.field("tabInterval", s.tabInterval)
        sink.field("tabStops", s.tabStops)
        sink.field("tabSize", TabSizeKey(s.tabSize))
        sink.field("maxLines", s.maxLines)
        sink.field("lineBreakMode", mode)
        sink.field("options", options)
        sink.field("heightLimit", s.heightLimit.isFinite ? s.heightLimit : -1)
        sink.field("lineHeightEm", s.lineHeightEm)
        sink.field("firstLineHeadIndent", s.firstLineHeadIndent)
        sink.field("headIndent", s.headIndent)
        sink.field("tailIndent", s.tailIndent)
        sink.field("indentEachLine", s.indentEachLine)
        sink.field("hyphenationFactor", s.hyphenation == .auto ? s.hyphenationFactor : 1)
        // `anywhere` breaks lines as `break-word` does (they differ in min-content only).
        sink.field("overflowWrap", s.overflowWrap == .normal)
        sink.field("balancesLines", s.balancesLines)
    }

    /// Stored properties of `TextStyle`, `FontDescriptor` and `SanitizedStyle` (by name; a
    /// nested property as `font.size`) that are deliberately in no key, with the reason.
    static let layoutNeutral: [String: String] = [
        "alignment": "moves lines inside the box; never changes a line break, a line count or a size",
        "lastLineAlignment": "as alignment, for a paragraph's last line",
        "whiteSpace": "resolved into options (usesLineFragmentOrigin), which are encoded; collapsing only warns",
        "textWrap": "resolved into options (usesLineFragmentOrigin) and balancesLines, which are encoded; pretty only warns",
        "balanceSpaceWidth": "a space of the primary font at the size: the fonts (salt) and font fields are encoded",
        "lineClamp": "resolved into maxLines and lineBreakMode, which are encoded",
        "conventions": "resolved from compatibility, lineBreak and wordBreak, which are encoded (and breakLocale)",
        "language": "read as hyphenationLanguage (encoded when it has a dictionary) and as breakLocale (encoded)",
    ]
}

/// Receives the named fields of a style fingerprint: ``KeyEncoder`` hashes them; tests
/// record their names.
protocol StyleFieldSink {
    /// One field: `name` is the stored property's path (`font.size`), `value` what is encoded.
    mutating func field(_ name: StaticString, _ value: some KeyEncodable)
}

extension KeyEncoder: StyleFieldSink {
    /// Encodes the value; the name is only for tests.
    @inline(__always)
    mutating func field(_ name: StaticString, _ value: some KeyEncodable) { append(value) }
}

/// A stop's location and alignment (stable codes).
extension TabRuler.Stop: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(location.bitPattern)
        let code: UInt64
        switch alignment {
        case .left: code = 0
        case .right: code = 1
        case .center: code = 2
        case .decimal: code = 3
        }
        e.append(code)
    }
}

/// `SanitizedStyle.tabSize` as two words: its kind (0: unset, 1: spaces, 2: a length) and its
/// number.
struct TabSizeKey: KeyEncodable {
    let size: TabSize?
    init(_ size: TabSize?) { self.size = size }
    func encode(into e: inout KeyEncoder) {
        switch size {
        case nil: (e.append(UInt64(0)), e.append(UInt64(0)))
        case .spaces(let n)?: (e.append(UInt64(1)), e.append(n.bitPattern))
        case .length(let n)?: (e.append(UInt64(2)), e.append(n.bitPattern))
        }
    }
}

/// Stable codes.
extension Hyphenation: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        let code: UInt64
        switch self {
        case .none: code = 0
        case .manual: code = 1
        case .auto: code = 2
        }
        e.append(code)
    }
}

/// Stable codes.
extension LineBreakStrictness: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        let code: UInt64 = switch self {
        case .auto: 0
        case .loose: 1
        case .normal: 2
        case .strict: 3
        case .anywhere: 4
        }
        e.append(code)
    }
}

/// Stable codes.
extension WordBreak: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        let code: UInt64 = switch self {
        case .normal: 0
        case .breakAll: 1
        case .keepAll: 2
        }
        e.append(code)
    }
}

/// The whole option set as its raw bits: a new option is encoded without a decision.
extension DrawingOptions: KeyEncodable {
    @inline(__always) func encode(into e: inout KeyEncoder) { e.append(UInt64(rawValue)) }
}

/// Stable codes (not the declaration order, so reordering cases changes no key).
extension LineBreakMode: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        let code: UInt64
        switch self {
        case .wordWrapping: code = 0
        case .charWrapping: code = 1
        case .clipping: code = 2
        case .truncatingHead: code = 3
        case .truncatingMiddle: code = 4
        case .truncatingTail: code = 5
        }
        e.append(code)
    }
}

/// The profile itself, not the knobs it resolves to: two profiles never share a key even if
/// their knobs happen to agree.
extension Compatibility: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        let code: UInt64
        switch self {
        case .standard: code = 0
        case .pango: code = 1
        case .chromium: code = 2
        }
        e.append(code)
    }
}

/// An optional value: a presence word, then the value.
struct OptionalKey<Wrapped: KeyEncodable>: KeyEncodable {
    let value: Wrapped?
    init(_ value: Wrapped?) { self.value = value }
    func encode(into e: inout KeyEncoder) {
        if let value {
            e.append(UInt64(1))
            e.append(value)
        } else {
            e.append(UInt64(0))
        }
    }
}

/// The text, then every run: its end, its layout attributes (colour excluded), its box's
/// numbers (the id excluded). Drawing-only fields never split keys.
extension AttributedText: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(string)
        e.append(runs.count)
        for run in runs {
            e.append(run.utf8Range.upperBound)
            e.append(run.attributes)
            e.append(OptionalKey(run.inlineBox))
        }
    }
}

/// Every layout attribute; `color` is drawing only.
extension TextAttributes: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(OptionalKey(families))
        e.append(OptionalKey(size))
        e.append(OptionalKey(weight))
        e.append(OptionalKey(italic))
        e.append(OptionalKey(letterSpacing))
        e.append(baselineOffset)
        e.append(OptionalKey(width))
        e.append(OptionalKey(features))
        e.append(OptionalKey(variations))
        e.append(OptionalKey(language))
    }
}

/// The tag and the value.
extension FontFeature: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(tag)
        e.append(value)
    }
}

/// The tag and the value.
extension FontVariation: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(tag)
        e.append(value)
    }
}

/// Width, height and offset; the caller's `id` is not layout.
extension InlineBox: KeyEncodable {
    func encode(into e: inout KeyEncoder) {
        e.append(width)
        e.append(height)
        e.append(baselineOffset)
    }
}
