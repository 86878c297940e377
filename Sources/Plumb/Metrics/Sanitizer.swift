/// A style whose every number is usable: finite, in range, with defaults substituted.
struct SanitizedStyle: Hashable, Sendable {
    var font: FontDescriptor
    var lineSpacing: Double
    var minimumLineHeight: Double
    var maximumLineHeight: Double
    var lineHeightMultiple: Double
    /// `TextStyle.lineHeightEm` (0 = unset).
    var lineHeightEm: Double = 0
    var paragraphSpacing: Double
    var paragraphSpacingBefore: Double
    var letterSpacing: Double
    /// `TextStyle.wordSpacing`, finite and within the length limit (else 0, with a warning).
    var wordSpacing = 0.0
    var tabInterval: Double
    var maxLines: Int
    var lineBreakMode: LineBreakMode
    var options: DrawingOptions
    /// `.infinity` when unlimited.
    var heightLimit: Double
    /// The profile, kept for cache keys (it identifies `conventions`).
    var compatibility: Compatibility
    /// The profile resolved into knobs, once, here: what every stage reads.
    var conventions: LayoutConventions
    /// `TextStyle.truncationToken`, as given (its runs are resolved with the fonts).
    var truncationToken: AttributedText?
    /// `TextStyle.firstLineHeadIndent`, `headIndent` and `tailIndent`: finite, within the
    /// profile's rule (`LayoutConventions.IndentRule`), on the layout-unit grid under
    /// layout-unit arithmetic.
    var firstLineHeadIndent = 0.0
    var headIndent = 0.0
    var tailIndent = 0.0
    /// `TextStyle.indentEachLine`, false where the profile indents every paragraph anyway.
    var indentEachLine = false

    /// `TextStyle.tabStops`: ascending, unique, each > 0 and finite; empty where the profile
    /// has none (`LayoutConventions.TabRule.takesTabStops`).
    var tabStops: [TabRuler.Stop] = []
    /// `TextStyle.tabSize`: finite and ≥ 0, or nil (then `tabInterval`).
    var tabSize: TabSize? = nil

    /// `TextStyle.hyphenation` resolved: the profile's default when unset, `auto` for a factor
    /// above 0, `manual` for `auto` where the engine has no dictionaries.
    var hyphenation: Hyphenation = .manual
    /// The language whose dictionary `auto` uses (nil unless `hyphenation` is `auto`; then a
    /// language this machine has a dictionary for).
    var hyphenationLanguage: String? = nil
    /// `TextStyle.hyphenationFactor` in 0...1 (1 where the profile reads no factor).
    var hyphenationFactor = 1.0
    /// CSS `line-break` and `word-break` (resolved into `conventions`; here for the key).
    var lineBreak = LineBreakStrictness.auto
    var wordBreak = WordBreak.normal
    /// CSS `overflow-wrap`: `normal` lets an overlong word overflow its line.
    var overflowWrap = OverflowWrap.breakWord
    /// CSS `text-wrap: balance` where the profile balances (`LayoutConventions.balancesText`).
    var balancesLines = false
    /// With `balancesLines`: a space's advance in the primary font (Blink's `SpaceWidth`,
    /// which its too-long-to-balance estimate counts in; set with the fonts, in
    /// `ResolvedStyle`).
    var balanceSpaceWidth = 0.0

    /// The tabs as the breaker and the geometry read them, once the text's space width is
    /// known (`PreparedText.TabFacts`).
    var tabs: TabSettings {
        TabSettings(
            stops: tabStops, interval: tabInterval, size: tabSize, rule: conventions.tabs, indents: indents,
            letterSpacing: letterSpacing)
    }

    /// The indents as the breaker and the line placement read them.
    var indents: LineIndents {
        LineIndents(
            firstLineStart: firstLineHeadIndent, otherLinesStart: headIndent, tail: tailIndent,
            everyParagraph: conventions.indents == .eachParagraph || indentEachLine)
    }
}

/// The layout width after sanitising.
enum LayoutWidth: Hashable, Sendable {
    /// NaN or ≤ 0: no layout is possible.
    case unmeasurable
    /// +∞: every paragraph is one line (but hard breaks still count).
    case unconstrained
    case points(Double)
}

