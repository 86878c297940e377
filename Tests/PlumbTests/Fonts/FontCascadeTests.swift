@testable import Plumb
import Testing

/// Issue 15: a family this machine lacks, and fallback fonts of bold and italic styles.
@Suite struct FontCascadeTests {
    /// iPhone fonts named first in a cross-platform cascade.
    static let cascadeWithMissing = ["SF Pro Text", "Noto Sans", "Noto Sans CJK SC"]

    /// A skipped family is a warning, not a fallback: the result is the rest of the
    /// cascade's, and a second measurement is a cache hit that carries the warning too.
    @Test func aMissingFamilyIsAWarningAndTheResultIsCached() {
        let m = TextMeasurer()
        let style = style15(Self.cascadeWithMissing)
        for text in ["hello world", "Hello, 世界 — a longer line that wraps"] {
            let first = m.measure(text, style: style, width: 120)
            let rest = engine.measure(text, style: style15(["Noto Sans", "Noto Sans CJK SC"]), width: 120)
            #expect(first.size == rest.size && first.lineCount == rest.lineCount)
            #expect(first.warnings == [.unknownFontFamily("SF Pro Text")])
            #expect(!first.isFallback)
            let hits = m.cacheStatistics.results.hits
            let second = m.measure(text, style: style, width: 120)
            #expect(m.cacheStatistics.results.hits == hits + 1)
            #expect(second == first)
            let resolved = m.resolve(style)
            #expect(m.measure(text, style: resolved, width: 120) == first)
        }
    }

    /// The same in batches: every cell measured once, the second batch all hits, warnings kept.
    @Test func batchesCacheResultsOfACascadeWithAMissingFamily() throws {
        let m = TextMeasurer()
        let style = style15(Self.cascadeWithMissing)
        let texts = (0..<40).map { "cell \($0) of a feed" }
        let first = m.heights(for: texts, style: style, width: 80)
        let misses = m.cacheStatistics.results.misses
        let hits = m.cacheStatistics.results.hits
        let second = m.heights(for: texts, style: style, width: 80)
        #expect(m.cacheStatistics.results.misses == misses)
        #expect(m.cacheStatistics.results.hits == hits + texts.count)
        #expect(second == first)
        let allWarned = first.allSatisfy { $0.warnings == [.unknownFontFamily("SF Pro Text")] && !$0.isFallback }
        #expect(allWarned)
        let cells = texts.map { Cell(text: $0, style: style, width: 80) }
        #expect(m.heights(for: cells) == first)
        // A stand-in font (no family of the cascade exists) is still a fallback, never cached.
        let none = m.measure("hello", style: style15(["SF Pro Text"]), width: 80)
        #expect(none.isFallback)
    }

    /// The faces the engine measures a text with (the prepared text's fonts).
    static func faces(_ text: String, _ style: TextStyle) -> [String] {
        let r = engine.compute(text, style: engine.resolve(style), width: 500, scale: 2, extraWarnings: [])
        return (r.prepared?.fonts ?? []).map { String($0.font.path.split(separator: "/").last ?? "") }
    }

    /// Fallback fonts (the CJK preference and fontconfig's fallback list) are asked for the
    /// requested weight and slant: bold Chinese is measured with the bold CJK face.
    @Test func fallbackFontsFollowTheRequestedWeightAndSlant() {
        let bold = engine.fontReport(families: ["Noto Sans"], weight: 700, text: "中aภ")
        #expect(bold.clusters.map { String($0.face.path.split(separator: "/").last ?? "") }
            == ["NotoSansCJK-Bold.ttc", "NotoSans-Bold.ttf", "NotoSansThai-Bold.ttf"])
        #expect(Set(Self.faces("中a ภาษา", TextStyle(families: ["Noto Sans"], size: 15, weight: 700)))
            == ["NotoSans-Bold.ttf", "NotoSansCJK-Bold.ttc", "NotoSansThai-Bold.ttf"])
        #expect(Set(Self.faces("中a ภาษา", TextStyle(families: ["Noto Sans"], size: 15)))
            == ["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc", "NotoSansThai-Regular.ttf"])
        // No italic CJK or Thai face is installed: fontconfig gives the upright face of the
        // requested weight, measured as it is (no synthesised slant or emboldening).
        let boldItalic = engine.fontReport(families: ["Noto Sans"], weight: 700, italic: true, text: "中aภ")
        #expect(boldItalic.clusters.map { String($0.face.path.split(separator: "/").last ?? "") }
            == ["NotoSansCJK-Bold.ttc", "NotoSans-BoldItalic.ttf", "NotoSansThai-Bold.ttf"])
        let italic = engine.fontReport(families: ["Noto Sans"], italic: true, text: "中a")
        #expect(italic.clusters.map { String($0.face.path.split(separator: "/").last ?? "") }
            == ["NotoSansCJK-Regular.ttc", "NotoSans-Italic.ttf"])
    }

    /// The chromium profile falls back as Blink does: the regular upright face whatever the
    /// weight and slant (Blink synthesises bold and oblique, which keeps the regular face's
    /// advances; measured in Chromium 156: bold Thai, Arabic, Hebrew and Devanagari in
    /// 'Noto Sans' are as wide as regular). Fonts of the cascade itself keep the weight.
    @Test func theChromiumProfileFallsBackToRegularFaces() {
        func style(_ weight: Int, italic: Bool = false) -> TextStyle {
            var s = TextStyle(families: ["Noto Sans"], size: 15, weight: weight, italic: italic)
            s.compatibility = .chromium
            return s
        }
        #expect(Set(Self.faces("中a ภาษา", style(700, italic: true)))
            == ["NotoSans-BoldItalic.ttf", "NotoSansCJK-Regular.ttc", "NotoSansThai-Regular.ttf"])
        for text in ["ภาษาไทย", "العربية لغة", "עברית שפה", "हिन्दी भाषा", "中文字かなカナ"] {
            let regular = engine.measure(text, style: style(400), width: 1000, scale: 64)
            #expect(engine.measure(text, style: style(700), width: 1000, scale: 64) == regular, "\(text)")
            #expect(engine.measure(text, style: style(700, italic: true), width: 1000, scale: 64) == regular, "\(text)")
        }
        // Chromium's own widths at 15 px (getBoundingClientRect, the same for 400 and 700).
        #expect(engine.measure("ภาษาไทย", style: style(700), width: 1000, scale: 64).size.width == 53.4375)
        #expect(engine.measure("العربية لغة", style: style(700), width: 1000, scale: 64).size.width == 64.75)
    }
}
