/// An error a property body throws to fail with an explanation.
///
/// ```swift
/// checkProperty("width is finite", gen) { cell in
///     try propertyAssert(measure(cell).isFinite, "width \(measure(cell)) for \(cell)")
/// }
/// ```
public struct PropertyViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// Creates a violation with an explanatory message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Throws a ``PropertyViolation`` with `message` unless `condition` holds.
///
/// - Parameters:
///   - condition: The expectation.
///   - message: Evaluated only on failure.
public func propertyAssert(_ condition: Bool, _ message: @autoclosure () -> String = "assertion failed") throws {
    if !condition { throw PropertyViolation(message()) }
}

/// A falsified property: the original and the shrunk counterexample plus
/// everything needed to replay it.
///
/// Print ``description`` (e.g. `Issue.record("\(failure)")`) for a
/// ready-made report ending with `replay with PLUMB_PROPERTY_SEED=…`.
public struct PropertyFailure<Value> {
    /// The property name.
    public let name: String
    /// The first failing value generated.
    public let original: Value
    /// The simplest failing value the shrinker found.
    public let shrunk: Value
    /// The run seed; `PLUMB_PROPERTY_SEED=<seed>` (or `seed:`) replays the whole run.
    public let seed: UInt64
    /// The seed of the failing case; `gen.generate(seed: caseSeed, size: size)` rebuilds ``original``.
    public let caseSeed: UInt64
    /// The size hint of the failing case.
    public let size: Int
    /// Zero-based index of the failing iteration.
    public let iteration: Int
    /// The configured number of iterations.
    public let iterations: Int
    /// Number of accepted shrink steps.
    public let shrinkSteps: Int
    /// Number of candidates evaluated while shrinking.
    public let shrinkAttempts: Int
    /// The failure message for the shrunk value (the error's description, or
    /// "property returned false").
    public let message: String
    /// The failure message for the original value.
    public let originalMessage: String
    /// The shrunk choice sequence (`gen.replay(choices, size: size)` rebuilds ``shrunk``).
    public let choices: [UInt64]
}

extension PropertyFailure: Sendable where Value: Sendable {}

extension PropertyFailure: CustomStringConvertible {
    /// A multi-line human-readable report including the replay instructions.
    public var description: String {
        let seedText = "0x" + String(seed, radix: 16)
        var lines = [
            "Property '\(name)' failed at iteration \(iteration + 1) of \(iterations).",
            "  failure: \(message)",
            "  shrunk (\(shrinkSteps) steps, \(shrinkAttempts) attempts): \(describeValue(shrunk))",
            "  original: \(describeValue(original))",
        ]
        if originalMessage != message {
            lines.append("  original failure: \(originalMessage)")
        }
        lines.append("  run seed: \(seedText), case seed: 0x\(String(caseSeed, radix: 16)), size: \(size)")
        lines.append("  replay with PLUMB_PROPERTY_SEED=\(seedText) (or seed: \(seedText))")
        return lines.joined(separator: "\n")
    }
}