/// Replaces every unusable number of a request with a safe value and says so.
///
/// Rules: font size NaN/∞/≤ 0 → 17 pt; sizes above 10,000 pt are capped; spacings and line
/// heights NaN/∞/negative → 0; letter spacing NaN/∞ → 0 (negative is allowed); tab interval
/// NaN/∞/≤ 0 → 28; negative maxLines → 0; scale NaN/∞/≤ 0 → 2, otherwise clamped to
/// 0.01...100 (below 0.01 a device pixel is over 100 pt, and every height would snap to a
/// grid line at 0 or beyond); height limit nil/0/∞/> 10⁹ → unlimited, NaN or negative →
/// unlimited with a warning; weight clamped to 1...1000.
enum Sanitizer {
    static let defaultScale = 2.0
    static let minimumScale = 0.01
    static let maximumScale = 100.0
    static let maximumFontSize = 10_000.0
    static let maximumLength = 1e7
    static let unlimitedHeightThreshold = 1e9

    /// The CSS `font-stretch` range (percent).
    static let widthRange = 50.0...200.0
    /// The CSS font weights (`font-weight` 1–1000); others are clamped into it.
    static let weightRange = 1...1000

    /// `weight` clamped into ``weightRange``.
    static func clampedWeight(_ weight: Int) -> Int { min(weightRange.upperBound, max(weightRange.lowerBound, weight)) }

    /// A font's width, features and variations made usable: a width outside 50...200 % (or
    /// not finite) clamped or 100, features and variations with an invalid tag or value
    /// dropped, each with a warning naming `field`.
    static func fontInstance(_ font: inout FontDescriptor, field: String, warnings: inout [MeasureWarning]) {
        if !font.width.isFinite {
            warnings.append(.invalidValue(field: "\(field).width", description: "\(font.width) is not a width; used 100"))
            font.width = FontDescriptor.normalWidth
        } else if !widthRange.contains(font.width) {
            warnings.append(.invalidValue(field: "\(field).width", description: "\(font.width) is outside 50...200; clamped"))
            font.width = min(widthRange.upperBound, max(widthRange.lowerBound, font.width))
        }
        for f in font.features where !f.isValid {
            warnings.append(.invalidValue(field: "\(field).features", description: "\(f) is not an OpenType feature setting; ignored"))
        }
        font.features.removeAll { !$0.isValid }
        for v in font.variations where !v.isValid {
            warnings.append(.invalidValue(field: "\(field).variations", description: "\(v) is not a variation setting; ignored"))
        }
        font.variations.removeAll { !$0.isValid }
    }

