#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PropertyTesting
import XCTest

final class ReplayTests: XCTestCase {
    private let gen = Gen.int(in: 0...1_000_000).array(count: 0...10)
    /// Fails rarely (about 1% of elements), so the failing iteration is usually not the first.
    private func property(_ values: [Int]) -> Bool { values.allSatisfy { $0 < 990_000 } }

    func testEnvironmentParsing() {
        XCTAssertEqual(PropertyConfiguration.parseSeed("12345"), 12_345)
        XCTAssertEqual(PropertyConfiguration.parseSeed(" 0x3039\n"), 12_345)
        XCTAssertEqual(PropertyConfiguration.parseSeed("0XFFFFFFFFFFFFFFFF"), .max)
        XCTAssertEqual(PropertyConfiguration.parseSeed("0xdead_beef"), 0xDEAD_BEEF)
        XCTAssertNil(PropertyConfiguration.parseSeed("0x"))
        XCTAssertNil(PropertyConfiguration.parseSeed("seed"))
        XCTAssertNil(PropertyConfiguration.parseSeed("-1"))
        XCTAssertNil(PropertyConfiguration.parseSeed("18446744073709551616"))

        let env = ["PLUMB_PROPERTY_SEED": "0x2a", "PLUMB_PROPERTY_ITERATIONS": "7"]
        XCTAssertEqual(PropertyConfiguration.seed(from: env), 42)
        XCTAssertEqual(PropertyConfiguration.iterations(from: env), 7)
        XCTAssertNil(PropertyConfiguration.iterations(from: ["PLUMB_PROPERTY_ITERATIONS": "0"]))

        let resolved = PropertyConfiguration.resolve(name: "p", iterations: 100, seed: 5, environment: env)
        XCTAssertEqual(resolved.seed, 42, "environment overrides the seed argument")
        XCTAssertEqual(resolved.iterations, 7)
        XCTAssertEqual(PropertyConfiguration.resolve(name: "p", seed: 5, environment: [:]).seed, 5)
        let fallback = PropertyConfiguration.resolve(name: "p", environment: ["PLUMB_PROPERTY_SEED": "junk"])
        XCTAssertEqual(fallback.seed, PropertyConfiguration.defaultSeed(for: "p"))
        XCTAssertEqual(fallback.iterations, 100)
    }

    func testDefaultSeedIsStableAndNameDependent() throws {
        let a = try XCTUnwrap(checkProperty("rare big values", gen, configuration: .resolve(name: "rare big values", environment: [:]), property))
        let b = try XCTUnwrap(checkProperty("rare big values", gen, configuration: .resolve(name: "rare big values", environment: [:]), property))
        XCTAssertEqual(a.seed, SplitMix64.fnv1a("rare big values"))
        XCTAssertEqual(a.original, b.original)
        XCTAssertEqual(a.iteration, b.iteration)
        XCTAssertNotEqual(PropertyConfiguration.defaultSeed(for: "x"), PropertyConfiguration.defaultSeed(for: "y"))
    }

    func testReportedSeedReplaysTheSameCounterexample() throws {
        for runSeed in [1, 2, 0xDEAD_BEEF] as [UInt64] {
            let first = try XCTUnwrap(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: runSeed), property))
            XCTAssertEqual(first.seed, runSeed)

            // 1. via the seed: parameter
            let viaParameter = try XCTUnwrap(checkProperty("replay", gen, seed: first.seed, property))
            // 2. via the environment variable, exactly as printed in the report
            let printed = try XCTUnwrap(first.description.split(separator: "\n")
                .first { $0.contains("replay with PLUMB_PROPERTY_SEED=") })
            let seedText = String(printed.split(separator: "=")[1].split(separator: " ")[0])
            let env = ["PLUMB_PROPERTY_SEED": seedText]
            let viaEnvironment = try XCTUnwrap(checkProperty(
                "replay", gen, configuration: .resolve(name: "replay", seed: 999, environment: env), property))

            // A PLUMB_PROPERTY_SEED set for the whole test run overrides `seed:` by design.
            let processSeed = PropertyConfiguration.seed(from: PropertyConfiguration.processEnvironment())
            XCTAssertEqual(viaParameter.seed, processSeed ?? first.seed)
            for replay in processSeed == nil ? [viaParameter, viaEnvironment] : [viaEnvironment] {
                XCTAssertEqual(replay.original, first.original)
                XCTAssertEqual(replay.shrunk, first.shrunk)
                XCTAssertEqual(replay.iteration, first.iteration)
                XCTAssertEqual(replay.caseSeed, first.caseSeed)
            }
            // 3. the case seed and size rebuild the original value directly
            XCTAssertEqual(gen.generate(seed: first.caseSeed, size: first.size), first.original)
            XCTAssertEqual(gen.replay(first.choices, size: first.size), first.shrunk)
            XCTAssertEqual(first.shrunk, [990_000])
        }
        let other = try XCTUnwrap(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: 3), property))
        let one = try XCTUnwrap(checkProperty("replay", gen, configuration: PropertyConfiguration(seed: 1), property))
        XCTAssertTrue(other.original != one.original || other.caseSeed != one.caseSeed)
    }

    func testProcessEnvironmentOverridesTheSeedArgument() throws {
        #if canImport(Glibc) || canImport(Darwin)
        let saved = getenv("PLUMB_PROPERTY_SEED").map { String(cString: $0) }
        defer {
            if let saved { setenv("PLUMB_PROPERTY_SEED", saved, 1) } else { unsetenv("PLUMB_PROPERTY_SEED") }
        }
        let reference = try XCTUnwrap(checkProperty("env", gen, configuration: PropertyConfiguration(seed: 0xC0FFEE), property))
        setenv("PLUMB_PROPERTY_SEED", "0xc0ffee", 1)
        let replayed = try XCTUnwrap(checkProperty("env", gen, seed: 7, property))
        XCTAssertEqual(replayed.seed, 0xC0FFEE)
        XCTAssertEqual(replayed.original, reference.original)
        XCTAssertEqual(replayed.caseSeed, reference.caseSeed)
        #endif
    }

    func testReportIsReadyToPrint() throws {
        let failure = try XCTUnwrap(checkProperty(
            "no zwsp", Gen.text(maxClusters: 20), configuration: PropertyConfiguration(seed: 0x1234, iterations: 300)
        ) { !$0.unicodeScalars.contains("\u{200B}") })
        XCTAssertEqual(failure.shrunk, "\u{200B}")
        let report = failure.description
        XCTAssertTrue(report.contains("Property 'no zwsp' failed at iteration \(failure.iteration + 1) of 300"), report)
        XCTAssertTrue(report.contains("replay with PLUMB_PROPERTY_SEED=0x1234"), report)
        XCTAssertTrue(report.contains("case seed: 0x\(String(failure.caseSeed, radix: 16))"), report)
        XCTAssertTrue(report.contains("U+200B"), report)
        XCTAssertTrue(report.contains("property returned false"), report)
        XCTAssertTrue(report.contains("\(failure.shrinkSteps) steps"), report)
    }
}
