/// The JSON Lines form of attributed text (`"runs"` and `"truncationToken"` in `plumb
/// measure`): a plain string when the text is one run that sets nothing, otherwise an array of
/// runs — `{"text": …, <attribute fields>}` or `{"attachment": {"width", "height",
/// "baselineOffset", "id"}}`.
extension AttributedText: Codable {
    private enum RunKey: String, CodingKey {
        case text, attachment, families, size, weight, italic, letterSpacing, baselineOffset, color, language
        case fontStretch, fontFeatures, fontVariantNumeric, fontVariations
    }

    private enum BoxKey: String, CodingKey {
        case width, height, baselineOffset, id
    }

    /// Decodes a string (one run of the style's own attributes) or an array of runs.
    ///
    /// - Throws: `DecodingError` for a run with neither or both of `text` and `attachment`, a
    ///   box without `width` or `height`, or a field of the wrong type.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self.init(text)
            return
        }
        var runs = try decoder.unkeyedContainer()
        self.init()
        while !runs.isAtEnd {
            let run = try runs.nestedContainer(keyedBy: RunKey.self)
            let families: [String]?
            if let list = try? run.decodeIfPresent([String].self, forKey: .families) {
                families = list
            } else if let joined = try run.decodeIfPresent(String.self, forKey: .families) {
                families = joined.split(separator: ",").map { String($0).trimmingCharacters(of: " ") }
            } else {
                families = nil
            }
            var attributes = TextAttributes(
                families: families, size: try run.decodeIfPresent(Double.self, forKey: .size),
                weight: try run.decodeIfPresent(Int.self, forKey: .weight),
                italic: try run.decodeIfPresent(Bool.self, forKey: .italic),
                letterSpacing: try run.decodeIfPresent(Double.self, forKey: .letterSpacing),
                baselineOffset: try run.decodeIfPresent(Double.self, forKey: .baselineOffset) ?? 0,
                color: try run.decodeIfPresent(String.self, forKey: .color),
                width: try run.decodeIfPresent(Double.self, forKey: .fontStretch),
                language: try run.decodeIfPresent(String.self, forKey: .language))
            try Self.decodeFontValues(run, into: &attributes)
            switch (run.contains(.text), run.contains(.attachment)) {
            case (true, false):
                append(try run.decode(String.self, forKey: .text), attributes)
            case (false, true):
                let box = try run.nestedContainer(keyedBy: BoxKey.self, forKey: .attachment)
                append(
                    InlineBox(
                        width: try box.decode(Double.self, forKey: .width), height: try box.decode(Double.self, forKey: .height),
                        baselineOffset: try box.decodeIfPresent(Double.self, forKey: .baselineOffset) ?? 0,
                        id: try box.decodeIfPresent(String.self, forKey: .id)),
                    attributes)
            default:
                throw DecodingError.dataCorruptedError(
                    in: runs, debugDescription: "a run needs exactly one of \"text\" and \"attachment\"")
            }
        }
    }

    /// Encodes a plain one-run text as a string, anything else as its runs.
    public func encode(to encoder: any Encoder) throws {
        if runs.count == 1, isPlain {
            var single = encoder.singleValueContainer()
            try single.encode(string)
            return
        }
        var list = encoder.unkeyedContainer()
        for run in runs {
            var c = list.nestedContainer(keyedBy: RunKey.self)
            let a = run.attributes
            if let box = run.inlineBox {
                var b = c.nestedContainer(keyedBy: BoxKey.self, forKey: .attachment)
                try b.encode(box.width, forKey: .width)
                try b.encode(box.height, forKey: .height)
                try b.encode(box.baselineOffset, forKey: .baselineOffset)
                try b.encodeIfPresent(box.id, forKey: .id)
            } else {
                try c.encode(substring(utf8: run.utf8Range), forKey: .text)
            }
            try c.encodeIfPresent(a.families, forKey: .families)
            try c.encodeIfPresent(a.size, forKey: .size)
            try c.encodeIfPresent(a.weight, forKey: .weight)
            try c.encodeIfPresent(a.italic, forKey: .italic)
            try c.encodeIfPresent(a.letterSpacing, forKey: .letterSpacing)
            if a.baselineOffset != 0 { try c.encode(a.baselineOffset, forKey: .baselineOffset) }
            try c.encodeIfPresent(a.color, forKey: .color)
            try c.encodeIfPresent(a.width, forKey: .fontStretch)
            try c.encodeIfPresent(a.features.map(FontFeature.css), forKey: .fontFeatures)
            try c.encodeIfPresent(a.variations.map(FontVariation.css), forKey: .fontVariations)
            try c.encodeIfPresent(a.language, forKey: .language)
        }
    }

    /// A run's `fontVariantNumeric`, `fontFeatures` and `fontVariations` (CSS strings).
    private static func decodeFontValues(_ run: KeyedDecodingContainer<RunKey>, into a: inout TextAttributes) throws {
        func css<T>(_ key: RunKey, _ parse: (String) throws(CSSValueError) -> T) throws -> T? {
            guard let text = try run.decodeIfPresent(String.self, forKey: key) else { return nil }
            do throws(CSSValueError) {
                return try parse(text)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: run.codingPath + [key], debugDescription: error.description))
            }
        }
        if let numeric = try css(.fontVariantNumeric, FontFeature.parse(variantNumeric:)) {
            a.features = FontDescriptor.adding(numeric, to: a.features ?? [])
        }
        if let settings = try css(.fontFeatures, FontFeature.parse(featureSettings:)) {
            a.features = FontDescriptor.overriding(a.features ?? [], with: settings)
        }
        a.variations = try css(.fontVariations, FontVariation.parse(variationSettings:))
    }
}
