@testable import Plumb
import Testing

/// Every stored property of the style types is either encoded into a fingerprint or declared
/// layout-neutral (`StyleKeySchema`): adding a field without deciding fails here instead of
/// silently sharing cache keys.
@Suite struct StyleKeySchemaTests {
    /// Records the names the schema encodes (the same code that hashes them).
    struct NameRecorder: StyleFieldSink {
        var names: [String] = []
        mutating func field(_ name: StaticString, _ value: some KeyEncodable) { names.append("\(name)") }
    }

    static var encodedNames: [String] {
        var warnings: [MeasureWarning] = []
        let s = Sanitizer.style(TextStyle(), warnings: &warnings)
        var recorder = NameRecorder()
        StyleKeySchema.shapingFields(s, into: &recorder)
        StyleKeySchema.layoutFields(s, into: &recorder)
        return recorder.names
    }

    static func labels(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap(\.label)
    }

    /// `name` (a property path) is encoded, or a nested path under it is, or it is neutral.
    static func isDecided(_ name: String, encoded: Set<String>) -> Bool {
        encoded.contains(name) || encoded.contains { $0.hasPrefix(name + ".") }
            || StyleKeySchema.layoutNeutral[name] != nil
    }

    @Test func everyStylePropertyIsEncodedOrDeclaredNeutral() {
        let encoded = Set(Self.encodedNames)
        #expect(encoded.count == Self.encodedNames.count, "a field is encoded twice")
        var warnings: [MeasureWarning] = []
        let sanitized = Sanitizer.style(TextStyle(), warnings: &warnings)
        let owners: [(String, [String])] = [
            ("TextStyle", Self.labels(of: TextStyle())),
            ("SanitizedStyle", Self.labels(of: sanitized)),
            ("FontDescriptor", Self.labels(of: FontDescriptor()).map { "font." + $0 }),
        ]
        for (owner, names) in owners {
            #expect(!names.isEmpty)
            for name in names {
                #expect(Self.isDecided(name, encoded: encoded),
                        "\(owner).\(name) is neither encoded in StyleKeySchema nor declared layout-neutral")
            }
        }
        // An option set is one stored word, encoded whole: every option, present or future,
        // is in the key.
        #expect(Self.labels(of: DrawingOptions.standard) == ["rawValue"])
        #expect(encoded.contains("options"))
        // Nothing is both encoded and declared neutral, and nothing neutral is stale.
        let all = Set(owners.flatMap(\.1))
        for name in StyleKeySchema.layoutNeutral.keys {
            #expect(!encoded.contains(name) && all.contains(name), "\(name)")
        }
    }

    /// The walk itself works: a property missing from both lists is reported.
    @Test func anUndecidedPropertyIsReported() {
        let encoded = Set(Self.encodedNames).subtracting(["compatibility"])
        #expect(!Self.isDecided("compatibility", encoded: encoded))
        #expect(Self.isDecided("alignment", encoded: encoded))
        #expect(Self.isDecided("font", encoded: encoded))
    }

    /// Each encoded field changes the key it goes into (a field named but hashed as a
    /// constant would pass the walk above).
    @Test func everyEncodedFieldChangesTheFingerprint() {
        let base = style15()
        let variants: [String: (inout TextStyle) -> Void] = [
            "font.families": { $0.font.families = ["Noto Sans CJK SC", "Noto Sans"] },
            "font.size": { $0.font.size = 15.5 }, "font.weight": { $0.font.weight = 700 },
            "font.italic": { $0.font.italic = true }, "letterSpacing": { $0.letterSpacing = 0.5 },
            "wordSpacing": { $0.wordSpacing = 3 },
            "compatibility": { $0.compatibility = .pango },
            "lineSpacing": { $0.lineSpacing = 1 }, "minimumLineHeight": { $0.minimumLineHeight = 30 },
            "maximumLineHeight": { $0.maximumLineHeight = 10 }, "lineHeightMultiple": { $0.lineHeightMultiple = 1.2 },
            "paragraphSpacing": { $0.paragraphSpacing = 2 }, "paragraphSpacingBefore": { $0.paragraphSpacingBefore = 2 },
            "tabInterval": { $0.tabInterval = 30 }, "maxLines": { $0.maxLines = 2 },
            "tabStops": { $0.tabStops = [TabStop(location: 40, alignment: .right)] }, "tabSize": { $0.tabSize = .spaces(4) },
            "lineBreakMode": { $0.lineBreakMode = .charWrapping },
            "options": { $0.options.remove(.usesFontLeading) }, "heightLimit": { $0.heightLimit = 100 },
            "truncationToken": { $0.truncationToken = AttributedText("… more") },
            "lineHeightEm": { $0.lineHeightEm = 1.4 },
            "font.width": { $0.font.width = 75 }, "font.features": { $0.font.features = [.noLigatures] },
            "font.variations": { $0.font.variations = [FontVariation("wght", 650)] },
            "font.opticalSizing": { $0.font.opticalSizing.toggle() },
            "firstLineHeadIndent": { $0.firstLineHeadIndent = 12 }, "headIndent": { $0.headIndent = 12 },
            "tailIndent": { $0.tailIndent = -12 },
            // Checked against the chromium profile below (it means nothing elsewhere).
            "indentEachLine": { $0.indentEachLine = true },
            "hyphenation": { $0.hyphenation = Hyphenation.none },
            "hyphenationLanguage": { ($0.hyphenation, $0.language) = (.auto, "en") },
            "hyphenationFactor": { ($0.hyphenationFactor, $0.language) = (0.5, "en") },
            "lineBreak": { $0.lineBreak = .loose }, "wordBreak": { $0.wordBreak = .breakAll },
            "overflowWrap": { $0.overflowWrap = .normal },
            "breakLocale": { ($0.language, $0.lineBreak) = ("ja", .normal) },
            // Checked against the chromium profile below (the only one that balances).
            "balancesLines": { $0.textWrap = .balance },
        ]
        #expect(Set(variants.keys) == Set(Self.encodedNames), "every encoded field needs a variant here")
        let key = engine.resolve(base).layoutFingerprint
        for (name, change) in variants where name != "indentEachLine" && name != "balancesLines" {
            var s = base
            change(&s)
            #expect(engine.resolve(s).layoutFingerprint != key, "\(name) does not change the layout fingerprint")
        }
        // `indentEachLine` splits keys only where it changes a layout: under chromium.
        var chromium = base, chromiumEachLine = base, eachLine = base
        chromium.compatibility = .chromium
        chromiumEachLine.compatibility = .chromium
        chromiumEachLine.indentEachLine = true
        eachLine.indentEachLine = true
        #expect(engine.resolve(chromiumEachLine).layoutFingerprint != engine.resolve(chromium).layoutFingerprint)
        #expect(engine.resolve(eachLine).layoutFingerprint == key)
        var balanced = chromium
        balanced.textWrap = .balance
        #expect(engine.resolve(balanced).layoutFingerprint != engine.resolve(chromium).layoutFingerprint)
        var other = base
        other.compatibility = .chromium
        var pango = base
        pango.compatibility = .pango
        #expect(engine.resolve(other).shapingFingerprint != engine.resolve(pango).shapingFingerprint)
    }
}