    static func style(_ style: TextStyle, warnings: inout [MeasureWarning]) -> SanitizedStyle {
        var font = style.font
        let size = font.size
        if !size.isFinite || size <= 0 {
            font.size = FontDescriptor.defaultSize
            warnings.append(.invalidFontSize(size, replacement: font.size))
        } else if size > maximumFontSize {
            font.size = maximumFontSize
            warnings.append(.invalidFontSize(size, replacement: font.size))
        }
        if !weightRange.contains(font.weight) {
            warnings.append(.invalidValue(field: "weight", description: "\(font.weight) is outside 1...1000; clamped"))
            font.weight = clampedWeight(font.weight)
        }
        fontInstance(&font, field: "font", warnings: &warnings)
        func length(_ value: Double, _ name: String) -> Double {
            if !value.isFinite || value < 0 {
                warnings.append(.invalidSpacing(field: name, value: value))
                return 0
            }
            if value > maximumLength {
                warnings.append(.invalidValue(field: name, description: "\(value) is absurdly large; used \(maximumLength)"))
                return maximumLength
            }
            return value
        }
        /// A spacing as given when finite and within the length limit, else 0 with a warning.
        func spacing(_ value: Double, _ name: String) -> Double {
            guard value.isFinite && abs(value) <= maximumLength else {
                warnings.append(.invalidSpacing(field: name, value: value))
                return 0
            }
            return value
        }
        let letterSpacing = spacing(style.letterSpacing, "letterSpacing")
        var tab = style.tabInterval
        if !tab.isFinite || tab <= 0 || tab > maximumLength {
            warnings.append(.invalidValue(field: "tabInterval", description: "\(tab) is invalid; used 28"))
            tab = TextStyle.defaultTabInterval
        }
        var maxLines = style.maxLines
        if maxLines < 0 {
            warnings.append(.invalidValue(field: "maxLines", description: "\(maxLines) is negative; used 0 (unlimited)"))
            maxLines = 0
        }
        var heightLimit = Double.infinity
        if let h = style.heightLimit {
            if h.isNaN || h < 0 {
                warnings.append(.invalidValue(field: "heightLimit", description: "\(h) is invalid; used no limit"))
            } else if h > 0, h <= unlimitedHeightThreshold {
                heightLimit = h
            }
        }
        var sanitized = SanitizedStyle(
            font: font, lineSpacing: length(style.lineSpacing, "lineSpacing"),
            minimumLineHeight: length(style.minimumLineHeight, "minimumLineHeight"),
            maximumLineHeight: length(style.maximumLineHeight, "maximumLineHeight"),
            lineHeightMultiple: length(style.lineHeightMultiple, "lineHeightMultiple"),
            paragraphSpacing: length(style.paragraphSpacing, "paragraphSpacing"),
            paragraphSpacingBefore: length(style.paragraphSpacingBefore, "paragraphSpacingBefore"),
            letterSpacing: letterSpacing, tabInterval: tab, maxLines: maxLines,
            lineBreakMode: style.lineBreakMode, options: style.options, heightLimit: heightLimit,
            compatibility: style.compatibility, conventions: style.compatibility.conventions,
            truncationToken: style.truncationToken)
        sanitized.lineHeightEm = length(style.lineHeightEm, "lineHeightEm")
        sanitized.wordSpacing = spacing(style.wordSpacing, "wordSpacing")
        indents(style, into: &sanitized, warnings: &warnings)
        tabs(style, into: &sanitized, warnings: &warnings)
        hyphenation(style, into: &sanitized, warnings: &warnings)
        wrapping(style, into: &sanitized, warnings: &warnings)
        return sanitized
    }

    /// The style's CSS wrapping resolved onto what the stages read: `lineClamp` as `maxLines`
    /// with tail truncation, `nowrap` and `pre` (white-space or text-wrap) as lines broken
    /// only at hard breaks, `line-break` as ICU's rules and `word-break` as break tailorings
    /// (the conventions, so the preparer reads them as any rule; their fields are in the
    /// shaping key), `overflow-wrap` as whether overlong words are cut, `text-wrap: balance` as
    /// `balancesLines` where the profile balances. What Plumb does not do is a warning:
    /// `text-wrap: pretty`, and `balance` under a profile whose engine has no such mode
    /// (greedy lines; balancing keeps the line count, so the heights).
    static func wrapping(_ style: TextStyle, into s: inout SanitizedStyle, warnings: inout [MeasureWarning]) {
        if let clamp = style.lineClamp {
            if clamp < 0 {
                warnings.append(.invalidValue(field: "lineClamp", description: "\(clamp) is negative; ignored"))
            } else if clamp > 0 {
                s.maxLines = clamp
                s.lineBreakMode = .truncatingTail
            }
        }
        if style.whiteSpace.map({ !$0.wraps }) == true || style.textWrap == .nowrap {
            s.options.remove(.usesLineFragmentOrigin)
        }
        switch style.lineBreak ?? .auto {
        case .auto: break
        case .loose: s.conventions.breakRules = .cssLineBreakLoose
        case .normal: s.conventions.breakRules = .cssLineBreakNormal
        case .strict: s.conventions.breakRules = .uax14
        case .anywhere: s.conventions.breakTailoring.insert(.everyCluster)
        }
        switch style.wordBreak ?? .normal {
        case .normal: break
        case .breakAll: s.conventions.breakTailoring.insert(.betweenLetters)
        case .keepAll: s.conventions.breakTailoring.insert(.keepsCJKWords)
        }
        s.lineBreak = style.lineBreak ?? .auto
        s.wordBreak = style.wordBreak ?? .normal
        // Only a keyword's rules are tailored per locale (ICU's default rules are the root's);
        // under `auto` only the languages the profile's engine tailors there.
        if s.conventions.breakRules.icuKeyword != nil, let locale = breakLocale(style.language),
            (style.lineBreak ?? .auto) != .auto || s.conventions.tailorsAutoLineBreaking.contains(locale)
        {
            s.conventions.breakLocale = locale
        }
        s.overflowWrap = style.overflowWrap ?? .breakWord
        if style.textWrap == .balance && s.conventions.balancesText && s.options.contains(.usesLineFragmentOrigin) {
            s.balancesLines = true
        } else if let wrap = style.textWrap, wrap == .pretty || (wrap == .balance && !s.conventions.balancesText) {
            warnings.append(.invalidValue(field: "textWrap", description: "\(wrap.rawValue) is not supported; lines are broken greedily (wrap)"))
        }
    }

