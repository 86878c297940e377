/// A composable generator of random test values with integrated shrinking.
///
/// A `Gen` is a function from a ``ChoiceSource`` to a value. Every random
/// decision it makes is a recorded choice, so the exact same value can be
/// rebuilt from the choice sequence, and a *simpler* value can be built from a
/// simpler (shorter / smaller) sequence. That is how `checkProperty`
/// shrinks counterexamples of any generator, including ones built with
/// ``map(_:)``, ``flatMap(_:)``, ``filter(maxAttempts:_:)`` and ``zip(_:_:)``.
///
/// Convention: choice 0 must produce the simplest value (shortest collection,
/// smallest number, first alternative). All built-in generators follow it.
public struct Gen<Value>: Sendable {
    private let body: @Sendable (ChoiceSource) -> Value

    /// Creates a generator from a function that draws its decisions from a ``ChoiceSource``.
    ///
    /// Draw every random decision through `source` (never from another RNG),
    /// and make lower draws mean simpler values, so replay and shrinking work.
    public init(_ body: @escaping @Sendable (ChoiceSource) -> Value) {
        self.body = body
    }

    /// Produces one value by drawing from `source`.
    ///
    /// - Complexity: That of the generator.
    public func run(_ source: ChoiceSource) -> Value {
        body(source)
    }

    /// Produces one value from a fresh random source.
    ///
    /// `generate(seed: caseSeed, size: size)` reproduces exactly the original
    /// counterexample that a ``PropertyFailure`` reports with that case seed and size.
    public func generate(seed: UInt64, size: Int = 100) -> Value {
        run(ChoiceSource(seed: seed, size: size))
    }

    /// Rebuilds a value from a recorded choice sequence (zeros once it runs out).
    ///
    /// - Returns: The value, or `nil` if the generator rejected the choices
    ///   (for example a ``filter(maxAttempts:_:)`` that never succeeded).
    public func replay(_ choices: [UInt64], size: Int = 100) -> Value? {
        let source = ChoiceSource(replaying: choices, size: size)
        let value = run(source)
        return source.isInvalid ? nil : value
    }

    /// Produces `count` values the way the property runner would for a run
    /// seeded with `seed` (case seeds and growing sizes included).
    ///
    /// Handy for eyeballing a generator and for determinism tests.
    /// - Complexity: O(count) generator runs.
    public func sample(count: Int, seed: UInt64) -> [Value] {
        var seeds = SplitMix64(seed: seed)
        return (0..<max(0, count)).map { iteration in
            generate(seed: seeds.next(), size: PropertyConfiguration.size(forIteration: iteration))
        }
    }

    // MARK: Transforming

    /// Transforms every generated value; shrinking still happens on the underlying choices.
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Gen<T> {
        Gen<T> { source in transform(self.run(source)) }
    }

