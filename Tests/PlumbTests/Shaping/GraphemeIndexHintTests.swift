@testable import Plumb
import PropertyTesting
import Testing

/// `Shaper.graphemeIndex(containing:in:hint:)` steps forward from the previous glyph's
/// grapheme: it must answer as the binary search does for any order of glyph clusters
/// (ascending in left-to-right runs, descending in right-to-left ones, anything in between).
@Suite struct GraphemeIndexHintTests {
    struct Case: Sendable {
        let lengths: [Int]
        let offsets: [Int]
    }

    static let cases: Gen<Case> = Gen.zip(
        Gen.array(of: Gen.element(of: Array(1...4)), count: 0...40), Gen.array(of: Gen.element(of: Array(0...170)), count: 0...60)
    ).map { Case(lengths: $0.0, offsets: $0.1) }

    static func agrees(_ c: Case) -> Bool {
        var ends: [Int32] = []
        var end: Int32 = 0
        for l in c.lengths { end += Int32(l); ends.append(end) }
        return ends.withUnsafeBufferPointer { e in
            // The offsets as they come, then ascending (a left-to-right run), then descending.
            for order in [c.offsets, c.offsets.sorted(), c.offsets.sorted(by: >)] {
                var hint = 0
                for o in order {
                    let offset = Int32(o % (Int(end) + 2))
                    let got = Shaper.graphemeIndex(containing: offset, in: e, hint: &hint)
                    if got != Shaper.graphemeIndex(containing: offset, in: e) { return false }
                }
            }
            return true
        }
    }

    @Test func hintedSearchAnswersAsTheBinarySearch() {
        let failure = checkProperty("grapheme index hint", Self.cases, iterations: 1_000) { Self.agrees($0) }
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }
}
