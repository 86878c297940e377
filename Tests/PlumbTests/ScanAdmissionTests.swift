@testable import Plumb
import Testing

/// The prepared-text tier resists a sequential scan (issue 16, "a feed that survives
/// rotation"): a feed larger than the tier, laid out at a second width, still finds part of
/// its prepared texts.
@Suite struct ScanAdmissionTests {
    @Test func admitsEverythingUntilFullThenOnlyRepeats() {
        let filter = ScanAdmission(budgetBytes: 1000, fillFraction: 1)
        let keys = (0..<40).map { CacheKey(low: UInt64($0) &* 0x9E37_79B9_7F4A_7C15, high: UInt64($0)) }
        for k in keys[0..<10] { #expect(filter.admits(k, bytes: 100)) }  // 1,000 bytes: full
        for k in keys[10..<40] { #expect(!filter.admits(k, bytes: 100)) }  // a scan: rejected
        for k in keys[10..<40] { #expect(filter.admits(k, bytes: 100)) }  // offered again: admitted
        filter.reset()
        #expect(filter.admits(keys[39], bytes: 100))
    }

    /// 3,000 distinct rows through a 1 MiB prepared tier (a few hundred entries), at one width
    /// and then another: without admission CLOCK evicts every entry before the second pass
    /// asks for it (0 hits); with it the first rows stay.
    @Test func secondWidthOfAScanFindsPreparedTexts() throws {
        var config = TextMeasurer.Configuration()
        config.preparedCacheBytes = 1 << 20
        let m = TextMeasurer(configuration: config)
        let style = TextStyle(families: ["Noto Sans"], size: 15)
        let rows = (0..<3000).map { "row \($0) of a feed that is longer than its cache" }
        _ = try m.heights(for: rows, style: style, width: 320, workers: 1)
        let before = m.cacheStatistics.prepared
        #expect(before.entries < rows.count / 2)
        _ = try m.heights(for: rows, style: style, width: 375, workers: 1)
        let hits = m.cacheStatistics.prepared.hits - before.hits
        #expect(hits >= before.entries / 2, "second width: \(hits) tier-1 hits, \(before.entries) entries")
    }
}
