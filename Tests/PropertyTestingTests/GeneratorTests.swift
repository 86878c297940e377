import PropertyTesting
import XCTest

final class GeneratorTests: XCTestCase {
    func testSplitMix64MatchesReferenceOutput() {
        var generator = SplitMix64(seed: 0)
        XCTAssertEqual(generator.next(), 0xE220_A839_7B1D_CDAF)
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<8).map { _ in a.next() }
        XCTAssertEqual(first, (0..<8).map { _ in b.next() })
        var bounded = SplitMix64(seed: 7)
        for _ in 0..<1_000 { XCTAssertLessThan(bounded.next(below: 10), 10) }
    }

    func testFNV1aMatchesReference() {
        XCTAssertEqual(SplitMix64.fnv1a(""), 0xCBF2_9CE4_8422_2325)
        XCTAssertEqual(SplitMix64.fnv1a("a"), 0xAF63_DC4C_8601_EC8C)
        XCTAssertEqual(PropertyConfiguration.defaultSeed(for: "a"), 0xAF63_DC4C_8601_EC8C)
    }

    func testSameSeedGivesSameValuesAndDifferentSeedsDiffer() {
        let ints = Gen.int(in: -1_000_000...1_000_000).array(count: 0...20)
        XCTAssertEqual(ints.sample(count: 50, seed: 1), ints.sample(count: 50, seed: 1))
        XCTAssertNotEqual(ints.sample(count: 50, seed: 1), ints.sample(count: 50, seed: 2))

        let text = Gen.text(maxClusters: 30)
        XCTAssertEqual(text.sample(count: 50, seed: 9), text.sample(count: 50, seed: 9))
        XCTAssertNotEqual(text.sample(count: 50, seed: 9), text.sample(count: 50, seed: 10))

        let doubles = Gen.edgyDouble(in: 0...500).map(\.bitPattern)
        XCTAssertEqual(doubles.sample(count: 50, seed: 3), doubles.sample(count: 50, seed: 3))
        XCTAssertNotEqual(doubles.sample(count: 50, seed: 3), doubles.sample(count: 50, seed: 4))
    }

    func testReplayingRecordedChoicesRebuildsTheValue() {
        let gen = Gen.zip(Gen.int(in: 1...5), Gen.text(maxClusters: 20))
            .flatMap { n, s in Gen.element(of: ["p", "q"]).array(count: n...n).map { $0.joined() + s } }
        for seed in 0..<50 as Range<UInt64> {
            let source = ChoiceSource(seed: seed, size: 60)
            let value = gen.run(source)
            XCTAssertEqual(gen.replay(source.choices, size: 60), value)
            XCTAssertEqual(gen.generate(seed: seed, size: 60), value)
        }
    }

    func testZeroChoicesGiveTheSimplestValues() {
        XCTAssertEqual(Gen.int(in: -50...50).replay([]), 0)
        XCTAssertEqual(Gen.int(in: 10...50).replay([]), 10)
        XCTAssertEqual(Gen.int(in: -50 ... -10).replay([]), -10)
        XCTAssertEqual(Gen.double(in: -2...3).replay([]), 0)
        XCTAssertEqual(Gen.bool.replay([]), false)
        XCTAssertEqual(Gen.oneOf(.constant("first"), .constant("second")).replay([]), "first")
        XCTAssertEqual(Gen.frequency([(1, .constant(1)), (9, .constant(2))]).replay([]), 1)
        XCTAssertEqual(Gen.int(in: 0...9).array(count: 2...9).replay([]), [0, 0])
        XCTAssertEqual(Gen.text().replay([]), "")
        XCTAssertEqual(Gen.edgyDouble(in: 1...2).replay([]), 1)
        // Replay clamps out-of-range choices instead of crashing.
        XCTAssertEqual(Gen.int(in: 0...9).replay([500]), 9)
    }

    func testIntAndDoubleStayInBounds() {
        let ranges: [ClosedRange<Int>] = [0...0, -5 ... -3, 3...7, -2...9, Int.min...Int.max, Int.min...0, 0...Int.max]
        for range in ranges {
            for value in Gen.int(in: range).sample(count: 300, seed: 5) {
                XCTAssertTrue(range.contains(value), "\(value) outside \(range)")
            }
        }
        let sides = Set(Gen.int(in: -2...9).sample(count: 300, seed: 5).map { $0.signum() })
        XCTAssertEqual(sides, [-1, 0, 1])
        for range: ClosedRange<Double> in [0...1, -1e308...1e308, -3 ... -1, -0.5...2] {
            for value in Gen.double(in: range).sample(count: 300, seed: 6) {
                XCTAssertTrue(range.contains(value), "\(value) outside \(range)")
            }
        }
    }

    func testEdgyDoublesProduceTheEdgeCases() {
        let values = Gen.edgyDouble(in: 0...500).sample(count: 1_000, seed: 11)
        XCTAssertTrue(values.contains { $0.isNaN }, "NaN")
        XCTAssertTrue(values.contains(.infinity), "+inf")
        XCTAssertTrue(values.contains(-.infinity), "-inf")
        XCTAssertTrue(values.contains { $0.isFinite && $0 < 0 }, "negative")
        XCTAssertTrue(values.contains { $0 == 0 && $0.sign == .minus }, "-0")
        XCTAssertTrue(values.contains { $0.isSubnormal }, "subnormal")
        XCTAssertTrue(values.contains(.greatestFiniteMagnitude), "huge")
        let ordinary = values.filter { $0 > 0 && $0 <= 500 && !$0.isSubnormal && $0 != .ulpOfOne && $0 != 1e-300 }
        XCTAssertGreaterThan(ordinary.count, 450, "mostly ordinary values")
    }

    func testFilterRejectsAndMarksInvalid() {
        let even = Gen.int(in: 0...1_000).filter { $0 % 2 == 0 }
        XCTAssertTrue(even.sample(count: 200, seed: 1).allSatisfy { $0 % 2 == 0 })
        let impossible = Gen.int(in: 0...10).filter(maxAttempts: 5) { $0 > 100 }
        let source = ChoiceSource(seed: 1)
        _ = impossible.run(source)
        XCTAssertTrue(source.isInvalid)
        var calls = 0
        XCTAssertNil(checkProperty("impossible filter", impossible, iterations: 20) { _ in calls += 1; return false })
        XCTAssertEqual(calls, 0, "invalid cases are skipped, never tested")
    }

    func testSizeGrowsSoEarlyCasesAreSmall() {
        XCTAssertEqual(PropertyConfiguration.size(forIteration: 0), 1)
        XCTAssertEqual(PropertyConfiguration.size(forIteration: 10), 21)
        XCTAssertEqual(PropertyConfiguration.size(forIteration: 1_000), 100)
        let lengths = Gen.int(in: 0...9).array(count: 0...200).sample(count: 200, seed: 4).map(\.count)
        let early = lengths.prefix(20).reduce(0, +)
        let late = lengths.suffix(20).reduce(0, +)
        XCTAssertLessThan(early * 3, late, "early \(early) vs late \(late)")
        XCTAssertEqual(Gen.sized { Gen.constant($0) }.generate(seed: 0, size: 37), 37)
    }
}
