/// An OpenType feature setting: a four-character tag and its value (0 off, 1 on, n > 1 picks
/// an alternate), as CSS `font-feature-settings` and CoreText's feature settings give them.
///
/// Features apply to every font a text is shaped with, fallback fonts included (as in CSS).
/// Invalid tags are dropped with a warning when measured.
public struct FontFeature: Hashable, Sendable, CustomStringConvertible {
    /// Four printable ASCII characters, e.g. `tnum`, `liga`, `ss01`.
    public var tag: String
    /// 0 turns the feature off, 1 on; a larger value picks an alternate (`salt`, `cvXX`).
    public var value: Int

    /// A feature setting; `value` 1 turns it on.
    public init(_ tag: String, _ value: Int = 1) {
        self.tag = tag
        self.value = value
    }

    /// Tabular (fixed-width) figures: `tnum`.
    public static let tabularNumbers = FontFeature("tnum")
    /// Proportional figures: `pnum`.
    public static let proportionalNumbers = FontFeature("pnum")
    /// Lining figures: `lnum`.
    public static let liningNumbers = FontFeature("lnum")
    /// Old-style figures: `onum`.
    public static let oldstyleNumbers = FontFeature("onum")
    /// Standard ligatures off: `liga` 0.
    public static let noLigatures = FontFeature("liga", 0)
    /// Kerning off: `kern` 0.
    public static let noKerning = FontFeature("kern", 0)
    /// Small capitals: `smcp`.
    public static let smallCaps = FontFeature("smcp")
    /// Stylistic set `n` (1...20): `ss01` ... `ss20`.
    public static func stylisticSet(_ n: Int) -> FontFeature {
        FontFeature("ss" + (n < 10 ? "0" : "") + String(n))
    }

    /// Whether the tag is four printable ASCII characters (what OpenType allows).
    public var isValid: Bool { CSSFontValues.isValidTag(tag) && value >= 0 }

    /// CSS: `"tnum"`, `"liga" 0`.
    public var description: String { value == 1 ? "\"\(tag)\"" : "\"\(tag)\" \(value)" }

    /// The settings of a CSS `font-feature-settings` value: `normal`, or a comma-separated
    /// list of a tag (quoted, or bare as a convenience) and an optional integer, `on` or `off`:
    /// `"'tnum', 'liga' 0, ss01 on"`. Later settings of a tag win (CSS).
    ///
    /// - Throws: ``CSSValueError`` naming the first item that does not parse.
    public static func parse(featureSettings css: String) throws(CSSValueError) -> [FontFeature] {
        var features: [FontFeature] = []
        for item in try CSSFontValues.items(css, property: "font-feature-settings") {
            var reader = CSSFontValues.Reader(item)
            guard let tag = reader.tag(), CSSFontValues.isValidTag(tag) else {
                throw CSSValueError(property: "font-feature-settings", value: String(item))
            }
            var value = 1
            if let word = reader.word() {
                switch word {
                case "on": value = 1
                case "off": value = 0
                default:
                    guard let n = Int(word), n >= 0 else { throw CSSValueError(property: "font-feature-settings", value: String(item)) }
                    value = n
                }
            }
            guard reader.isAtEnd else { throw CSSValueError(property: "font-feature-settings", value: String(item)) }
            features.removeAll { $0.tag == tag }
            features.append(FontFeature(tag, value))
        }
        return features
    }

    /// The features of a CSS `font-variant-numeric` value: `normal`, or space-separated
    /// keywords (`lining-nums`, `oldstyle-nums`, `proportional-nums`, `tabular-nums`,
    /// `diagonal-fractions`, `stacked-fractions`, `ordinal`, `slashed-zero`).
    ///
    /// - Throws: ``CSSValueError`` for an unknown keyword.
    public static func parse(variantNumeric css: String) throws(CSSValueError) -> [FontFeature] {
        let words = css.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        if words == ["normal"] || words.isEmpty { return [] }
        return try words.map { (word) throws(CSSValueError) -> FontFeature in
            switch word {
            case "lining-nums": return .liningNumbers
            case "oldstyle-nums": return .oldstyleNumbers
            case "proportional-nums": return .proportionalNumbers
            case "tabular-nums": return .tabularNumbers
            case "diagonal-fractions": return FontFeature("frac")
            case "stacked-fractions": return FontFeature("afrc")
            case "ordinal": return FontFeature("ordn")
            case "slashed-zero": return FontFeature("zero")
            default: throw CSSValueError(property: "font-variant-numeric", value: word)
            }
        }
    }

    /// The CSS `font-feature-settings` value of `features` (`normal` for none).
    public static func css(_ features: [FontFeature]) -> String {
        features.isEmpty ? "normal" : features.map(\.description).joined(separator: ", ")
    }
}

/// The small CSS grammar the font values share.
enum CSSFontValues {
    /// Four characters in U+20...U+7E.
    static func isValidTag(_ tag: String) -> Bool {
        tag.utf8.count == 4 && tag.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }

    /// The comma-separated items of `css` (none for `normal` or an empty value).
    static func items(_ css: String, property: String) throws(CSSValueError) -> [Substring] {
        let trimmed = css.trimmingCSSSpaces
        if trimmed.isEmpty || trimmed.lowercased() == "normal" { return [] }
        let items = trimmed.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCSSSpaces }
        if let empty = items.first(where: \.isEmpty) { throw CSSValueError(property: property, value: String(empty)) }
        return items
    }

    /// `v` as CSS writes a number: no `.0` for whole values.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// Reads a tag and then words from one item.
    struct Reader {
        private var rest: Substring
        init(_ item: Substring) { rest = item }

        var isAtEnd: Bool { rest.trimmingCSSSpaces.isEmpty }

        /// A quoted string (`'tnum'`, `"tnum"`) or a bare word.
        mutating func tag() -> String? {
            rest = rest.trimmingCSSSpaces
            guard let quote = rest.first else { return nil }
            if quote == "'" || quote == "\"" {
                let body = rest.dropFirst()
                guard let end = body.firstIndex(of: quote) else { return nil }
                rest = body[body.index(after: end)...]
                return String(body[..<end])
            }
            return word()
        }

        /// The next run of characters up to a space.
        mutating func word() -> String? {
            rest = rest.trimmingCSSSpaces
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingCSSSpaces: Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" || s.first == "\n" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" || s.last == "\n" { s = s.dropLast() }
        return s
    }
}
