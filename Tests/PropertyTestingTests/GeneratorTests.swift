import PropertyTesting
import Testing

@Suite struct GeneratorTests {
    @Test func splitMix64MatchesReferenceOutput() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        var bounded = SplitMix64(seed: 7)
        for _ in 0..<1_000 { #expect(bounded.next(below: 10) < 10) }
    }

    @Test func fnv1aMatchesReference() {
        #expect(SplitMix64.fnv1a("") == 0xCBF2_9CE4_8422_2325)
        #expect(SplitMix64.fnv1a("a") == 0xAF63_DC4C_8601_EC8C)
        #expect(PropertyConfiguration.defaultSeed(for: "a") == 0xAF63_DC4C_8601_EC8C)
    }

    @Test func sameSeedGivesSameValuesAndDifferentSeedsDiffer() {
        let ints = Gen.int(in: -1_000_000...1_000_000).array(count: 0...20)
        #expect(ints.sample(count: 50, seed: 1) == ints.sample(count: 50, seed: 1))
        #expect(ints.sample(count: 50, seed: 1) != ints.sample(count: 50, seed: 2))

        let text = Gen.text(maxClusters: 30)
        #expect(text.sample(count: 50, seed: 9) == text.sample(count: 50, seed: 9))
        #expect(text.sample(count: 50, seed: 9) != text.sample(count: 50, seed: 10))

        let doubles = Gen.edgyDouble(in: 0...500).map(\.bitPattern)
        #expect(doubles.sample(count: 50, seed: 3) == doubles.sample(count: 50, seed: 3))
        #expect(doubles.sample(count: 50, seed: 3) != doubles.sample(count: 50, seed: 4))
    }

    @Test func replayingRecordedChoicesRebuildsTheValue() {
        let gen = Gen.zip(Gen.int(in: 1...5), Gen.text(maxClusters: 20))
            .flatMap { n, s in Gen.element(of: ["p", "q"]).array(count: n...n).map { $0.joined() + s } }
        for seed in 0..<50 as Range<UInt64> {
            let source = ChoiceSource(seed: seed, size: 60)
            let value = gen.run(source)
            #expect(gen.replay(source.choices, size: 60) == value)
            #expect(gen.generate(seed: seed, size: 60) == value)
        }
    }

    @Test func zeroChoicesGiveTheSimplestValues() {
        #expect(Gen.int(in: -50...50).replay([]) == 0)
        #expect(Gen.int(in: 10...50).replay([]) == 10)
        #expect(Gen.int(in: -50 ... -10).replay([]) == -10)
        #expect(Gen.double(in: -2...3).replay([]) == 0)
        #expect(Gen.bool.replay([]) == false)
        #expect(Gen.oneOf(.constant("first"), .constant("second")).replay([]) == "first")
        #expect(Gen.frequency([(1, .constant(1)), (9, .constant(2))]).replay([]) == 1)
        #expect(Gen.int(in: 0...9).array(count: 2...9).replay([]) == [0, 0])
        #expect(Gen.text().replay([]) == "")
        #expect(Gen.edgyDouble(in: 1...2).replay([]) == 1)
        // Replay clamps out-of-range choices instead of crashing.
        #expect(Gen.int(in: 0...9).replay([500]) == 9)
    }

    @Test func intAndDoubleStayInBounds() {
        let ranges: [ClosedRange<Int>] = [0...0, -5 ... -3, 3...7, -2...9, Int.min...Int.max, Int.min...0, 0...Int.max]
        for range in ranges {
            for value in Gen.int(in: range).sample(count: 300, seed: 5) {
                #expect(range.contains(value), "\(value) outside \(range)")
            }
        }
        let sides = Set(Gen.int(in: -2...9).sample(count: 300, seed: 5).map { $0.signum() })
        #expect(sides == [-1, 0, 1])
        for range: ClosedRange<Double> in [0...1, -1e308...1e308, -3 ... -1, -0.5...2] {
            for value in Gen.double(in: range).sample(count: 300, seed: 6) {
                #expect(range.contains(value), "\(value) outside \(range)")
            }
        }
    }

    @Test func edgyDoublesProduceTheEdgeCases() {
        let values = Gen.edgyDouble(in: 0...500).sample(count: 1_000, seed: 11)
        #expect(values.contains { $0.isNaN }, "NaN")
        #expect(values.contains(.infinity), "+inf")
        #expect(values.contains(-.infinity), "-inf")
        #expect(values.contains { $0.isFinite && $0 < 0 }, "negative")
        #expect(values.contains { $0 == 0 && $0.sign == .minus }, "-0")
        #expect(values.contains { $0.isSubnormal }, "subnormal")
        #expect(values.contains(.greatestFiniteMagnitude), "huge")
        let ordinary = values.filter { $0 > 0 && $0 <= 500 && !$0.isSubnormal && $0 != .ulpOfOne && $0 != 1e-300 }
        #expect(ordinary.count > 450, "mostly ordinary values")
    }

    @Test func filterRejectsAndMarksInvalid() {
        let even = Gen.int(in: 0...1_000).filter { $0 % 2 == 0 }
        #expect(even.sample(count: 200, seed: 1).allSatisfy { $0 % 2 == 0 })
        let impossible = Gen.int(in: 0...10).filter(maxAttempts: 5) { $0 > 100 }
        let source = ChoiceSource(seed: 1)
        _ = impossible.run(source)
        #expect(source.isInvalid)
        var calls = 0
        let failure = checkProperty("impossible filter", impossible, iterations: 20) { _ in calls += 1; return false }
        #expect(failure == nil)
        #expect(calls == 0, "invalid cases are skipped, never tested")
    }

    @Test func sizeGrowsSoEarlyCasesAreSmall() {
        #expect(PropertyConfiguration.size(forIteration: 0) == 1)
        #expect(PropertyConfiguration.size(forIteration: 10) == 21)
        #expect(PropertyConfiguration.size(forIteration: 1_000) == 100)
        let lengths = Gen.int(in: 0...9).array(count: 0...200).sample(count: 200, seed: 4).map(\.count)
        let early = lengths.prefix(20).reduce(0, +)
        let late = lengths.suffix(20).reduce(0, +)
        #expect(early * 3 < late, "early \(early) vs late \(late)")
        #expect(Gen.sized { Gen.constant($0) }.generate(seed: 0, size: 37) == 37)
    }
}
