/// The single source of randomness for every generator: it hands out bounded
/// `UInt64` choices and records them so a value can be replayed and shrunk.
///
/// A source works in one of two modes:
/// - **random**: choices come from a seeded ``SplitMix64``;
/// - **replay**: choices come from a given (possibly edited) sequence; when the
///   sequence runs out, every further draw returns 0.
///
/// In both modes the choices actually used (clamped to their bounds) are
/// appended to ``choices``. Because 0 is always the simplest draw, generators
/// are written so that lower choices produce simpler values, and the
/// ``Shrinker`` can minimise any generator — however it was composed — by
/// editing this sequence alone.
///
/// Draws whose only possible value is 0 are not recorded (they carry no information).
public final class ChoiceSource {
    /// The default cap on recorded choices before a case is marked invalid.
    public static let defaultMaxChoices = 100_000

    /// The size hint for this case (0...100 in the runner); generators use it to
    /// keep early cases small.
    public let size: Int

    /// Every choice drawn so far, in order, already clamped to its bound.
    public private(set) var choices: [UInt64] = []

    /// `true` once a generator gave up (e.g. ``Gen/filter(maxAttempts:_:)`` ran
    /// out of attempts) or the choice budget was exhausted; such cases are skipped.
    public private(set) var isInvalid = false

    /// Why the case was marked invalid, if it was.
    public private(set) var invalidReason: String?

    private var generator: SplitMix64
    private let prefix: [UInt64]?
    private let maxChoices: Int

    /// Creates a random-mode source.
    ///
    /// - Parameters:
    ///   - seed: Seeds the internal ``SplitMix64``; equal seeds give equal choices.
    ///   - size: Size hint exposed to generators (clamped to be non-negative).
    ///   - maxChoices: Budget of recorded choices before the case becomes invalid.
    public init(seed: UInt64, size: Int = 100, maxChoices: Int = ChoiceSource.defaultMaxChoices) {
        self.generator = SplitMix64(seed: seed)
        self.prefix = nil
        self.size = max(0, size)
        self.maxChoices = maxChoices
    }

    /// Creates a replay-mode source that returns `prefix` choice by choice,
    /// then zeros once it is exhausted.
    ///
    /// - Parameters:
    ///   - prefix: The choices to replay; each is clamped to the bound of the draw that reads it.
    ///   - size: The size hint the original case was generated with.
    ///   - maxChoices: Budget of recorded choices before the case becomes invalid.
    public init(replaying prefix: [UInt64], size: Int = 100, maxChoices: Int = ChoiceSource.defaultMaxChoices) {
        self.generator = SplitMix64(seed: 0)
        self.prefix = prefix
        self.size = max(0, size)
        self.maxChoices = maxChoices
    }

    /// `true` if this source replays a fixed sequence rather than drawing randomly.
    public var isReplaying: Bool { prefix != nil }

    /// Draws a choice in `0...maxValue` (inclusive).
    ///
    /// In replay mode a recorded value larger than `maxValue` is clamped to it.
    /// - Complexity: O(1) amortised.
    public func draw(upTo maxValue: UInt64) -> UInt64 {
        if maxValue == 0 { return 0 }
        if choices.count >= maxChoices {
            markInvalid("exceeded the budget of \(maxChoices) choices")
            return 0
        }
        let value: UInt64
        if let prefix {
            let index = choices.count
            value = index < prefix.count ? min(prefix[index], maxValue) : 0
        } else if maxValue == .max {
            value = generator.next()
        } else {
            value = generator.next(below: maxValue + 1)
        }
        choices.append(value)
        return value
    }

    /// Draws a choice in `0..<bound`.
    ///
    /// - Parameter bound: Exclusive upper bound; must be at least 1.
    /// - Complexity: O(1) amortised.
    public func draw(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "draw(below:) needs a positive bound")
        return draw(upTo: bound - 1)
    }

    /// Draws an index in `0..<bound`.
    ///
    /// - Parameter bound: Exclusive upper bound; must be at least 1.
    /// - Complexity: O(1) amortised.
    public func draw(below bound: Int) -> Int {
        precondition(bound > 0, "draw(below:) needs a positive bound")
        return Int(draw(upTo: UInt64(bound - 1)))
    }

    /// Flips a biased coin that is `true` with probability `probability`.
    ///
    /// The choice 0 always means `false`, so shrinking turns coins off
    /// (e.g. "stop adding elements"). The probability is quantised to 1/65536
    /// and clamped so that `false` stays possible.
    /// - Complexity: O(1) amortised.
    public func weightedCoin(_ probability: Double) -> Bool {
        let resolution: UInt64 = 1 << 16
        let p = probability.isNaN ? 0 : min(max(probability, 0), 1)
        if p == 0 { return false }
        let falseCount = max(1, min(resolution - 1, UInt64((1 - p) * Double(resolution))))
        return draw(upTo: resolution - 1) >= falseCount
    }

    /// Marks the current case invalid so the runner skips it and the shrinker rejects it.
    ///
    /// - Parameter reason: A short human-readable explanation; the first reason is kept.
    public func markInvalid(_ reason: String) {
        if !isInvalid {
            isInvalid = true
            invalidReason = reason
        }
    }

    /// The probability of continuing a geometric "add one more?" loop so that,
    /// on average, about `min(span / 2, 1 + size / 5)` extra items are produced.
    ///
    /// - Parameter span: How many optional items may still be added.
    /// - Complexity: O(1).
    public func continueProbability(span: Int) -> Double {
        guard span > 0 else { return 0 }
        let average = max(0.25, min(Double(span) / 2, 1 + Double(size) / 5))
        return average / (average + 1)
    }
}