    /// The ICU locale of `language` (BCP 47) where ICU tailors line breaking under a CSS
    /// `line-break` keyword: Japanese and Chinese (`line_normal_cj`, `line_loose_cj`: breaks
    /// before 〜, ゠ and CJK hyphens); `nil` for any other language, whose rules are the root's.
    static func breakLocale(_ language: String?) -> String? {
        guard let tag = language?.trimmingCSSSpaces.lowercased(), !tag.isEmpty else { return nil }
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? tag
        return ["ja", "zh"].contains(primary) ? primary : nil
    }

    /// The warning for a cell whose white-space mode would collapse something of its text
    /// (see ``WhiteSpace``): Plumb measures it as written. `nil` when there is nothing to
    /// collapse, where the measurement is exact.
    ///
    /// - Complexity: O(bytes).
    static func whiteSpaceWarning(_ mode: WhiteSpace, _ utf8: UnsafeBufferPointer<UInt8>) -> MeasureWarning? {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        func isBreak(_ c: UInt8) -> Bool { c == newline || c == cr }
        let found: Bool
        switch mode {
        case .pre, .preWrap: return nil
        case .breakSpaces: found = utf8.contains(space)
        case .normal, .nowrap, .preLine:
            var previous: UInt8? = nil
            var collapses = false
            for c in utf8 {
                let blank = c == space || c == tab
                if c == tab || (mode != .preLine && isBreak(c))
                    || blank && (previous == nil || previous == space || previous.map(isBreak) == true)
                    || isBreak(c) && previous == space
                {
                    collapses = true
                    break
                }
                previous = c
            }
            found = collapses || previous == space
        }
        guard found else { return nil }
        let what = mode == .breakSpaces ? "spaces are measured hanging (as pre-wrap)" : "spaces and newlines are measured as written, not collapsed"
        return .invalidValue(field: "whiteSpace", description: "\(mode.rawValue) is supported only for text without anything to collapse; \(what)")
    }

    /// The style's hyphenation resolved (see ``SanitizedStyle/hyphenation``): a factor not
    /// finite or outside 0...1 is clamped (NaN: 0), `auto` without a language hyphenates only
    /// at soft hyphens, and `auto` under a profile whose engine has no dictionaries is
    /// `manual`. Each with a warning.
    static func hyphenation(_ style: TextStyle, into s: inout SanitizedStyle, warnings: inout [MeasureWarning]) {
        let rule = s.conventions.hyphens
        var factor = style.hyphenationFactor
        if factor.isNaN || factor < 0 || factor > 1 {
            let used = factor.isNaN ? 0 : min(1, max(0, factor))
            warnings.append(.invalidValue(field: "hyphenationFactor", description: "\(factor) is outside 0...1; used \(used)"))
            factor = used
        }
        var mode = style.hyphenation ?? (factor > 0 ? .auto : rule.defaultMode)
        if mode == .auto && factor == 0 { factor = 1 }
        s.hyphenationFactor = rule.readsFactor ? factor : 1
        if mode == .auto && !rule.hasDictionaries {
            warnings.append(.invalidValue(field: "hyphenation", description: "this profile's engine has no hyphenation dictionaries; used manual"))
            mode = .manual
        }
        if mode == .auto {
            if let language = style.language.map({ String($0.trimmingCSSSpaces) }), !language.isEmpty {
                // Whether this machine has its dictionary is checked where the style is
                // resolved (`ResolvedStyle`: the dictionaries live in the Segmentation stage).
                s.hyphenationLanguage = language
            } else {
                warnings.append(
                    .invalidValue(
                        field: "language", description: "auto needs a language; only soft hyphens and runs with a language break words"))
            }
        }
        s.hyphenation = mode
    }