/// Renders a value for a report; strings also list their Unicode scalars,
/// because invisible code points (ZWSP, NBSP, U+2028 …) are what matter.
func describeValue(_ value: Any) -> String {
    guard let text = value as? String else { return String(reflecting: value) }
    let scalars = text.unicodeScalars
    var codes = scalars.prefix(48).map { scalar -> String in
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    if scalars.count > 48 { codes.append("…") }
    return "\(text.debugDescription) [\(codes.joined(separator: " "))]"
}

/// Checks that `property` returns `true` for values from `gen`; on failure,
/// shrinks the counterexample and returns a ``PropertyFailure``.
///
/// Discussion: the run seed is `PLUMB_PROPERTY_SEED` if set, else `seed`,
/// else a stable hash of `name`; `PLUMB_PROPERTY_ITERATIONS` overrides
/// `iterations`. Iteration *i* draws from its own case seed with size hint
/// `min(100, 1 + 2i)`, so early cases are small. Cases a generator rejects
/// (see ``Gen/filter(maxAttempts:_:)``) are skipped. A thrown error counts as
/// a failure with the error's description as message.
/// - Returns: `nil` if every case passed.
/// - Complexity: `iterations` generator runs and property calls, plus at most
///   2,000 more while shrinking.
public func checkProperty<T>(
    _ name: String, _ gen: Gen<T>, iterations: Int = 100, seed: UInt64? = nil,
    _ property: (T) throws -> Bool
) -> PropertyFailure<T>? {
    checkProperty(
        name, gen, configuration: .resolve(name: name, iterations: iterations, seed: seed), property)
}

/// Checks that `property` does not throw for values from `gen`; a thrown error
/// (typically a ``PropertyViolation``) is the failure and its description the message.
///
/// Seeding, sizing and shrinking are as in the `Bool` overload.
/// - Returns: `nil` if every case passed.
public func checkProperty<T>(
    _ name: String, _ gen: Gen<T>, iterations: Int = 100, seed: UInt64? = nil,
    _ property: (T) throws -> Void
) -> PropertyFailure<T>? {
    checkProperty(
        name, gen, configuration: .resolve(name: name, iterations: iterations, seed: seed), property)
}

/// `Bool` property check with an explicit configuration (no environment lookup).
///
/// - Returns: `nil` if every case passed.
public func checkProperty<T>(
    _ name: String, _ gen: Gen<T>, configuration: PropertyConfiguration,
    _ property: (T) throws -> Bool
) -> PropertyFailure<T>? {
    runProperty(name, gen, configuration) { value in
        do {
            return try property(value) ? nil : "property returned false"
        } catch {
            return String(describing: error)
        }
    }
}

/// Throwing property check with an explicit configuration (no environment lookup).
///
/// - Returns: `nil` if every case passed.
public func checkProperty<T>(
    _ name: String, _ gen: Gen<T>, configuration: PropertyConfiguration,
    _ property: (T) throws -> Void
) -> PropertyFailure<T>? {
    runProperty(name, gen, configuration) { value in
        do {
            try property(value)
            return nil
        } catch {
            return String(describing: error)
        }
    }
}

/// The shared runner: `evaluate` returns a failure message or `nil` for a pass.
private func runProperty<T>(
    _ name: String, _ gen: Gen<T>, _ configuration: PropertyConfiguration,
    _ evaluate: (T) -> String?
) -> PropertyFailure<T>? {
    var seeds = SplitMix64(seed: configuration.seed)
    for iteration in 0..<max(0, configuration.iterations) {
        let caseSeed = seeds.next()
        let size = PropertyConfiguration.size(forIteration: iteration)
        let source = ChoiceSource(seed: caseSeed, size: size)
        let original = gen.run(source)
        if source.isInvalid { continue }
        guard let originalMessage = evaluate(original) else { continue }

        let result = Shrinker(maxAttempts: configuration.maxShrinkAttempts).shrink(source.choices) { candidate in
            let replay = ChoiceSource(replaying: candidate, size: size)
            let value = gen.run(replay)
            guard !replay.isInvalid, evaluate(value) != nil else { return nil }
            return replay.choices
        }
        // Rebuild the shrunk value once more (properties are assumed deterministic);
        // fall back to the original if it no longer fails.
        var shrunk = original
        var message = originalMessage
        let replay = ChoiceSource(replaying: result.choices, size: size)
        let candidate = gen.run(replay)
        if !replay.isInvalid, let failure = evaluate(candidate) {
            shrunk = candidate
            message = failure
        }
        return PropertyFailure(
            name: name, original: original, shrunk: shrunk, seed: configuration.seed,
            caseSeed: caseSeed, size: size, iteration: iteration,
            iterations: configuration.iterations, shrinkSteps: result.steps,
            shrinkAttempts: result.attempts, message: message, originalMessage: originalMessage,
            choices: result.choices)
    }
    return nil
}
