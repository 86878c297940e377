/// The outcome of shrinking a failing choice sequence.
public struct ShrinkResult: Sendable, Equatable {
    /// The simplest failing choice sequence found (canonical: no trailing zeros).
    public let choices: [UInt64]
    /// How many edits were accepted (each one produced a simpler failing case).
    public let steps: Int
    /// How many candidate sequences were evaluated.
    public let attempts: Int
}

/// Minimises a failing choice sequence, Hypothesis style.
///
/// The shrinker knows nothing about values: it edits the recorded
/// ``ChoiceSource`` choices and asks a callback whether the edited sequence
/// still fails. An edit is kept only when the sequence the generator actually
/// consumed is *shortlex smaller* (shorter, or equally long and
/// lexicographically smaller) than the current one, which guarantees
/// termination. Passes, repeated until a fixed point or the attempt budget:
/// 1. delete chunks of 8, 4, 3, 2 and 1 choices (3 suits three-choice elements);
/// 2. zero chunks of 8, 4, 3, 2 and 1 choices;
/// 3. lower each choice (try 0, binary search toward 0, then scan the small values);
/// 4. redistribute: move a choice's whole value onto one of the next 8 choices
///    (turns `[60, 50]` with `sum >= 100` into `[0, 110]`, which deletion then simplifies).
///
/// Complexity: at most ``maxAttempts`` callback invocations.
public struct Shrinker: Sendable {
    /// The budget of candidate evaluations.
    public var maxAttempts: Int

    /// Creates a shrinker.
    ///
    /// - Parameter maxAttempts: Budget of candidate evaluations (default 2,000).
    public init(maxAttempts: Int = 2_000) {
        self.maxAttempts = maxAttempts
    }

    /// Returns `choices` without trailing zeros; replaying either gives the same value
    /// because an exhausted replay draws zeros.
    public static func canonical(_ choices: [UInt64]) -> [UInt64] {
        var result = choices
        while result.last == 0 { result.removeLast() }
        return result
    }

    /// `true` if `lhs` is shortlex-smaller than `rhs` (shorter, or same length and lexicographically smaller).
    public static func isSimpler(_ lhs: [UInt64], than rhs: [UInt64]) -> Bool {
        if lhs.count != rhs.count { return lhs.count < rhs.count }
        return lhs.lexicographicallyPrecedes(rhs)
    }

    /// Shrinks a failing choice sequence.
    ///
    /// - Parameters:
    ///   - initial: A choice sequence known to fail.
    ///   - stillFails: Replays a candidate; returns the choices the generator actually
    ///     recorded if the property still fails (and the case is valid), otherwise `nil`.
    /// - Returns: The simplest failing sequence found, with step and attempt counts.
    /// - Complexity: At most ``maxAttempts`` calls to `stillFails`.
    public func shrink(_ initial: [UInt64], stillFails: ([UInt64]) -> [UInt64]?) -> ShrinkResult {
        var state = State(current: Self.canonical(initial), maxAttempts: maxAttempts)
        var improved = true
        while improved, !state.exhausted {
            improved = false
            if deleteChunks(&state, stillFails) { improved = true }
            if zeroChunks(&state, stillFails) { improved = true }
            if lowerValues(&state, stillFails) { improved = true }
            if redistribute(&state, stillFails) { improved = true }
        }
        return ShrinkResult(choices: state.current, steps: state.steps, attempts: state.attempts)
    }

    // MARK: - Passes

    private struct State {
        var current: [UInt64]
        var maxAttempts: Int
        var steps = 0
        var attempts = 0
        var tried: Set<[UInt64]> = []

        var exhausted: Bool { attempts >= maxAttempts }

        /// Evaluates `candidate`; adopts what the generator recorded if it still fails and is simpler.
        mutating func attempt(_ candidate: [UInt64], _ stillFails: ([UInt64]) -> [UInt64]?) -> Bool {
            let candidate = Shrinker.canonical(candidate)
            guard !exhausted, Shrinker.isSimpler(candidate, than: current) else { return false }
            guard tried.insert(candidate).inserted else { return false }
            attempts += 1
            guard let recorded = stillFails(candidate) else { return false }
            let adopted = Shrinker.canonical(recorded)
            guard Shrinker.isSimpler(adopted, than: current) else { return false }
            current = adopted
            steps += 1
            return true
        }
    }

    private static let chunkSizes = [8, 4, 3, 2, 1]

    private func deleteChunks(_ state: inout State, _ stillFails: ([UInt64]) -> [UInt64]?) -> Bool {
        var improved = false
        for size in Self.chunkSizes {
            var start = state.current.count - size
            while start >= 0, !state.exhausted {
                var candidate = state.current
                candidate.removeSubrange(start..<(start + size))
                if state.attempt(candidate, stillFails) {
                    improved = true
                    start = min(start, state.current.count - size)
                } else {
                    start -= 1
                }
            }
        }
        return improved
    }

    private func zeroChunks(_ state: inout State, _ stillFails: ([UInt64]) -> [UInt64]?) -> Bool {
        var improved = false
        for size in Self.chunkSizes {
            var start = 0
            while start + size <= state.current.count, !state.exhausted {
                if state.current[start..<(start + size)].contains(where: { $0 != 0 }) {
                    var candidate = state.current
                    for index in start..<(start + size) { candidate[index] = 0 }
                    if state.attempt(candidate, stillFails) { improved = true }
                }
                start += 1
            }
        }
        return improved
    }

    private func lowerValues(_ state: inout State, _ stillFails: ([UInt64]) -> [UInt64]?) -> Bool {
        var improved = false
        var index = 0
        while index < state.current.count, !state.exhausted {
            defer { index += 1 }
            let original = state.current[index]
            guard original > 0 else { continue }
            func attempt(_ value: UInt64, _ state: inout State) -> Bool {
                var candidate = state.current
                candidate[index] = value
                return state.attempt(candidate, stillFails)
            }
            if attempt(0, &state) { improved = true; continue }
            // Binary search: `low` passed (or is untested-but-assumed), `high` fails.
            var low: UInt64 = 0
            var high = original
            while high - low > 1, !state.exhausted {
                guard index < state.current.count, state.current[index] == high else { break }
                let middle = low + (high - low) / 2
                if attempt(middle, &state) {
                    improved = true
                    guard index < state.current.count else { break }
                    high = state.current[index]
                } else {
                    low = middle
                }
            }
            // The property need not be monotone: scan the small values exhaustively.
            guard index < state.current.count else { continue }
            var value: UInt64 = 1
            while value < min(state.current[index], 33), !state.exhausted {
                if attempt(value, &state) { improved = true; break }
                value += 1
            }
        }
        return improved
    }

    private func redistribute(_ state: inout State, _ stillFails: ([UInt64]) -> [UInt64]?) -> Bool {
        var improved = false
        var first = 0
        while first < state.current.count, !state.exhausted {
            var second = first + 1
            while second < min(first + 9, state.current.count), !state.exhausted {
                let moved = state.current[first]
                guard moved > 0 else { break }
                var candidate = state.current
                candidate[first] = 0
                let (sum, overflow) = candidate[second].addingReportingOverflow(moved)
                candidate[second] = overflow ? .max : sum
                if state.attempt(candidate, stillFails) { improved = true }
                second += 1
            }
            first += 1
        }
        return improved
    }
}