    /// The warning for a language whose hyphenation dictionary this machine lacks.
    static func noDictionary(for language: String) -> MeasureWarning {
        .invalidValue(field: "language", description: "no hyphenation dictionary for language \"\(language)\"; only soft hyphens break words")
    }

    /// The style's tab stops and tab size made usable: a stop whose location is not finite,
    /// not above 0 or beyond ``maximumLength`` is dropped, unsorted stops are sorted and a
    /// repeated location keeps its first stop; a profile without tab stops drops them all; a
    /// tab size not finite, negative or beyond ``maximumLength`` is unset. Each with a warning.
    ///
    /// - Complexity: O(n log n) in the stops.
    static func tabs(_ style: TextStyle, into s: inout SanitizedStyle, warnings: inout [MeasureWarning]) {
        if !style.tabStops.isEmpty {
            if s.conventions.tabs.takesTabStops {
                s.tabStops = tabStops(style.tabStops, warnings: &warnings)
            } else {
                warnings.append(.invalidValue(field: "tabStops", description: "CSS has no tab stops (only tab-size); ignored"))
            }
        }
        guard let size = style.tabSize else { return }
        let n: Double
        switch size {
        case .spaces(let v), .length(let v): n = v
        }
        if n.isFinite && n >= 0 && n <= maximumLength {
            s.tabSize = size
        } else {
            warnings.append(.invalidValue(field: "tabSize", description: "\(size) is invalid; used tabInterval"))
        }
    }

    /// `stops` usable: valid locations, ascending, unique (see ``tabs(_:into:warnings:)``).
    private static func tabStops(_ stops: [TabStop], warnings: inout [MeasureWarning]) -> [TabRuler.Stop] {
        var valid = stops.filter { $0.location.isFinite && $0.location > 0 && $0.location <= maximumLength }
        if valid.count < stops.count {
            warnings.append(.invalidValue(
                field: "tabStops", description: "\(stops.count - valid.count) stop(s) not above 0 and finite; dropped"))
        }
        if zip(valid, valid.dropFirst()).contains(where: { $0.location > $1.location }) {
            warnings.append(.invalidValue(field: "tabStops", description: "stops not in ascending order; sorted"))
            valid = valid.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
        }
        var out: [TabRuler.Stop] = []
        out.reserveCapacity(valid.count)
        var repeated = 0
        for stop in valid {
            if let last = out.last, last.location == stop.location {
                repeated += 1
                continue
            }
            out.append(TabRuler.Stop(location: stop.location, alignment: stop.alignment))
        }
        if repeated > 0 {
            warnings.append(.invalidValue(field: "tabStops", description: "\(repeated) repeated location(s); the first stop kept"))
        }
        return out
    }

    /// The style's indents made usable: not finite → 0, beyond ±``maximumLength`` clamped,
    /// a negative head indent → 0, a negative first-line head indent → 0 unless the profile
    /// takes CSS outdents; each on the layout-unit grid (towards zero, as Blink converts a
    /// length) under layout-unit arithmetic. Each replacement with a warning.
    static func indents(_ style: TextStyle, into s: inout SanitizedStyle, warnings: inout [MeasureWarning]) {
        let outdents = s.conventions.indents == .cssTextIndent
        func indent(_ value: Double, _ name: String, mayBeNegative: Bool) -> Double {
            var v = value
            if !v.isFinite {
                warnings.append(.invalidValue(field: name, description: "\(value) is not a length; used 0"))
                return 0
            }
            if v < 0 && !mayBeNegative {
                warnings.append(.invalidValue(field: name, description: "\(value) is negative; used 0"))
                return 0
            }
            if abs(v) > maximumLength {
                warnings.append(.invalidValue(field: name, description: "\(value) is absurdly large; clamped to ±\(maximumLength)"))
                v = v < 0 ? -maximumLength : maximumLength
            }
            if case .layoutUnits(let unit) = s.conventions.lineFit { v = (v / unit).rounded(.towardZero) * unit }
            return v
        }
        s.firstLineHeadIndent = indent(style.firstLineHeadIndent, "firstLineHeadIndent", mayBeNegative: outdents)
        s.headIndent = indent(style.headIndent, "headIndent", mayBeNegative: false)
        s.tailIndent = indent(style.tailIndent, "tailIndent", mayBeNegative: true)
        s.indentEachLine = outdents && style.indentEachLine
    }

