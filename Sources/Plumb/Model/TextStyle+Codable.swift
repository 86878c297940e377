// `TextStyle`, `FontDescriptor` and `DrawingOptions` in the JSON Lines format of
// `plumb measure`: one flat object whose fields are the style's (`families`, `size`, …,
// `usesFontLeading`, …), so a decoded input line and `TextStyle(from:)` agree field for
// field. A missing field keeps its default — `TextStyle()`'s, or those of the style under
// `TextStyle.decodingDefaultsKey` in the decoder's `userInfo` (what `plumb measure`'s
// command-line options are to its input lines).

extension TextStyle {
    /// A `userInfo` key for decoders: a `TextStyle` whose values stand in for missing fields
    /// (as the command-line options of `plumb measure` do for its input lines). Without it,
    /// missing fields take `TextStyle()`'s defaults.
    public static let decodingDefaultsKey = CodingUserInfoKey(rawValue: "Plumb.TextStyle.decodingDefaults")!

    /// The style that stands in for missing fields when decoding with `decoder`.
    static func decodingDefaults(_ decoder: any Decoder) -> TextStyle {
        decoder.userInfo[decodingDefaultsKey] as? TextStyle ?? TextStyle()
    }
}

extension FontDescriptor: Codable {
    /// Decodes `families` (an array of names, or one comma-separated string as the
    /// `--families` flag takes), `size`, `weight` (an integer) and `italic`; missing fields keep
    /// their defaults. Wrong types are `DecodingError`s.
    public init(from decoder: any Decoder) throws {
        self = TextStyle.decodingDefaults(decoder).font
        let c = try decoder.container(keyedBy: CellField.self)
        if c.contains(.families) {
            if let list = try? c.decode([String].self, forKey: .families) {
                families = list
            } else if let names = try? c.decode(String.self, forKey: .families) {
                families = names.split(separator: ",").map { String($0).trimmingCharacters(of: " ") }
            } else {
                throw DecodingError.typeMismatch([String].self, .init(
                    codingPath: c.codingPath + [CellField.families],
                    debugDescription: "field 'families' must be an array of strings or a comma-separated string"))
            }
        }
        size = try c.decodeIfPresent(Double.self, forKey: .size) ?? size
        weight = try c.decodeIfPresent(Int.self, forKey: .weight) ?? weight
        italic = try c.decodeIfPresent(Bool.self, forKey: .italic) ?? italic
        width = try c.decodeIfPresent(Double.self, forKey: .fontStretch) ?? width
        func css<T>(_ key: CellField, _ parse: (String) throws(CSSValueError) -> T) throws -> T? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            do throws(CSSValueError) {
                return try parse(text)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [key], debugDescription: error.description))
            }
        }
        if let numeric = try css(.fontVariantNumeric, FontFeature.parse(variantNumeric:)) {
            features = FontDescriptor.adding(numeric, to: features)
        }
        if let settings = try css(.fontFeatures, FontFeature.parse(featureSettings:)) {
            features = FontDescriptor.overriding(features, with: settings)
        }
        variations = try css(.fontVariations, FontVariation.parse(variationSettings:)) ?? variations
        if let sizing = try c.decodeIfPresent(String.self, forKey: .fontOpticalSizing) {
            guard sizing == "auto" || sizing == "none" else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: c.codingPath + [CellField.fontOpticalSizing], debugDescription: "fontOpticalSizing must be auto or none, not '\(sizing)'"))
            }
            opticalSizing = sizing == "auto"
        }
    }

    /// Encodes every field (`families` as an array, features and variations as CSS strings:
    /// `fontVariantNumeric`'s features are in `fontFeatures`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CellField.self)
        try c.encode(families, forKey: .families)
        try c.encode(size, forKey: .size)
        try c.encode(weight, forKey: .weight)
        try c.encode(italic, forKey: .italic)
        try c.encode(width, forKey: .fontStretch)
        try c.encode(FontFeature.css(features), forKey: .fontFeatures)
        try c.encode(FontVariation.css(variations), forKey: .fontVariations)
        try c.encode(opticalSizing ? "auto" : "none", forKey: .fontOpticalSizing)
    }

    /// `features` with those of `added` whose tags it does not set (CSS: `font-variant-*`
    /// yields to `font-feature-settings`).
    public static func adding(_ added: [FontFeature], to features: [FontFeature]) -> [FontFeature] {
        added.filter { a in !features.contains { $0.tag == a.tag } } + features
    }

    /// `features` with every tag of `settings` set to the setting's value.
    public static func overriding(_ features: [FontFeature], with settings: [FontFeature]) -> [FontFeature] {
        features.filter { f in !settings.contains { $0.tag == f.tag } } + settings
    }
}

