import PropertyTesting
import Testing

/// Serialized: these read the process environment, and one sets `PLUMB_PROPERTY_SEED` in it.
@Suite(.serialized) struct ReplayTests {
    private let gen = Gen.int(in: 0...1_000_000).array(count: 0...10)
    /// Fails rarely (about 1% of elements), so the failing iteration is usually not the first.
    private func property(_ values: [Int]) -> Bool { values.allSatisfy { $0 < 990_000 } }

    @Test func environmentParsing() {
        #expect(PropertyConfiguration.parseSeed("12345") == 12_345)
        #expect(PropertyConfiguration.parseSeed(" 0x3039\n") == 12_345)
        #expect(PropertyConfiguration.parseSeed("0XFFFFFFFFFFFFFFFF") == .max)
        #expect(PropertyConfiguration.parseSeed("0xdead_beef") == 0xDEAD_BEEF)
        #expect(PropertyConfiguration.parseSeed("0x") == nil)
        #expect(PropertyConfiguration.parseSeed("seed") == nil)
        #expect(PropertyConfiguration.parseSeed("-1") == nil)
        #expect(PropertyConfiguration.parseSeed("18446744073709551616") == nil)

        let env = ["PLUMB_PROPERTY_SEED": "0x2a", "PLUMB_PROPERTY_ITERATIONS": "7"]
        #expect(PropertyConfiguration.seed(from: env) == 42)
        #expect(PropertyConfiguration.iterations(from: env) == 7)
        #expect(PropertyConfiguration.iterations(from: ["PLUMB_PROPERTY_ITERATIONS": "0"]) == nil)

        let resolved = PropertyConfiguration.resolve(name: "p", iterations: 100, seed: 5, environment: env)
        #expect(resolved.seed == 42, "environment overrides the seed argument")
        #expect(resolved.iterations == 7)
        #expect(PropertyConfiguration.resolve(name: "p", seed: 5, environment: [:]).seed == 5)
        let fallback = PropertyConfiguration.resolve(name: "p", environment: ["PLUMB_PROPERTY_SEED": "junk"])
        #expect(fallback.seed == PropertyConfiguration.defaultSeed(for: "p"))
        #expect(fallback.iterations == 100)
    }

    @Test func defaultSeedIsStableAndNameDependent() throws {
        let a = try #require(checkProperty("rare big values", gen, configuration: .resolve(name: "rare big values", environment: [:]), property))
        let b = try #require(checkProperty("rare big values", gen, configuration: .resolve(name: "rare big values", environment: [:]), property))
        #expect(a.seed == SplitMix64.fnv1a("rare big values"))
        #expect(a.original == b.original)
        #expect(a.iteration == b.iteration)
        #expect(PropertyConfiguration.defaultSeed(for: "x") != PropertyConfiguration.defaultSeed(for: "y"))
    }

    @Test func reportedSeedReplaysTheSameCounterexample() throws {
        for runSeed in [1, 2, 0xDEAD_BEEF] as [UInt64] {
            let first = try #require(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: runSeed), property))
            #expect(first.seed == runSeed)

            // 1. via the seed: parameter
            let viaParameter = try #require(checkProperty("replay", gen, seed: first.seed, property))
            // 2. via the environment variable, exactly as printed in the report
            let printed = try #require(first.description.split(separator: "\n")
                .first { $0.contains("replay with PLUMB_PROPERTY_SEED=") })
            let seedText = String(printed.split(separator: "=")[1].split(separator: " ")[0])
            let env = ["PLUMB_PROPERTY_SEED": seedText]
            let viaEnvironment = try #require(checkProperty(
                "replay", gen, configuration: .resolve(name: "replay", seed: 999, environment: env), property))

            // A PLUMB_PROPERTY_SEED set for the whole test run overrides `seed:` by design.
            let processSeed = PropertyConfiguration.seed(from: PropertyConfiguration.processEnvironment())
            #expect(viaParameter.seed == processSeed ?? first.seed)
            for replay in processSeed == nil ? [viaParameter, viaEnvironment] : [viaEnvironment] {
                #expect(replay.original == first.original)
                #expect(replay.shrunk == first.shrunk)
                #expect(replay.iteration == first.iteration)
                #expect(replay.caseSeed == first.caseSeed)
            }
            // 3. the case seed and size rebuild the original value directly
            #expect(gen.generate(seed: first.caseSeed, size: first.size) == first.original)
            #expect(gen.replay(first.choices, size: first.size) == first.shrunk)
            #expect(first.shrunk == [990_000])
        }
        let other = try #require(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: 3), property))
        let one = try #require(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: 1), property))
        #expect(other.original != one.original || other.caseSeed != one.caseSeed)
    }

    /// `PLUMB_PROPERTY_SEED` set in the process environment (as `PLUMB_PROPERTY_SEED=… swift
    /// test` sets it) overrides `seed:`. Set and restored under the configuration's lock: the
    /// other suites' property runs, in parallel in this process, never see the changed seed.
    @Test func processEnvironmentOverridesTheSeedArgument() throws {
        let reference = try #require(checkProperty("env", gen, configuration: PropertyConfiguration(seed: 0xC0FFEE), property))
        let before = PropertyConfiguration.processEnvironment()
        var result: PropertyFailure<[Int]>?
        var seen: [String: String] = [:]
        PropertyConfiguration.withProcessEnvironment([PropertyConfiguration.seedVariable: "0xc0ffee"]) {
            seen = PropertyConfiguration.processEnvironment()
            result = checkProperty("env", gen, seed: 7, property)
        }
        #expect(seen[PropertyConfiguration.seedVariable] == "0xc0ffee")
        #expect(PropertyConfiguration.processEnvironment() == before, "restored")
        let replayed = try #require(result)
        #expect(replayed.seed == 0xC0FFEE)
        #expect(replayed.original == reference.original)
        #expect(replayed.caseSeed == reference.caseSeed)
    }

    @Test func reportIsReadyToPrint() throws {
        let failure = try #require(checkProperty(
            "no zwsp", Gen.text(maxClusters: 20), configuration: PropertyConfiguration(seed: 0x1234, iterations: 300)
        ) { !$0.unicodeScalars.contains("\u{200B}") })
        #expect(failure.shrunk == "\u{200B}")
        let report = failure.description
        #expect(report.contains("Property 'no zwsp' failed at iteration \(failure.iteration + 1) of 300"), "\(report)")
        #expect(report.contains("replay with PLUMB_PROPERTY_SEED=0x1234"), "\(report)")
        #expect(report.contains("case seed: 0x\(String(failure.caseSeed, radix: 16))"), "\(report)")
        #expect(report.contains("U+200B"), "\(report)")
        #expect(report.contains("property returned false"), "\(report)")
        #expect(report.contains("\(failure.shrinkSteps) steps"), "\(report)")
    }
}
