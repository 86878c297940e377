@testable import Plumb
import PropertyTesting
import Testing

/// `ParagraphScratch.forEachScriptChange` skips eight graphemes at a time where none changes
/// (branch `cold5`); it must report what a grapheme-by-grapheme scan reports: the first
/// grapheme and every one whose script differs from the one before, for any paragraph start
/// and any range (runs of every length, changes at word edges).
@Suite struct ScriptChangeScanTests {
    struct Case: Sendable {
        let base: Int
        let runs: [(tag: Int, length: Int)]
        let cut: (Int, Int)
    }

    static let tags: [ScriptTag] = [.neutral, .latin, .han, .thai, ScriptTag("Deva")]

    static let cases: Gen<Case> = Gen.zip(
        Gen.element(of: Array(0..<20)),
        Gen.array(of: Gen.zip(Gen.element(of: Array(0..<5)), Gen.element(of: [1, 1, 2, 3, 7, 8, 9, 15, 16, 17, 40])), count: 1...12),
        Gen.zip(Gen.element(of: Array(0..<30)), Gen.element(of: Array(0..<30)))
    ).map { Case(base: $0.0, runs: $0.1.map { (tag: $0.0, length: $0.1) }, cut: $0.2) }

    func agrees(_ c: Case) -> Bool {
        var scratch = ParagraphScratch()
        defer { scratch.deallocate() }
        scratch.begin(at: c.base)
        for run in c.runs {
            for _ in 0..<run.length { scratch.append(script: Self.tags[run.tag]) }
        }
        let n = c.runs.reduce(0) { $0 + $1.length }
        let lower = c.base + min(c.cut.0, n)
        let upper = max(lower, c.base + n - min(c.cut.1, n))
        var fast: [(Int, ScriptTag)] = []
        scratch.forEachScriptChange(in: lower..<upper) { fast.append(($0, $1)) }
        var slow: [(Int, ScriptTag)] = []
        for g in lower..<upper where g == lower || scratch[g] != scratch[g - 1] { slow.append((g, scratch[g])) }
        return fast.map(\.0) == slow.map(\.0) && fast.map(\.1) == slow.map(\.1)
    }

    @Test func reportsTheChangesAGraphemeByGraphemeScanReports() {
        if let failure = checkProperty("script change scan", Self.cases, iterations: 2_000, agrees) {
            Issue.record("\(failure)")
        }
    }
}
