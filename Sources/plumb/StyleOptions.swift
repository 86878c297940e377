import CLIKit
import Plumb

/// One style field: its JSON Lines name, its command-line option and how it sets a
/// `CellRequest`. One table drives the options, the help and the per-line overrides.
struct StyleField: Sendable {
    enum Kind: Sendable {
        case double, int, bool, string, stringList
        /// Tab stops: an array of `{"location", "alignment"}` objects or their list string.
        case tabStops
        /// A number or a CSS length string.
        case numberOrLength
    }
    /// The field in the wire schema (its JSON name and type).
    let field: CellField
    /// The field's JSON name.
    var json: String { field.rawValue }
    let option: String?
    let valueName: String
    let kind: Kind
    let help: String
    /// The values the command-line option accepts (a JSON line may hold any value: the engine
    /// replaces a bad one and warns, as the library does).
    var domain: Domain = .any
    let apply: @Sendable (inout CellRequest, FieldValue) -> String?

    init(_ field: CellField, option: String?, valueName: String, help: String, domain: Domain = .any,
         apply: @escaping @Sendable (inout CellRequest, FieldValue) -> String?) {
        self.field = field
        self.option = option
        self.valueName = valueName
        self.kind = Kind(field.kind)
        self.help = help
        self.domain = domain
        self.apply = apply
    }

    /// The numbers an option accepts: the ones the engine takes without replacing them.
    enum Domain: Sendable {
        case any
        /// > 0 and at most `maximum`.
        case positive(maximum: Double)
        /// ≥ 0.
        case nonNegative
        case closed(ClosedRange<Double>)

        /// Why `value` is refused, or nil if it is accepted.
        func problem(_ value: Double) -> String? {
            let shown = JSONWriter.encodeToString(.number(value))  // shortest form: -5, 0.0001
            switch self {
            case .any: return nil
            case .positive(let maximum):
                if value > 0 && value <= maximum { return nil }
                return maximum.isFinite ? "\(shown) is out of range (must be > 0 and at most \(LayoutCommand.num(maximum)))"
                    : "\(shown) is out of range (must be > 0)"
            case .nonNegative:
                return value >= 0 ? nil : "\(shown) is out of range (must be ≥ 0)"
            case .closed(let range):
                return range.contains(value) ? nil
                    : "\(shown) is out of range (must be \(LayoutCommand.num(range.lowerBound))…\(LayoutCommand.num(range.upperBound)))"
            }
        }
    }

    /// A string field that names one case of `E`; an unknown name is an error listing the
    /// cases.
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ field: CellField, option: String, valueName: String, help: String,
        _ path: WritableKeyPath<TextStyle, E> & Sendable
    ) -> StyleField where E.RawValue == String {
        StyleField(field, option: option, valueName: valueName, help: help) { r, v in
            named(E.self, field, v) { r.style[keyPath: path] = $0 }
        }
    }

    /// As `choice`, for a field stored in an optional (unset: the engine's default).
    static func optionalChoice<E: RawRepresentable & CaseIterable & Sendable>(
        _ field: CellField, option: String, valueName: String, help: String,
        _ path: WritableKeyPath<TextStyle, E?> & Sendable
    ) -> StyleField where E.RawValue == String {
        StyleField(field, option: option, valueName: valueName, help: help) { r, v in
            named(E.self, field, v) { r.style[keyPath: path] = $0 }
        }
    }

    /// Sets the case of `E` that `v` names, or returns the error listing the cases.
    private static func named<E: RawRepresentable & CaseIterable>(
        _: E.Type, _ field: CellField, _ v: FieldValue, _ set: (E) -> Void
    ) -> String? where E.RawValue == String {
        guard let value = E(rawValue: v.string) else {
            return "unknown \(field.rawValue) '\(v.string)' (one of \(E.allCases.map(\.rawValue).joined(separator: ", ")))"
        }
        set(value)
        return nil
    }
}