extension DrawingOptions: Codable {
    /// The JSON field of each option, in declaration order.
    static let jsonFields: [(field: CellField, option: DrawingOptions)] = CellField.allCases.compactMap { field in
        field.drawingOption.map { (field, $0) }
    }

    /// Decodes one boolean per option (`"usesFontLeading": false`, …); a missing field keeps
    /// the default membership (`.standard`'s, or the decoding defaults' options).
    public init(from decoder: any Decoder) throws {
        self = TextStyle.decodingDefaults(decoder).options
        let c = try decoder.container(keyedBy: CellField.self)
        for field in Self.jsonFields {
            guard let on = try c.decodeIfPresent(Bool.self, forKey: field.field) else { continue }
            if on { insert(field.option) } else { remove(field.option) }
        }
    }

    /// Encodes all four options as booleans (bits that name no option are not encoded).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CellField.self)
        for field in Self.jsonFields { try c.encode(contains(field.option), forKey: field.field) }
    }
}

extension TextStyle: Codable {
    /// Decodes the flat JSON Lines style: the font's fields, the paragraph fields, the drawing
    /// options as booleans and the enums by case name. Missing fields keep their defaults
    /// (see `decodingDefaultsKey`); `"heightLimit": null` means none. Fields of other types
    /// (`"id"`, `"text"`, `"width"`) are ignored.
    ///
    /// - Throws: `DecodingError` for a wrong type, a non-integral `maxLines`/`weight`, or an
    ///   unknown `lineBreakMode`, `compatibility`, `alignment` or `lastLineAlignment` (the message lists the cases).
    ///   Numbers are not range-checked here: measuring sanitises them with warnings, as for
    ///   any `TextStyle`.
    public init(from decoder: any Decoder) throws {
        self = Self.decodingDefaults(decoder)
        font = try FontDescriptor(from: decoder)
        options = try DrawingOptions(from: decoder)
        let c = try decoder.container(keyedBy: CellField.self)
        func number(_ key: CellField, _ value: inout Double) throws {
            value = try c.decodeIfPresent(Double.self, forKey: key) ?? value
        }
        try number(.lineSpacing, &lineSpacing)
        try number(.minimumLineHeight, &minimumLineHeight)
        try number(.maximumLineHeight, &maximumLineHeight)
        try number(.lineHeightMultiple, &lineHeightMultiple)
        try number(.paragraphSpacing, &paragraphSpacing)
        try number(.paragraphSpacingBefore, &paragraphSpacingBefore)
        try number(.letterSpacing, &letterSpacing)
        try number(.wordSpacing, &wordSpacing)
        try number(.tabInterval, &tabInterval)
        tabStops = try c.decodeIfPresent([TabStop].self, forKey: .tabStops) ?? tabStops
        if c.contains(.tabSize) { tabSize = try c.decodeIfPresent(TabSize.self, forKey: .tabSize) }
        try number(.lineHeightEm, &lineHeightEm)
        try number(.firstLineHeadIndent, &firstLineHeadIndent)
        try number(.headIndent, &headIndent)
        try number(.tailIndent, &tailIndent)
        indentEachLine = try c.decodeIfPresent(Bool.self, forKey: .indentEachLine) ?? indentEachLine
        if c.contains(.language) { language = try c.decodeIfPresent(String.self, forKey: .language) }
        if c.contains(.hyphenation) { hyphenation = try c.decodeIfPresent(Hyphenation.self, forKey: .hyphenation) }
        try number(.hyphenationFactor, &hyphenationFactor)
        truncationToken = try c.decodeIfPresent(AttributedText.self, forKey: .truncationToken) ?? truncationToken
        maxLines = try c.decodeIfPresent(Int.self, forKey: .maxLines) ?? maxLines
        lineBreakMode = try c.decodeIfPresent(LineBreakMode.self, forKey: .lineBreakMode) ?? lineBreakMode
        compatibility = try c.decodeIfPresent(Compatibility.self, forKey: .compatibility) ?? compatibility
        alignment = try c.decodeIfPresent(TextAlignment.self, forKey: .alignment) ?? alignment
        if c.contains(.whiteSpace) { whiteSpace = try c.decodeIfPresent(WhiteSpace.self, forKey: .whiteSpace) }
        if c.contains(.wordBreak) { wordBreak = try c.decodeIfPresent(WordBreak.self, forKey: .wordBreak) }
        if c.contains(.overflowWrap) { overflowWrap = try c.decodeIfPresent(OverflowWrap.self, forKey: .overflowWrap) }
        if c.contains(.lineBreak) { lineBreak = try c.decodeIfPresent(LineBreakStrictness.self, forKey: .lineBreak) }
        if c.contains(.textWrap) { textWrap = try c.decodeIfPresent(TextWrap.self, forKey: .textWrap) }
        if c.contains(.lineClamp) { lineClamp = try c.decodeIfPresent(Int.self, forKey: .lineClamp) }
        if c.contains(.lastLineAlignment) {
            lastLineAlignment = try c.decodeIfPresent(TextAlignment.self, forKey: .lastLineAlignment)
        }
        if c.contains(.heightLimit) { heightLimit = try c.decodeIfPresent(Double.self, forKey: .heightLimit) }
    }