    /// Uses a generated value to choose the next generator (dependent generation).
    ///
    /// The choices of both stages are recorded in one sequence, so shrinking the
    /// first stage re-runs (and re-shrinks) the second.
    public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Gen<T>) -> Gen<T> {
        Gen<T> { source in transform(self.run(source)).run(source) }
    }

    /// Keeps only values satisfying `predicate`, retrying up to `maxAttempts` times.
    ///
    /// If no attempt succeeds the case is marked invalid and skipped by the
    /// runner (the returned value must then be ignored). Prefer constructing
    /// valid values directly; use `filter` for rare rejections only.
    /// - Complexity: Up to `maxAttempts` runs of this generator.
    public func filter(maxAttempts: Int = 100, _ predicate: @escaping @Sendable (Value) -> Bool) -> Gen<Value> {
        Gen { source in
            var value = self.run(source)
            var attempts = 1
            while !predicate(value) {
                if attempts >= maxAttempts || source.isInvalid {
                    source.markInvalid("filter rejected \(attempts) values in a row")
                    return value
                }
                value = self.run(source)
                attempts += 1
            }
            return value
        }
    }

    /// Generates arrays whose elements come from this generator.
    ///
    /// Same as ``Gen/array(of:count:)``.
    public func array(count: ClosedRange<Int>) -> Gen<[Value]> {
        Gen<[Value]>.array(of: self, count: count)
    }

    /// Generates `nil` or a value from this generator (`nil` is the simplest).
    public var optional: Gen<Value?> {
        Gen<Value?> { source in source.draw(below: 4) == 0 ? nil : self.run(source) }
    }

    // MARK: Building

    /// Always produces `value` and draws nothing.
    public static func constant(_ value: Value) -> Gen<Value> where Value: Sendable {
        Gen { _ in value }
    }

    /// Picks one element uniformly; earlier elements are simpler.
    ///
    /// - Precondition: `elements` is not empty.
    /// - Complexity: O(1) per value after an O(n) copy.
    public static func element<C: Collection>(of elements: C) -> Gen<Value>
    where C.Element == Value, Value: Sendable {
        let array = Array(elements)
        precondition(!array.isEmpty, "Gen.element(of:) needs at least one element")
        return Gen { source in array[source.draw(below: array.count)] }
    }

    /// Picks one generator uniformly and runs it; earlier generators are simpler.
    ///
    /// - Precondition: `gens` is not empty.
    public static func oneOf(_ gens: [Gen<Value>]) -> Gen<Value> {
        precondition(!gens.isEmpty, "Gen.oneOf needs at least one generator")
        return Gen { source in gens[source.draw(below: gens.count)].run(source) }
    }

    /// Variadic form of `oneOf(_:)` taking an array.
    public static func oneOf(_ gens: Gen<Value>...) -> Gen<Value> {
        oneOf(gens)
    }

    /// Picks a generator with probability proportional to its weight; earlier entries are simpler.
    ///
    /// Entries with a non-positive weight are never picked.
    /// - Precondition: At least one weight is positive.
    /// - Complexity: O(n) per value in the number of entries.
    public static func frequency(_ weighted: [(Int, Gen<Value>)]) -> Gen<Value> {
        let entries = weighted.filter { $0.0 > 0 }
        let total = entries.reduce(0) { $0 + $1.0 }
        precondition(total > 0, "Gen.frequency needs a positive total weight")
        return Gen { source in
            var pick = source.draw(below: total)
            for (weight, gen) in entries {
                if pick < weight { return gen.run(source) }
                pick -= weight
            }
            return entries[entries.count - 1].1.run(source)
        }
    }

    /// Gives access to the current size hint (0...100, growing with the iteration).
    ///
    /// Use it to keep early cases small: `Gen.sized { n in .int(in: 0...n) }`.
    public static func sized(_ build: @escaping @Sendable (Int) -> Gen<Value>) -> Gen<Value> {
        Gen { source in build(source.size).run(source) }
    }

    /// Generates arrays of `element` values with a length in `count`.
    ///
    /// Beyond `count.lowerBound`, each further element is preceded by an
    /// "add one more?" coin whose odds grow with the size hint, so deleting a
    /// (coin, element) pair during shrinking removes exactly one element and a
    /// zeroed coin truncates the array.
    /// - Precondition: `count.lowerBound >= 0`.
    /// - Complexity: O(length) element generations.
    public static func array<Element>(of element: Gen<Element>, count: ClosedRange<Int>) -> Gen<[Element]>
    where Value == [Element] {
        precondition(count.lowerBound >= 0, "array count must be non-negative")
        return Gen { source in
            var result: [Element] = []
            result.reserveCapacity(count.lowerBound)
            for _ in 0..<count.lowerBound { result.append(element.run(source)) }
            let probability = source.continueProbability(span: count.upperBound - count.lowerBound)
            while result.count < count.upperBound, !source.isInvalid, source.weightedCoin(probability) {
                result.append(element.run(source))
            }
            return result
        }
    }

    /// Combines two generators into a generator of pairs.
    public static func zip<A, B>(_ a: Gen<A>, _ b: Gen<B>) -> Gen<(A, B)> where Value == (A, B) {
        Gen { source in (a.run(source), b.run(source)) }
    }

    /// Combines three generators into a generator of triples.
    public static func zip<A, B, C>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>) -> Gen<(A, B, C)>
    where Value == (A, B, C) {
        Gen { source in (a.run(source), b.run(source), c.run(source)) }
    }

    /// Combines four generators into a generator of 4-tuples.
    public static func zip<A, B, C, D>(_ a: Gen<A>, _ b: Gen<B>, _ c: Gen<C>, _ d: Gen<D>) -> Gen<(A, B, C, D)>
    where Value == (A, B, C, D) {
        Gen { source in (a.run(source), b.run(source), c.run(source), d.run(source)) }
    }
}
