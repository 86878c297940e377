import PropertyTesting
import Testing

@Suite struct ShrinkingTests {
    @Test func intShrinksToExactBoundary() throws {
        let failure = try #require(checkProperty("n < 37", Gen.int(in: 0...1_000)) { $0 < 37 })
        #expect(failure.original >= 37)
        #expect(failure.shrunk == 37)
        let straddling = try #require(checkProperty("n < 37 signed", Gen.int(in: -1_000...1_000)) { $0 < 37 })
        #expect(straddling.shrunk == 37)
        let negative = try #require(checkProperty("n > -12", Gen.int(in: -1_000...1_000)) { $0 > -12 })
        #expect(negative.shrunk == -12)
    }

    @Test func arraySumShrinksToSingleHundred() throws {
        let gen = Gen.int(in: 0...1_000).array(count: 0...30)
        for seed in 1...10 as ClosedRange<UInt64> {
            let failure = try #require(checkProperty("array sum < 100", gen, seed: seed) { $0.reduce(0, +) < 100 })
            #expect(failure.original.reduce(0, +) >= 100)
            #expect(failure.shrunk == [100], "seed \(seed), original \(failure.original)")
            #expect(failure.shrinkSteps > 0)
        }
    }

    @Test func pairShrinksByRedistribution() throws {
        let gen = Gen.zip(Gen.int(in: 0...1_000), Gen.int(in: 0...1_000))
        let failure = try #require(checkProperty("a + b < 50", gen) { $0.0 + $0.1 < 50 })
        // Shortlex order prefers trailing zeros: (50, 0) is recorded as [50].
        #expect(failure.shrunk.0 == 50)
        #expect(failure.shrunk.1 == 0)
        let triple = Gen.zip(Gen.bool, Gen.int(in: 0...9), Gen.text(maxClusters: 5))
        let quad = Gen.zip(Gen.bool, Gen.int(in: 0...9), Gen.text(maxClusters: 5), Gen.edgyDouble(in: 0...1))
        let t = try #require(checkProperty("never", triple) { _ in false })
        #expect(t.shrunk == (false, 0, ""))
        let q = try #require(checkProperty("never", quad) { _ in false })
        #expect(q.shrunk.0 == false && q.shrunk.1 == 0 && q.shrunk.2 == "" && q.shrunk.3 == 0)
    }

    @Test func stringWithoutXShrinksToShortestXWord() throws {
        let firstXWord = try #require(TextCorpus.asciiWords.first { $0.contains("x") })
        #expect(firstXWord == "six")
        for seed in 1...6 as ClosedRange<UInt64> {
            let failure = try #require(checkProperty("no x", Gen.text(maxClusters: 40), iterations: 500, seed: seed) { !$0.contains("x") })
            #expect(failure.original.contains("x"))
            #expect(failure.shrunk == firstXWord, "seed \(seed), original \(failure.original.debugDescription)")
        }
    }

    @Test func shrinksThroughFlatMapAndFilter() throws {
        let dependent = Gen.int(in: 0...10).flatMap { n in Gen.int(in: 0...100).array(count: n...n) }
        let failure = try #require(checkProperty("count < 3", dependent) { $0.count < 3 })
        #expect(failure.shrunk == [0, 0, 0])

        let even = Gen.int(in: 0...1_000).filter { $0 % 2 == 0 }
        let evenFailure = try #require(checkProperty("even < 101", even) { $0 < 101 })
        #expect(evenFailure.shrunk == 102)

        let mapped = Gen.int(in: 0...1_000).map { "item-\($0)" }
        let mappedFailure = try #require(checkProperty("short", mapped) { $0.count < 8 })
        #expect(mappedFailure.shrunk == "item-100")
    }

    @Test func shrinkerMinimisesRawChoices() {
        let result = Shrinker().shrink([3, 50, 7, 0, 0]) { candidate in
            candidate.contains { $0 >= 10 } ? candidate : nil
        }
        #expect(result.choices == [10])
        #expect(result.steps > 0)
        #expect(result.attempts <= 2_000)

        // Needs the redistribution pass: no single-value edit of [60, 50] keeps the sum >= 100.
        let pair = Shrinker().shrink([60, 50]) { $0.count == 2 && $0[0] + $0[1] >= 100 ? $0 : nil }
        #expect(pair.choices == [0, 100])

        let bounded = Shrinker(maxAttempts: 3).shrink(Array(repeating: 9, count: 40)) { $0.count > 1 ? $0 : nil }
        #expect(bounded.attempts == 3)
    }

    @Test func throwingOverloadReportsTheMessage() throws {
        let failure = try #require(checkProperty("finite", Gen.edgyDouble(in: 0...10)) { (x: Double) in
            try propertyAssert(x.isFinite, "got \(x)")
        })
        #expect(!failure.original.isFinite)
        #expect(failure.message.hasPrefix("got "), "\(failure.message)")
        #expect(!failure.shrunk.isFinite)
    }

    @Test func passingPropertyReturnsNil() {
        let nonNegative = checkProperty("abs is non-negative", Gen.int(in: -1_000...1_000)) { abs($0) >= 0 }
        #expect(nonNegative == nil)
        let fits = checkProperty("text fits", Gen.text(maxClusters: 12), iterations: 200) { (s: String) in
            try propertyAssert(s.count <= 12, "too long: \(s.count)")
        }
        #expect(fits == nil)
    }
}
