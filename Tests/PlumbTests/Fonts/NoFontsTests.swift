@testable import Plumb
import Testing

/// Issue 12 item 6: an engine on a machine without fonts answers every call with flagged
/// stand-ins and a clear warning; it never traps. (`Tests/PlumbCLITests/NoFontsCLITests.swift`
/// does the same through fontconfig's environment, `FONTCONFIG_FILE` naming an empty
/// configuration.)
@Suite struct NoFontsTests {
    /// An engine whose fontconfig configuration is empty (no system fonts, no folders).
    static func engineWithoutFonts() -> TextMeasurer {
        let config = TextMeasurer.Configuration()
        return TextMeasurer(configuration: config, fonts: FontResolver(configuration: config.fonts, systemFonts: false))
    }

    @Test func everyCallIsAFlaggedStandInWithAWarning() throws {
        let m = Self.engineWithoutFonts()
        #expect(m.fonts.hasNoFonts)
        #expect(!engine.fonts.hasNoFonts)
        let texts = ["Hello world", "中文字", "🎉", "ภาษาไทย", "a\tb\nc", ""]
        for text in texts {
            let r = m.measure(text, style: style15(), width: 200)
            #expect(r.isFallback && r.warnings.contains(.noFontsAvailable), "\(text)")
            #expect(r.size.width.isFinite && r.size.height.isFinite)
            let layout = m.layout(text, style: style15(), width: 200)
            #expect(layout.measurement.isFallback)
        }
        // HarfBuzz's empty face: half an em per character, an em box per line.
        let hello = m.measure("Hello world", style: style15(), width: 200)
        #expect(hello.size.width == 11 * 7.5 && hello.size.height == 15 && hello.lineCount == 1)
        #expect(m.measure("Hello world", style: style15(), width: 40).lineCount == 2)
        let batch = m.heights(for: texts, style: style15(), width: 200)
        let allFlagged = batch.allSatisfy { $0.isFallback && $0.warnings.contains(.noFontsAvailable) }
        #expect(allFlagged)
        let cells = texts.map { Cell(text: $0, style: TextStyle(families: ["Noto Serif"], size: 20, weight: 700), width: 100) }
        let cellsFallBack = m.heights(for: cells).allSatisfy { $0.isFallback }
        #expect(cellsFallBack)
        #expect(m.layouts(for: cells).allSatisfy { $0.measurement.isFallback })
        #expect(m.cacheStatistics.results.entries == 0)
        #expect(!m.reloadFontsIfChanged())
        #expect(m.fonts.hasNoFonts)
        let report = m.fontReport(families: ["Noto Sans"], text: "a中")
        #expect(report.warnings == [.noFontsAvailable] && report.clusters.allSatisfy(\.isMissing))
    }
}
