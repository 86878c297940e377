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
        let first = try m.heights(for: texts, style: style, width: 80)
        let misses = m.cacheStatistics.results.misses
        let hits = m.cacheStatistics.results.hits
        let second = try m.heights(for: texts, style: style, width: 80)
        #expect(m.cacheStatistics.results.misses == misses)
        #expect(m.cacheStatistics.results.hits == hits + texts.count)
        #expect(second == first)
        #expect(first.allSatisfy { $0.warnings == [.unknownFontFamily("SF Pro Text")] && !$0.isFallback })
        let cells = texts.map { Cell(text: $0, style: style, width: 80) }
        #expect(try m.heights(for: cells) == first)
        // A stand-in font (no family of the cascade exists) is still a fallback, never cached.
        let none = m.measure("hello", style: style15(["SF Pro Text"]), width: 80)
        #expect(none.isFallback)
    }
}