    /// Encodes every field flat (`heightLimit` only when set). A NaN or infinite number is
    /// left to the encoder's non-conforming-float strategy, as for any `Double`.
    public func encode(to encoder: any Encoder) throws {
        try font.encode(to: encoder)
        var c = encoder.container(keyedBy: CellField.self)
        try c.encode(lineSpacing, forKey: .lineSpacing)
        try c.encode(minimumLineHeight, forKey: .minimumLineHeight)
        try c.encode(maximumLineHeight, forKey: .maximumLineHeight)
        try c.encode(lineHeightMultiple, forKey: .lineHeightMultiple)
        try c.encode(paragraphSpacing, forKey: .paragraphSpacing)
        try c.encode(paragraphSpacingBefore, forKey: .paragraphSpacingBefore)
        try c.encode(letterSpacing, forKey: .letterSpacing)
        try c.encode(wordSpacing, forKey: .wordSpacing)
        try c.encode(tabInterval, forKey: .tabInterval)
        try c.encode(tabStops, forKey: .tabStops)
        try c.encodeIfPresent(tabSize, forKey: .tabSize)
        try c.encode(lineHeightEm, forKey: .lineHeightEm)
        try c.encode(firstLineHeadIndent, forKey: .firstLineHeadIndent)
        try c.encode(headIndent, forKey: .headIndent)
        try c.encode(tailIndent, forKey: .tailIndent)
        try c.encode(indentEachLine, forKey: .indentEachLine)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(hyphenation, forKey: .hyphenation)
        try c.encode(hyphenationFactor, forKey: .hyphenationFactor)
        try c.encodeIfPresent(truncationToken, forKey: .truncationToken)
        try c.encode(maxLines, forKey: .maxLines)
        try c.encode(lineBreakMode, forKey: .lineBreakMode)
        try options.encode(to: encoder)
        try c.encodeIfPresent(heightLimit, forKey: .heightLimit)
        try c.encode(compatibility, forKey: .compatibility)
        try c.encode(alignment, forKey: .alignment)
        try c.encodeIfPresent(lastLineAlignment, forKey: .lastLineAlignment)
        try c.encodeIfPresent(whiteSpace, forKey: .whiteSpace)
        try c.encodeIfPresent(wordBreak, forKey: .wordBreak)
        try c.encodeIfPresent(overflowWrap, forKey: .overflowWrap)
        try c.encodeIfPresent(lineBreak, forKey: .lineBreak)
        try c.encodeIfPresent(textWrap, forKey: .textWrap)
        try c.encodeIfPresent(lineClamp, forKey: .lineClamp)
    }
}

extension String {
    /// The string without leading and trailing `character`s.
    func trimmingCharacters(of character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
