/// A small, fast, seedable pseudo-random number generator (SplitMix64).
///
/// `SplitMix64` is fully deterministic: the same seed always yields the same
/// sequence of `UInt64` values on every platform and toolchain, which is what
/// makes property-test failures replayable from a printed seed. It is not
/// cryptographically secure.
///
/// Complexity: O(1) per draw.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The internal state; advancing it by the golden-ratio increment produces the next value.
    public private(set) var state: UInt64

    /// Creates a generator whose sequence is completely determined by `seed`.
    ///
    /// - Parameter seed: Any 64-bit value; 0 is a valid seed.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// Returns the next 64 pseudo-random bits.
    ///
    /// Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Returns a uniformly distributed value in `0..<bound` (Lemire's unbiased method).
    ///
    /// Implemented here rather than relying on the standard library's
    /// `next(upperBound:)` so that the mapping from seed to value can never
    /// change with a toolchain update.
    ///
    /// - Parameter bound: The exclusive upper bound; must be greater than 0.
    /// - Complexity: O(1) expected.
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// Mixes a value into a well-distributed 64-bit hash (the SplitMix64 finaliser).
    ///
    /// Useful to derive independent seeds from related inputs.
    /// - Complexity: O(1).
    public static func mix(_ value: UInt64) -> UInt64 {
        var generator = SplitMix64(seed: value)
        return generator.next()
    }

    /// The 64-bit FNV-1a hash of a string's UTF-8 bytes.
    ///
    /// Stable across runs and platforms (unlike `Hasher`), so it is used to
    /// derive a property's default seed from its name.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
