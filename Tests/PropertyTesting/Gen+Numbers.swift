extension Gen where Value == Bool {
    /// `false` or `true` with equal odds; `false` is the simpler value.
    public static var bool: Gen<Bool> {
        Gen { source in source.draw(below: 2) == 1 }
    }
}

extension Gen where Value == Int {
    /// Uniform integers in `range`, shrinking toward the value closest to 0.
    ///
    /// For ranges that straddle 0 a sign coin (weighted by the sizes of the two
    /// sides, non-negative is simpler) is drawn first, then a magnitude, so
    /// shrinking moves toward 0 from either side. Otherwise the offset from the
    /// bound nearest to 0 is drawn. Works for the full `Int.min...Int.max`.
    /// - Complexity: O(1) per value.
    public static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        let lower = range.lowerBound
        let upper = range.upperBound
        if lower >= 0 {
            let span = UInt64(upper - lower)
            return Gen { source in lower + Int(source.draw(upTo: span)) }
        }
        if upper <= 0 {
            let span = UInt64(lower.magnitude) - UInt64(upper.magnitude)
            return Gen { source in
                Int(truncatingIfNeeded: UInt64(bitPattern: Int64(upper)) &- source.draw(upTo: span))
            }
        }
        let negativeSpan = UInt64(lower.magnitude)
        let positiveSpan = UInt64(upper)
        let negativeOdds = Double(negativeSpan) / (Double(negativeSpan) + Double(positiveSpan))
        return Gen { source in
            if source.weightedCoin(negativeOdds) {
                return Int(truncatingIfNeeded: 0 &- source.draw(upTo: negativeSpan))
            }
            return Int(source.draw(upTo: positiveSpan))
        }
    }
}

extension Gen where Value == Double {
    /// Uniform-ish finite doubles in `range`, shrinking toward the value closest to 0.
    ///
    /// A 53-bit fraction is drawn and scaled onto the side(s) of the range, so
    /// both bounds are reachable. Straddling ranges draw a sign coin first
    /// (non-negative is simpler).
    /// - Precondition: Both bounds are finite.
    /// - Complexity: O(1) per value.
    public static func double(in range: ClosedRange<Double>) -> Gen<Double> {
        let lower = range.lowerBound
        let upper = range.upperBound
        precondition(lower.isFinite && upper.isFinite, "Gen.double(in:) needs finite bounds")
        let unit: Double = 9_007_199_254_740_992  // 2^53
        @Sendable func fraction(_ source: ChoiceSource) -> Double {
            Double(source.draw(upTo: 1 << 53)) / unit
        }
        if lower >= 0 {
            return Gen { source in
                let f = fraction(source)
                return min(upper, max(lower, lower + f * (upper - lower)))
            }
        }
        if upper <= 0 {
            return Gen { source in
                let f = fraction(source)
                return min(upper, max(lower, upper - f * (upper - lower)))
            }
        }
        let negativeOdds = (-lower / 2) / (-lower / 2 + upper / 2)
        return Gen { source in
            if source.weightedCoin(negativeOdds) {
                return max(lower, -(fraction(source) * -lower))
            }
            return min(upper, fraction(source) * upper)
        }
    }

    /// Doubles that are usually ordinary values in `range` but sometimes the
    /// values numeric code forgets: NaN, +∞, −∞, 0, −0, negatives, tiny
    /// (subnormal, least normal, 1e-300) and huge (greatest finite, 1e300, 2^53+2) magnitudes.
    ///
    /// About 60% of draws are ordinary; the special values deliberately ignore
    /// `range`. The ordinary branch is the simplest, so shrinking prefers it.
    /// - Precondition: Both bounds are finite.
    public static func edgyDouble(in range: ClosedRange<Double>) -> Gen<Double> {
        let ordinary = Gen.double(in: range)
        let negative = ordinary.map { value -> Double in
            if value > 0 { return -value }
            if value < 0 { return value }
            return -1
        }
        let tiny: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, .ulpOfOne,
            -.leastNonzeroMagnitude, -1e-300,
        ]
        let huge: [Double] = [
            .greatestFiniteMagnitude, 1e300, 9_007_199_254_740_994, 1e18,
            -.greatestFiniteMagnitude, -1e300,
        ]
        return Gen.frequency([
            (60, ordinary),
            (4, .constant(0)),
            (3, .constant(-0.0)),
            (8, negative),
            (5, .element(of: tiny)),
            (5, .element(of: huge)),
            (5, .constant(.infinity)),
            (5, .constant(-.infinity)),
            (5, .constant(.nan)),
        ])
    }
}
