@testable import Plumb
import Testing

/// The prepared-text tier resists a sequential scan (issue 16, "a feed that survives
/// rotation"): a feed larger than the tier, laid out at a second width, still finds part of
/// its prepared texts.
@Suite struct ScanAdmissionTests {
    @Test func admitsOnlyRepeats() {
        let filter = ScanAdmission()
        let keys = (0..<40).map { CacheKey(low: UInt64($0) &* 0x9E37_79B9_7F4A_7C15, high: UInt64($0)) }
        for k in keys { #expect(!filter.seenBefore(k)) }  // a scan: rejected
        for k in keys { #expect(filter.seenBefore(k)) }  // offered again: admitted
        filter.reset()
        #expect(!filter.seenBefore(keys[39]))
    }

    /// A feed just smaller than the tier: its shards fill unevenly, so some overflow. The
    /// second width must find about every text the first left there — no shard evicting, on
    /// each miss, a text the pass has yet to reach (the filter applies where a shard is full,
    /// not only once the whole tier is).
    @Test func aFeedThatNearlyFitsSurvivesASecondWidth() throws {
        var config = TextMeasurer.Configuration()
        config.preparedCacheBytes = 2 << 20
        let style = TextStyle(families: ["Noto Sans"], size: 15)
        let probe = TextMeasurer(configuration: config)
        let empty = probe.cacheStatistics.prepared.bytes  // the shards' fixed bookkeeping
        let sample = (0..<200).map { "row \($0) of a feed that nearly fits its cache" }
        _ = probe.heights(for: sample, style: style, width: 320, workers: 1)
        let perText = Double(probe.cacheStatistics.prepared.bytes - empty) / Double(probe.cacheStatistics.prepared.entries)
        let rows = (0..<Int(Double(config.preparedCacheBytes - empty) / perText * 0.97)).map {
            "row \($0) of a feed that nearly fits its cache"
        }
        let m = TextMeasurer(configuration: config)
        _ = m.heights(for: rows, style: style, width: 320, workers: 1)
        let before = m.cacheStatistics.prepared
        #expect(before.entries < rows.count, "some shards overflow (\(rows.count) rows, \(before.entries) held)")
        _ = m.heights(for: rows, style: style, width: 375, workers: 1)
        let hits = m.cacheStatistics.prepared.hits - before.hits
        #expect(Double(hits) >= 0.97 * Double(before.entries), "second width: \(hits) hits, \(before.entries) held, \(rows.count) rows")
    }

    /// 6,000 distinct rows through a 1 MiB prepared tier (~1,500 entries), at one width
    /// and then another: without admission CLOCK evicts every entry before the second pass
    /// asks for it (0 hits); with it the first rows stay.
    @Test func secondWidthOfAScanFindsPreparedTexts() throws {
        var config = TextMeasurer.Configuration()
        config.preparedCacheBytes = 1 << 20
        let m = TextMeasurer(configuration: config)
        let style = TextStyle(families: ["Noto Sans"], size: 15)
        let rows = (0..<6000).map { "row \($0) of a feed that is longer than its cache" }
        _ = m.heights(for: rows, style: style, width: 320, workers: 1)
        let before = m.cacheStatistics.prepared
        #expect(before.entries < rows.count / 2)
        _ = m.heights(for: rows, style: style, width: 375, workers: 1)
        let hits = m.cacheStatistics.prepared.hits - before.hits
        #expect(hits >= before.entries / 2, "second width: \(hits) tier-1 hits, \(before.entries) entries")
    }
}