/// A parsed field value.
enum FieldValue {
    case double(Double), int(Int), bool(Bool), string(String), strings([String])
    var double: Double { if case .double(let d) = self { d } else if case .int(let i) = self { Double(i) } else { .nan } }
    var int: Int { if case .int(let i) = self { i } else { 0 } }
    var bool: Bool { if case .bool(let b) = self { b } else { false } }
    var string: String { if case .string(let s) = self { s } else { "" } }
    var strings: [String] { if case .strings(let s) = self { s } else { [] } }
}

/// Everything one input line asks for.
struct CellRequest: Sendable {
    var style = TextStyle()
    var width: Double = 375
    var scale: Double = 2
    /// `--list`: points added to the row's height (`ListRow.extraHeight`).
    var extraHeight: Double = 0
}

enum StyleFields {
    static let all: [StyleField] = [
        StyleField(.families, option: "families", valueName: "families",
                   help: "Comma-separated font cascade. (default: \(FontDescriptor.defaultFamilies.joined(separator: ",")))") { r, v in r.style.font.families = v.strings; return nil },
        StyleField(.size, option: "size", valueName: "points", help: "Font size in points, > 0 and at most 10000. (default: \(LayoutCommand.num(FontDescriptor.defaultSize)))",
                   domain: .positive(maximum: 10_000)) { r, v in r.style.font.size = v.double; return nil },
        StyleField(.weight, option: "weight", valueName: "weight", help: "CSS font weight, 1–1000. (default: \(FontDescriptor().weight))",
                   domain: .closed(1...1000)) { r, v in r.style.font.weight = v.int; return nil },
        StyleField(.italic, option: "italic", valueName: "", help: "Use an italic face.") { r, v in r.style.font.italic = v.bool; return nil },
        StyleField(.fontStretch, option: "font-stretch", valueName: "percent",
                   help: "CSS font-stretch percentage, 50–200: a family's width and a variable font's wdth axis. (default: 100)",
                   domain: .closed(50...200)) { r, v in r.style.font.width = v.double; return nil },
        StyleField(.fontFeatures, option: "font-features", valueName: "settings",
                   help: "OpenType features as CSS font-feature-settings, e.g. \"'tnum', 'liga' 0\".") { r, v in
            StyleFields.css(v.string, FontFeature.parse(featureSettings:)) { r.style.font.features = FontDescriptor.overriding(r.style.font.features, with: $0) }
        },
        StyleField(.fontVariantNumeric, option: "font-variant-numeric", valueName: "keywords",
                   help: "CSS font-variant-numeric keywords, e.g. tabular-nums (font-features wins for a tag both set).") { r, v in
            StyleFields.css(v.string, FontFeature.parse(variantNumeric:)) { r.style.font.features = FontDescriptor.adding($0, to: r.style.font.features) }
        },
        StyleField(.fontVariations, option: "font-variations", valueName: "settings",
                   help: "Variable font axes as CSS font-variation-settings, e.g. \"'wght' 450, 'wdth' 80\".") { r, v in
            StyleFields.css(v.string, FontVariation.parse(variationSettings:)) { r.style.font.variations = $0 }
        },
        StyleField(.fontOpticalSizing, option: "font-optical-sizing", valueName: "mode",
                   help: "auto (a variable font's opsz axis follows the size) or none. (default: auto)") { r, v in
            guard v.string == "auto" || v.string == "none" else { return "unknown fontOpticalSizing '\(v.string)' (one of auto, none)" }
            r.style.font.opticalSizing = v.string == "auto"
            return nil
        },
        StyleField(.width, option: "width", valueName: "points", help: "Layout width in points, > 0. (default: \(LayoutCommand.num(CellRequest().width)))",
                   domain: .positive(maximum: .infinity)) { r, v in r.width = v.double; return nil },
        StyleField(.scale, option: "scale", valueName: "scale", help: "Device pixels per point for rounding, 0.01–100. (default: \(LayoutCommand.num(CellRequest().scale)))",
                   domain: .closed(0.01...100)) { r, v in r.scale = v.double; return nil },
        // JSON only: a row's own padding for `measure --list`.
        StyleField(.extraHeight, option: nil, valueName: "", help: "") { r, v in
            r.extraHeight = v.double
            return nil
        },
        StyleField(.lineSpacing, option: "line-spacing", valueName: "points", help: "Space between lines (n lines, n − 1 gaps).",
                   domain: .nonNegative) { r, v in r.style.lineSpacing = v.double; return nil },
        StyleField(.minimumLineHeight, option: "min-line-height", valueName: "points", help: "Minimum line height (0 = unset).",
                   domain: .nonNegative) { r, v in r.style.minimumLineHeight = v.double; return nil },
        StyleField(.maximumLineHeight, option: "max-line-height", valueName: "points", help: "Maximum line height (0 = unset).",
                   domain: .nonNegative) { r, v in r.style.maximumLineHeight = v.double; return nil },
        StyleField(.lineHeightMultiple, option: "line-height-multiple", valueName: "factor", help: "Multiplies the natural line height (0 = unset).",
                   domain: .nonNegative) { r, v in r.style.lineHeightMultiple = v.double; return nil },
        StyleField(.lineHeightEm, option: "line-height-em", valueName: "factor", help: "Every line's height as a multiple of the font size, as CSS's line-height: 1.4 (0 = unset).",
                   domain: .nonNegative) { r, v in r.style.lineHeightEm = v.double; return nil },
        StyleField(.paragraphSpacing, option: "paragraph-spacing", valueName: "points", help: "Space after each paragraph but the last.",
                   domain: .nonNegative) { r, v in r.style.paragraphSpacing = v.double; return nil },
        StyleField(.paragraphSpacingBefore, option: "paragraph-spacing-before", valueName: "points", help: "Space before each paragraph but the first.",
                   domain: .nonNegative) { r, v in r.style.paragraphSpacingBefore = v.double; return nil },
        StyleField(.letterSpacing, option: "letter-spacing", valueName: "points", help: "Added to every character's advance.") { r, v in r.style.letterSpacing = v.double; return nil },
        StyleField(.wordSpacing, option: "word-spacing", valueName: "points", help: "Added to every space's and no-break space's advance but a first character's (CSS word-spacing).") { r, v in r.style.wordSpacing = v.double; return nil },
        StyleField(.firstLineHeadIndent, option: "first-line-head-indent", valueName: "points",
                   help: "Where each paragraph's first line starts (UIKit's firstLineHeadIndent; under chromium CSS text-indent plus head-indent, which may be negative).") { r, v in r.style.firstLineHeadIndent = v.double; return nil },
        StyleField(.headIndent, option: "head-indent", valueName: "points", help: "Where every other line starts (a hanging indent when above first-line-head-indent).",
                   domain: .nonNegative) { r, v in r.style.headIndent = v.double; return nil },
        StyleField(.tailIndent, option: "tail-indent", valueName: "points",
                   help: "Where lines end: above 0 from the leading edge, else this far inside the trailing edge (-20: 20 points from it).") { r, v in r.style.tailIndent = v.double; return nil },
        StyleField(.indentEachLine, option: "indent-each-line", valueName: "",
                   help: "chromium: the first line after every hard break takes first-line-head-indent too (CSS text-indent each-line).") { r, v in r.style.indentEachLine = v.bool; return nil },
        StyleField(.language, option: "language", valueName: "tag",
                   help: "The text's language (BCP 47, e.g. en-US, de, ru): the hyphenation dictionary of --hyphenation auto.") { r, v in r.style.language = v.string; return nil },
        StyleField(.hyphenation, option: "hyphenation", valueName: "mode",
                   help: "none, manual (soft hyphens) or auto (and the language's dictionary); default: manual, under pango none.") { r, v in
            guard let mode = Hyphenation(rawValue: v.string) else {
                return "unknown hyphenation '\(v.string)' (one of \(Hyphenation.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
            r.style.hyphenation = mode
            return nil
        },
        StyleField(.hyphenationFactor, option: "hyphenation-factor", valueName: "factor",
                   help: "UIKit's hyphenationFactor, 0-1 (standard: hyphenate only lines filled less than this; above 0 turns auto on).",
                   domain: .closed(0...1)) { r, v in r.style.hyphenationFactor = v.double; return nil },
        StyleField(.maxLines, option: "max-lines", valueName: "n", help: "Keep at most n lines (0 = unlimited).",
                   domain: .nonNegative) { r, v in r.style.maxLines = v.int; return nil },
        .choice(.lineBreakMode, option: "line-break-mode", valueName: "mode",
                help: "wordWrapping, charWrapping, clipping, truncatingHead, truncatingMiddle or truncatingTail. (default: wordWrapping)", \.lineBreakMode),
        // On by default; the options below turn them off (--no-font-leading, --single-line).
        StyleField(.usesFontLeading, option: nil, valueName: "", help: "") { r, v in r.style.options.set(.usesFontLeading, v.bool); return nil },
        StyleField(.usesLineFragmentOrigin, option: nil, valueName: "", help: "") { r, v in r.style.options.set(.usesLineFragmentOrigin, v.bool); return nil },
        StyleField(.usesDeviceMetrics, option: "device-metrics", valueName: "", help: "Measure glyph ink bounds instead of line boxes.") { r, v in r.style.options.set(.usesDeviceMetrics, v.bool); return nil },
        StyleField(.truncatesLastVisibleLine, option: "truncates-last-visible-line", valueName: "",
                   help: "When a height limit cuts lines off, end the last kept line with an ellipsis.") { r, v in r.style.options.set(.truncatesLastVisibleLine, v.bool); return nil },
        StyleField(.heightLimit, option: "height-limit", valueName: "points", help: "Bounding height: an upper bound, lines that do not fit are dropped (0 = none).",
                   domain: .nonNegative) { r, v in r.style.heightLimit = v.double; return nil },
        .choice(.alignment, option: "alignment", valueName: "alignment",
                help: "Where lines sit in the box (line rects and, justified, cluster positions; never heights): natural, left, right, center or justified. (default: natural)", \.alignment),
        .optionalChoice(.lastLineAlignment, option: "last-line-alignment", valueName: "alignment",
                        help: "The alignment of each paragraph's last line (CSS text-align-last): natural, left, right, center or justified. (default: natural when justified, else --alignment)", \.lastLineAlignment),
        .optionalChoice(.whiteSpace, option: "white-space", valueName: "mode",
                        help: "CSS white-space: normal, nowrap, pre, pre-wrap, pre-line or break-spaces (nowrap and pre: no wrapping; collapsing is not done: a warning when the text has something to collapse). (default: pre-wrap)", \.whiteSpace),
        .optionalChoice(.wordBreak, option: "word-break", valueName: "mode",
                        help: "CSS word-break: normal, break-all (also between letters) or keep-all (not between CJK letters). (default: normal)", \.wordBreak),
        .optionalChoice(.overflowWrap, option: "overflow-wrap", valueName: "mode",
                        help: "CSS overflow-wrap: normal (an overlong word overflows its line), break-word or anywhere (cut between clusters). (default: break-word)", \.overflowWrap),
        .optionalChoice(.lineBreak, option: "line-break", valueName: "mode",
                        help: "CSS line-break: auto, loose, normal, strict (ICU's rules) or anywhere (between any two clusters). (default: auto)", \.lineBreak),
        .optionalChoice(.textWrap, option: "text-wrap", valueName: "mode",
                        help: "CSS text-wrap: wrap, nowrap, balance or pretty (the last two broken greedily, with a warning). (default: wrap)", \.textWrap),
        StyleField(.lineClamp, option: "line-clamp", valueName: "n",
                   help: "CSS -webkit-line-clamp: at most n lines, the last ending in an ellipsis (replaces --max-lines).",
                   domain: .nonNegative) { r, v in r.style.lineClamp = v.int; return nil },
        .choice(.compatibility, option: "compatibility", valueName: "profile",
                help: "Follow whose conventions where engines differ: standard, pango or chromium. (default: standard)", \.compatibility),
        StyleField(.tabInterval, option: "tab-interval", valueName: "points", help: "Tab stops every this many points, > 0. (default: \(LayoutCommand.num(TextStyle().tabInterval)))",
                   domain: .positive(maximum: .infinity)) { r, v in r.style.tabInterval = v.double; return nil },
        StyleField(.tabStops, option: "tab-stops", valueName: "stops",
                   help: "Tab stops from the box's leading edge, each a location and left, right, center or decimal: \"100, 200 right, 260 decimal\" (standard and pango; CSS has none).") { r, v in
            StyleFields.css(v.string, TabStop.parse(list:)) { r.style.tabStops = $0 }
        },
        StyleField(.tabSize, option: "tab-size", valueName: "size",
                   help: "CSS tab-size: a number of spaces (8) or a length (28px); replaces tab-interval.") { r, v in
            StyleFields.css(v.string, TabSize.parse(css:)) { r.style.tabSize = $0 }
        },
    ]

    /// Parses a CSS font value and hands it to `set`, or returns the parse error's message.
    static func css<T>(_ text: String, _ parse: (String) throws(CSSValueError) -> T, _ set: (T) -> Void) -> String? {
        do throws(CSSValueError) {
            set(try parse(text))
            return nil
        } catch {
            return error.description
        }
    }

    /// The style fields by schema field.
    static let byField: [CellField: StyleField] = Dictionary(uniqueKeysWithValues: all.map { ($0.field, $0) })

    /// The schema's fields the line parser reads itself rather than through `all`.
    static let readByTheParser: Set<CellField> = [.id, .text, .runs, .truncationToken]

    /// Options of the style fields, plus the shorthand flags.
    static var options: [OptionSpec] {
        var specs: [OptionSpec] = all.compactMap { f in
            guard let name = f.option else { return nil }
            let kind: OptionSpec.Kind
            switch f.kind {
            case .double: kind = .double
            case .int: kind = .int
            case .bool: kind = .flag
            case .string: kind = .string
            case .stringList: kind = .list(separator: ",")
            case .tabStops, .numberOrLength: kind = .string
            }
            return OptionSpec(name: name, valueName: f.valueName.isEmpty ? nil : f.valueName, kind: kind, help: f.help)
        }
        specs += FontOptions.options + [
            OptionSpec(name: "line-height", valueName: "points", kind: .double, help: "Sets the minimum and maximum line height."),
            OptionSpec(name: "no-font-leading", kind: .flag, help: "Leave the fonts' line gap out of line heights."),
            OptionSpec(name: "single-line", kind: .flag, help: "No wrapping: every paragraph is one line (no usesLineFragmentOrigin)."),
            OptionSpec(name: "truncation-token", valueName: "text", kind: .string,
                       help: "What a truncating mode puts where it cuts instead of \"…\" (e.g. \"… more\"), in the cell's style; a JSON line's \"truncationToken\" (a string or runs) overrides it."),
        ]
        return specs
    }

    /// The request the command-line options describe (defaults for every input line).
    ///
    /// - Throws: a usage error (exit 64) for an option value a style cannot take (an unknown
    ///   line break mode or profile, a size ≤ 0, a negative spacing…), rather than measuring
    ///   with a replacement in silence.
    static func defaults(from args: ParsedArguments) throws(UsageError) -> CellRequest {
        var r = CellRequest()
        r.style.font.families = FontDescriptor.defaultFamilies
        for f in all {
            guard let name = f.option, args.isGiven(name) else { continue }
            let value: FieldValue
            switch f.kind {
            case .double: value = .double(args.double(name) ?? .nan)
            case .int: value = .int(args.int(name) ?? 0)
            case .bool: value = .bool(true)
            case .string, .tabStops, .numberOrLength: value = .string(args.string(name) ?? "")
            case .stringList: value = .strings((args.list(name) ?? []).map { $0.trimmingSpaces })
            }
            if f.kind == .double || f.kind == .int, let problem = f.domain.problem(value.double) {
                throw args.invalidValue(of: name, problem)
            }
            if let problem = f.apply(&r, value) {
                throw args.invalidValue(of: name, problem)
            }
        }
        if args.isGiven("line-height"), let h = args.double("line-height") {
            if let problem = StyleField.Domain.nonNegative.problem(h) { throw args.invalidValue(of: "line-height", problem) }
            r.style.minimumLineHeight = h
            r.style.maximumLineHeight = h
        }
        if let token = args.string("truncation-token") { r.style.truncationToken = AttributedText(token) }
        if args.flag("no-font-leading") { r.style.options.remove(.usesFontLeading) }
        if args.flag("single-line") { r.style.options.remove(.usesLineFragmentOrigin) }
        return r
    }

    /// Converts a JSON value for `field`, or says what is wrong with its type.
    static func value(_ json: JSONValue, for field: StyleField) -> Result<FieldValue, LineError> {
        let wrong = LineError("field '\(field.json)' must be \(field.kind.description), not \(json.kindName)")
        switch field.kind {
        case .double:
            guard let d = json.doubleValue else { return .failure(wrong) }
            return .success(.double(d))
        case .int:
            guard let d = json.doubleValue, d.rounded() == d, abs(d) < 1e15 else { return .failure(wrong) }
            return .success(.int(Int(d)))
        case .bool:
            guard let b = json.boolValue else { return .failure(wrong) }
            return .success(.bool(b))
        case .string:
            guard let s = json.stringValue else { return .failure(wrong) }
            return .success(.string(s))
        case .stringList:
            // A comma-separated string, as on the command line, or an array of strings.
            if let text = json.stringValue {
                return .success(.strings(text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }))
            }
            guard let a = json.arrayValue else { return .failure(wrong) }
            var out: [String] = []
            for v in a {
                guard let s = v.stringValue else { return .failure(wrong) }
                out.append(s)
            }
            return .success(.strings(out))
        case .tabStops:
            // The list string, as on the command line, or the array of stop objects.
            if let text = json.stringValue { return .success(.string(text)) }
            guard let a = json.arrayValue else { return .failure(wrong) }
            var items: [String] = []
            for v in a {
                guard let o = v.objectValue, let location = o["location"]?.doubleValue else { return .failure(wrong) }
                let alignment = o["alignment"]?.stringValue ?? "left"
                items.append("\(location) \(alignment)")
            }
            return .success(.string(items.joined(separator: ", ")))
        case .numberOrLength:
            if let d = json.doubleValue { return .success(.string("\(d)")) }
            guard let s = json.stringValue else { return .failure(wrong) }
            return .success(.string(s))
        }
    }
}

struct LineError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension StyleField.Kind {
    /// The command line's kind of a schema type (a choice is a string, checked when applied).
    init(_ kind: CellField.Kind) {
        switch kind {
        case .number: self = .double
        case .integer: self = .int
        case .boolean: self = .bool
        case .stringList: self = .stringList
        case .tabStops: self = .tabStops
        case .numberOrLength: self = .numberOrLength
        case .string, .choice, .runs, .any: self = .string
        }
    }
}

extension StyleField.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .double: "a number"
        case .int: "an integer"
        case .bool: "true or false"
        case .string: "a string"
        case .stringList: "an array of strings or a comma-separated string"
        case .tabStops: "an array of {\"location\", \"alignment\"} objects or a list like \"100, 200 right\""
        case .numberOrLength: "a number or a length like \"28px\""
        }
    }
}

extension DrawingOptions {
    mutating func set(_ option: DrawingOptions, _ on: Bool) {
        if on { insert(option) } else { remove(option) }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
