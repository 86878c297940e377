@testable import Plumb
import Testing

/// The result tier's counters say what was measured (issue 15, item 6).
@Suite struct BatchStatisticsTests {
    /// A batch of identical cells is one miss (one measurement) and hits for the rest, at any
    /// worker count; a second batch is all hits. The width-range probe is not a lookup.
    @Test(arguments: [1, 2, 4]) func duplicatesInABatchAreOneMiss(workers: Int) throws {
        let m = TextMeasurer()
        _ = m.heights(for: Array(repeating: "Hello, world", count: 1000) + ["other"], style: style15(),
                          width: 200, workers: workers)
        var s = m.cacheStatistics.results
        #expect(s.misses == 2)
        #expect(s.hits == 999)
        _ = m.heights(for: Array(repeating: "Hello, world", count: 500), style: style15(), width: 200, workers: workers)
        s = m.cacheStatistics.results
        #expect(s.misses == 2)
        #expect(s.hits == 1499)
        // A new width of a known text: one miss (answered from the width-range entry).
        _ = m.measure("Hello, world", style: style15(), width: 300)
        #expect(m.cacheStatistics.results.misses == 3)
    }

    /// Bytes in use are the entries' bytes; the table's allocation is reported apart.
    @Test func bytesInUseAndAllocated() {
        let m = TextMeasurer()
        #expect(m.resultTableBytes.inUse == 0)
        _ = m.measure("Hello", style: style15(), width: 100)
        let bytes = m.resultTableBytes
        #expect(bytes.inUse == 2 * ResultCache.entryBytes)  // result + width-range entry
        #expect(bytes.allocated == m.cacheStatistics.results.bytes)
        #expect(bytes.allocated > bytes.inUse)
    }
}
