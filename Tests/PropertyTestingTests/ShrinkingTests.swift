import PropertyTesting
import XCTest

final class ShrinkingTests: XCTestCase {
    func testIntShrinksToExactBoundary() throws {
        let failure = try XCTUnwrap(checkProperty("n < 37", Gen.int(in: 0...1_000)) { $0 < 37 })
        XCTAssertGreaterThanOrEqual(failure.original, 37)
        XCTAssertEqual(failure.shrunk, 37)
        let straddling = try XCTUnwrap(checkProperty("n < 37 signed", Gen.int(in: -1_000...1_000)) { $0 < 37 })
        XCTAssertEqual(straddling.shrunk, 37)
        let negative = try XCTUnwrap(checkProperty("n > -12", Gen.int(in: -1_000...1_000)) { $0 > -12 })
        XCTAssertEqual(negative.shrunk, -12)
    }

    func testArraySumShrinksToSingleHundred() throws {
        let gen = Gen.int(in: 0...1_000).array(count: 0...30)
        for seed in 1...10 as ClosedRange<UInt64> {
            let failure = try XCTUnwrap(
                checkProperty("array sum < 100", gen, seed: seed) { $0.reduce(0, +) < 100 })
            XCTAssertGreaterThanOrEqual(failure.original.reduce(0, +), 100)
            XCTAssertEqual(failure.shrunk, [100], "seed \(seed), original \(failure.original)")
            XCTAssertGreaterThan(failure.shrinkSteps, 0)
        }
    }

    func testPairShrinksByRedistribution() throws {
        let gen = Gen.zip(Gen.int(in: 0...1_000), Gen.int(in: 0...1_000))
        let failure = try XCTUnwrap(checkProperty("a + b < 50", gen) { $0.0 + $0.1 < 50 })
        // Shortlex order prefers trailing zeros: (50, 0) is recorded as [50].
        XCTAssertEqual(failure.shrunk.0, 50)
        XCTAssertEqual(failure.shrunk.1, 0)
        let triple = Gen.zip(Gen.bool, Gen.int(in: 0...9), Gen.text(maxClusters: 5))
        let quad = Gen.zip(Gen.bool, Gen.int(in: 0...9), Gen.text(maxClusters: 5), Gen.edgyDouble(in: 0...1))
        let t = try XCTUnwrap(checkProperty("never", triple) { _ in false })
        XCTAssertTrue(t.shrunk == (false, 0, ""))
        let q = try XCTUnwrap(checkProperty("never", quad) { _ in false })
        XCTAssertTrue(q.shrunk.0 == false && q.shrunk.1 == 0 && q.shrunk.2 == "" && q.shrunk.3 == 0)
    }

    func testStringWithoutXShrinksToShortestXWord() throws {
        let firstXWord = try XCTUnwrap(TextCorpus.asciiWords.first { $0.contains("x") })
        XCTAssertEqual(firstXWord, "six")
        for seed in 1...6 as ClosedRange<UInt64> {
            let failure = try XCTUnwrap(
                checkProperty("no x", Gen.text(maxClusters: 40), iterations: 500, seed: seed) { !$0.contains("x") })
            XCTAssertTrue(failure.original.contains("x"))
            XCTAssertEqual(failure.shrunk, firstXWord, "seed \(seed), original \(failure.original.debugDescription)")
        }
    }

    func testShrinksThroughFlatMapAndFilter() throws {
        let dependent = Gen.int(in: 0...10).flatMap { n in Gen.int(in: 0...100).array(count: n...n) }
        let failure = try XCTUnwrap(checkProperty("count < 3", dependent) { $0.count < 3 })
        XCTAssertEqual(failure.shrunk, [0, 0, 0])

        let even = Gen.int(in: 0...1_000).filter { $0 % 2 == 0 }
        let evenFailure = try XCTUnwrap(checkProperty("even < 101", even) { $0 < 101 })
        XCTAssertEqual(evenFailure.shrunk, 102)

        let mapped = Gen.int(in: 0...1_000).map { "item-\($0)" }
        let mappedFailure = try XCTUnwrap(checkProperty("short", mapped) { $0.count < 8 })
        XCTAssertEqual(mappedFailure.shrunk, "item-100")
    }

    func testShrinkerMinimisesRawChoices() {
        let result = Shrinker().shrink([3, 50, 7, 0, 0]) { candidate in
            candidate.contains { $0 >= 10 } ? candidate : nil
        }
        XCTAssertEqual(result.choices, [10])
        XCTAssertGreaterThan(result.steps, 0)
        XCTAssertLessThanOrEqual(result.attempts, 2_000)

        // Needs the redistribution pass: no single-value edit of [60, 50] keeps the sum >= 100.
        let pair = Shrinker().shrink([60, 50]) { $0.count == 2 && $0[0] + $0[1] >= 100 ? $0 : nil }
        XCTAssertEqual(pair.choices, [0, 100])

        let bounded = Shrinker(maxAttempts: 3).shrink(Array(repeating: 9, count: 40)) { $0.count > 1 ? $0 : nil }
        XCTAssertEqual(bounded.attempts, 3)
    }

    func testThrowingOverloadReportsTheMessage() throws {
        let failure = try XCTUnwrap(checkProperty("finite", Gen.edgyDouble(in: 0...10)) { (x: Double) in
            try propertyAssert(x.isFinite, "got \(x)")
        })
        XCTAssertFalse(failure.original.isFinite)
        XCTAssertTrue(failure.message.hasPrefix("got "), failure.message)
        XCTAssertFalse(failure.shrunk.isFinite)
    }

    func testPassingPropertyReturnsNil() {
        XCTAssertNil(checkProperty("abs is non-negative", Gen.int(in: -1_000...1_000)) { abs($0) >= 0 })
        XCTAssertNil(checkProperty("text fits", Gen.text(maxClusters: 12), iterations: 200) { (s: String) in
            try propertyAssert(s.count <= 12, "too long: \(s.count)")
        })
    }
}
