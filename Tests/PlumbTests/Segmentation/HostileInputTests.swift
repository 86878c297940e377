@testable import Plumb
import Glibc
import Testing

/// Hostile cells: work linear in the cell's size, bounded clusters, a size limit. Growth is
/// checked as a ratio of the calling thread's CPU times for 1× and 8× the input (the best of
/// three each; CPU time, so other tests running meanwhile do not count), never as an absolute
/// time: linear work gives ~8×, the quadratic code this replaced gave ~64×.
@Suite(.serialized) struct HostileInputTests {
    /// The best of three CPU times of `body` on this thread, in seconds.
    func bestTime(_ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            body()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
            best = min(best, Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9)
        }
        return best
    }

    func prepared(_ text: String, _ style: TextStyle = style15()) -> PreparedText {
        let result = engine.compute(text, style: engine.resolve(style), width: 200, scale: 2, extraWarnings: [])
        return result.prepared!
    }

    @Test(arguments: [Compatibility.standard, .pango, .chromium])
    func anUnbreakableWordBreaksInLinearTime(_ profile: Compatibility) {
        var style = style15()
        style.compatibility = profile
        let small = prepared(String(repeating: "x", count: 8_000), style)
        let large = prepared(String(repeating: "x", count: 64_000), style)
        func lines(_ p: PreparedText) -> Int {
            LineBreaker(text: p, maxWidth: 200, policy: .words, tabInterval: 28, lineLimit: .max).lines().count
        }
        var counts = (0, 0)
        let t1 = bestTime { counts.0 = lines(small) }
        let t8 = bestTime { counts.1 = lines(large) }
        // Every line but the last is full: 8× the text is 8× the lines (± the last).
        #expect(abs(counts.1 - 8 * counts.0) <= 8)
        #expect(t8 / t1 < 16, "8× the word took \(t8 / t1)× the time (\(t1) s, \(t8) s)")
    }

    @Test func aSplitWordBreaksAsBefore() {
        // The early exit never changes a line: an overlong word at many widths, cut cluster by
        // cluster, gives lines that each fit and are maximal (the next cluster would not fit).
        let p = prepared("Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen trifft")
        var cuts = 0
        for width in stride(from: 20.0, through: 200, by: 7.5) {
            let lines = LineBreaker(text: p, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: .max).lines()
            for line in lines.dropLast() where line.endsInsideWord {
                cuts += 1
                let next = p.advances[Int(line.graphemeEnd)]
                #expect(line.usedWidth <= width + LineBreaker.tolerance)
                #expect(line.usedWidth + next > width)
            }
        }
        #expect(cuts > 20)
    }

    @Test func aClusterOfManyMarksIsBoundedAndShapesInLinearTime() {
        let small = "e" + String(repeating: "\u{301}", count: 2_000)
        let large = "e" + String(repeating: "\u{301}", count: 16_000)
        // Bounded clusters: 2,001 scalars are ⌈2001 / 32⌉ graphemes.
        let p = prepared(small)
        #expect(p.graphemeEnds.count == (2_001 + TextPreparer.maximumClusterScalars - 1) / TextPreparer.maximumClusterScalars)
        #expect(p.flags.dropFirst().allSatisfy { $0.contains(.continuesCluster) })
        // A fresh engine each time, so nothing is cached.
        func measure(_ text: String) {
            let m = TextMeasurer().measure(text, style: style15(), width: 200)
            #expect(m.height.isFinite && m.height > 0)
        }
        let t1 = bestTime { measure(small) }
        let t8 = bestTime { measure(large) }
        #expect(t8 / t1 < 16, "8× the marks took \(t8 / t1)× the time")
    }

    @Test func realClustersAreNotCut() {
        for text in ["👨‍👩‍👧‍👦", "🏴󠁧󠁢󠁥󠁮󠁧󠁿", "é̃̂", "각"] {
            #expect(prepared(text).graphemeEnds.count == 1, "\(text)")
        }
    }

    @Test func aTextOverTheLimitGetsAFlaggedFallback() {
        var configuration = TextMeasurer.Configuration()
        configuration.maximumTextBytes = 1_000
        let small = TextMeasurer(configuration: configuration)
        let ok = small.measure(String(repeating: "ab ", count: 333), style: style15(), width: 200)
        #expect(!ok.isFallback && ok.lineCount > 1)
        let long = String(repeating: "ab ", count: 334)
        let m = small.measure(long, style: style15(), width: 200)
        #expect(m.isFallback)
        #expect(m.warnings.contains(.textTooLong(bytes: 1_002, limit: 1_000)))
        #expect(m.height == 20.5 && m.lineCount == 0)
        let layout = small.layout(long, style: style15(), width: 200)
        #expect(layout.lines.isEmpty && layout.measurement.isFallback)
    }
}

extension HostileInputTests {
    @Test func aHugeCellGivesItsScratchBack() throws {
        let m = TextMeasurer()
        let small = m.measure("warm up", style: style15(), width: 200)
        let big = m.measure(String(repeating: "word ", count: 40_000), style: style15(), width: 200)
        #expect(big.lineCount > 100)
        m.pool.withPreparer { preparer in
            #expect(preparer.scratch.columns.graphemeEnds.capacity == 0)
            #expect(preparer.scratch.paragraph.scripts.capacity == 0)
        }
        // Measuring goes on as before.
        #expect(m.measure("warm up", style: style15(), width: 200) == small)
        #expect(TextMeasurer().measure(String(repeating: "word ", count: 40_000), style: style15(), width: 200) == big)
    }
}
