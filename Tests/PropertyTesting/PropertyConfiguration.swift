#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif
import Synchronization

/// How a property run is seeded and sized, resolved from arguments and the environment.
///
/// Resolution order for the seed: `PLUMB_PROPERTY_SEED` (decimal or `0x` hex)
/// if set and valid, else the `seed:` argument, else a stable default derived
/// from the property name (FNV-1a), so CI runs are reproducible.
/// `PLUMB_PROPERTY_ITERATIONS` likewise overrides the iteration count.
public struct PropertyConfiguration: Sendable, Equatable {
    /// Environment variable that overrides the run seed.
    public static let seedVariable = "PLUMB_PROPERTY_SEED"
    /// Environment variable that overrides the iteration count.
    public static let iterationsVariable = "PLUMB_PROPERTY_ITERATIONS"
    /// The largest size hint handed to generators.
    public static let maxSize = 100

    /// The run seed; case seeds are derived from it one per iteration.
    public var seed: UInt64
    /// How many cases to generate.
    public var iterations: Int
    /// Budget of candidate evaluations while shrinking.
    public var maxShrinkAttempts: Int

    /// Creates a configuration directly (no environment lookup).
    public init(seed: UInt64, iterations: Int = 100, maxShrinkAttempts: Int = 2_000) {
        self.seed = seed
        self.iterations = iterations
        self.maxShrinkAttempts = maxShrinkAttempts
    }

    /// Resolves the configuration for property `name` (pure: the environment is passed in).
    ///
    /// - Parameters:
    ///   - name: The property name; its FNV-1a hash is the default seed.
    ///   - iterations: Requested iterations, overridden by `PLUMB_PROPERTY_ITERATIONS`.
    ///   - seed: Requested seed, overridden by `PLUMB_PROPERTY_SEED`.
    ///   - environment: The variables to consult; the process environment by default.
    public static func resolve(
        name: String, iterations: Int = 100, seed: UInt64? = nil,
        environment: [String: String] = processEnvironment()
    ) -> PropertyConfiguration {
        PropertyConfiguration(
            seed: self.seed(from: environment) ?? seed ?? defaultSeed(for: name),
            iterations: self.iterations(from: environment) ?? iterations
        )
    }

    /// The stable default seed for a property name (FNV-1a of its UTF-8 bytes).
    public static func defaultSeed(for name: String) -> UInt64 {
        SplitMix64.fnv1a(name)
    }

    /// The seed requested by `PLUMB_PROPERTY_SEED` in `environment`, if present and parseable.
    public static func seed(from environment: [String: String]) -> UInt64? {
        environment[seedVariable].flatMap(parseSeed)
    }

    /// The iteration count requested by `PLUMB_PROPERTY_ITERATIONS`, if present and positive.
    public static func iterations(from environment: [String: String]) -> Int? {
        guard let text = environment[iterationsVariable], let value = Int(trimmed(text)), value > 0 else {
            return nil
        }
        return value
    }

    /// Parses a seed written in decimal (`12345`) or hex (`0x3039`, `0X3039`);
    /// surrounding whitespace and `_` separators are ignored.
    ///
    /// - Returns: The value, or `nil` if the text is not a valid 64-bit number.
    public static func parseSeed(_ text: String) -> UInt64? {
        let cleaned = trimmed(text).filter { $0 != "_" }
        if cleaned.hasPrefix("0x") || cleaned.hasPrefix("0X") {
            let digits = cleaned.dropFirst(2)
            return digits.isEmpty ? nil : UInt64(digits, radix: 16)
        }
        return UInt64(cleaned, radix: 10)
    }

    /// The size hint for iteration `index`: `min(maxSize, 1 + 2 * index)`, so
    /// early cases are small. It depends only on the index, never on the
    /// iteration count, so a replayed run regenerates identical cases.
    public static func size(forIteration index: Int) -> Int {
        min(maxSize, 1 + 2 * max(0, index))
    }

    /// The case seeds of the first `count` iterations: successive outputs of a
    /// ``SplitMix64`` seeded with the run seed.
    ///
    /// - Complexity: O(count).
    public func caseSeeds(count: Int) -> [UInt64] {
        var generator = SplitMix64(seed: seed)
        return (0..<max(0, count)).map { _ in generator.next() }
    }

    /// Reads the two `PLUMB_PROPERTY_*` variables from the process environment; while
    /// ``withProcessEnvironment(_:_:)`` has them changed, it waits for them to be restored
    /// (unless it is called from that body).
    public static func processEnvironment() -> [String: String] {
        if changingEnvironment { return readProcessEnvironment() }
        return environmentLock.withLock { _ in readProcessEnvironment() }
    }

    /// Runs `body` with the `PLUMB_PROPERTY_*` variables of the process environment set to
    /// `variables` (a `nil` value unsets one), then restores them: for tests of the lookup
    /// itself. Tests run in parallel in one process, so every property run elsewhere that
    /// reads the variables meanwhile waits until they are restored instead of taking the
    /// changed seed; `body` must read them on its own thread.
    ///
    /// - Parameters:
    ///   - variables: Values for ``seedVariable`` and ``iterationsVariable``; other keys are
    ///     ignored.
    ///   - body: Runs with the variables set.
    public static func withProcessEnvironment(_ variables: [String: String?], _ body: () -> Void) {
        environmentLock.withLock { _ in
            let saved = readProcessEnvironment()
            for key in [seedVariable, iterationsVariable] where variables.keys.contains(key) {
                setProcessVariable(key, variables[key] ?? nil)
            }
            $changingEnvironment.withValue(true) { body() }
            for key in [seedVariable, iterationsVariable] where variables.keys.contains(key) {
                setProcessVariable(key, saved[key])
            }
        }
    }

    /// Held while ``withProcessEnvironment(_:_:)`` has the variables changed (it guards no
    /// Swift state, only the process environment, so ThreadSanitizer has nothing to see).
    private static let environmentLock = Mutex<Void>(())
    /// Whether this task is the body of ``withProcessEnvironment(_:_:)`` (which holds the lock).
    @TaskLocal private static var changingEnvironment = false

    private static func setProcessVariable(_ key: String, _ value: String?) {
        #if os(Windows)
        _ = _putenv_s(key, value ?? "")
        #else
        if let value { setenv(key, value, 1) } else { unsetenv(key) }
        #endif
    }

    private static func readProcessEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for key in [seedVariable, iterationsVariable] {
            if let value = getenv(key) {
                environment[key] = String(cString: value)
            }
        }
        return environment
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