    static func width(_ width: Double, warnings: inout [MeasureWarning]) -> LayoutWidth {
        if width.isNaN || width <= 0 {
            warnings.append(.unmeasurableWidth(width))
            return .unmeasurable
        }
        if width == .infinity { return .unconstrained }
        return .points(width)
    }

    static func scale(_ scale: Double, warnings: inout [MeasureWarning]) -> Double {
        if !scale.isFinite || scale <= 0 {
            warnings.append(.invalidScale(scale, replacement: defaultScale))
            return defaultScale
        }
        if scale > maximumScale {
            warnings.append(.invalidScale(scale, replacement: maximumScale))
            return maximumScale
        }
        if scale < minimumScale {
            warnings.append(.invalidScale(scale, replacement: minimumScale))
            return minimumScale
        }
        return scale
    }
}

extension Sanitizer {
    /// UTF-16 text as a string, ill-formed sequences replaced by U+FFFD (`repaired` then).
    ///
    /// - Complexity: O(n).
    static func decode(utf16 units: some Collection<UInt16>) -> (String, repaired: Bool) {
        if let valid = String(validating: units, as: UTF16.self) { return (valid, false) }
        return (String(decoding: units, as: UTF16.self), true)
    }

    /// UTF-8 bytes as a string, ill-formed sequences replaced by U+FFFD (`repaired` then).
    ///
    /// - Complexity: O(n).
    static func decode(utf8 bytes: some Collection<UInt8>) -> (String, repaired: Bool) {
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
        return (String(decoding: bytes, as: UTF8.self), true)
    }
}

/// A sanitised style's tabs before the text is known: its stops, interval, CSS tab size and
/// the profile's rule; ``ruler(spaceWidth:)`` makes the text's `TabRuler`.
///
/// - Thread safety: a value type.
struct TabSettings: Hashable, Sendable {
    var stops: [TabRuler.Stop] = []
    var interval = TextStyle.defaultTabInterval
    var size: TabSize? = nil
    var rule = LayoutConventions.TabRule.textKit
    var indents = LineIndents.none
    /// The style's letter spacing, which the space width includes (Blink's half-space rule
    /// takes the bare space).
    var letterSpacing = 0.0

    /// The ruler of a text whose space is `spaceWidth` points wide (`PreparedText.TabFacts`;
    /// any value for a text without tabs, which never reads it).
    ///
    /// - Complexity: O(1); the stops are shared, not copied.
    func ruler(spaceWidth measured: Double) -> TabRuler {
        var r = TabRuler(stops: stops, interval: interval)
        let unit = rule.positionUnit
        let spaceWidth = unit > 0 ? (measured / unit).rounded() * unit : measured
        switch size {
        case .spaces(let n)?:
            r.interval = n * spaceWidth
            if rule.spacesKeepASpace { r.minimumGap = spaceWidth }
        case .length(let points)?: r.interval = points
        case nil: break
        }
        if rule.continuesLastStop, let last = stops.last {
            r.continuesLastStop = true
            r.interval = stops.count >= 2 ? last.location - stops[stops.count - 2].location : last.location
        }
        r.minimumGap = max(r.minimumGap, rule.minimumGapInSpaces * max(0, spaceWidth - letterSpacing), unit)
        r.centresDecimalPoint = rule.centresDecimalPoint
        r.origin = rule.countsFromHeadIndent ? indents.otherLinesStart : 0
        r.indents = indents
        return r
    }
}
