@testable import Plumb
import PropertyTesting
import Testing

/// `AdvanceScale.points(units:)` floors FreeType's 16.16 advance by truncation where that is
/// exact; it must give the bits of the formula with `rounded(.down)` everywhere.
@Suite struct AdvanceScaleTests {
    /// The formula as Chromium's FreeType advance was written before (libm's floor).
    static func reference(_ scale: AdvanceScale, _ units: Int32) -> Double {
        let magnitude = ((Double(units.magnitude) * scale.freeTypeXScale + 32) / 64).rounded(.down)
        return max(0, (units < 0 ? -magnitude : magnitude) / 65536 + scale.letterSpacing)
    }

    @Test func freeTypeAdvancesMatchTheFlooredFormula() {
        var rng = SplitMix64(seed: 0xad7a_ce)
        var unitsToTry: [Int32] = [0, 1, -1, 500, -500, 2048, .max, .min, .max - 1, .min + 1]
        for _ in 0..<5_000 { unitsToTry.append(Int32(truncatingIfNeeded: rng.next())) }
        for xScale in [0.0, 1, 65536, 983_040, 3_932_160, 0x1p40, .greatestFiniteMagnitude, .infinity] {
            for spacing in [0.0, -1.5, 2.25] {
                let scale = AdvanceScale(
                    size: 15, upem: 1000, strikePPEM: 0, freeTypeXScale: xScale, letterSpacing: spacing, boxWidth: 0,
                    freeType: true)
                for u in unitsToTry {
                    let got = scale.points(units: u), want = Self.reference(scale, u)
                    #expect(got.bitPattern == want.bitPattern || (got.isNaN && want.isNaN), "units \(u), x_scale \(xScale)")
                }
            }
        }
        // Random x_scales, as sizes and units-per-em give them.
        for _ in 0..<2_000 {
            let xScale = Double(rng.next() % 20_000_000)
            let scale = AdvanceScale(
                size: 15, upem: 1000, strikePPEM: 0, freeTypeXScale: xScale, letterSpacing: 0, boxWidth: 0, freeType: true)
            let u = Int32(truncatingIfNeeded: rng.next() % 5000) - 1000
            #expect(scale.points(units: u).bitPattern == Self.reference(scale, u).bitPattern, "units \(u), x_scale \(xScale)")
        }
    }

    /// The floor without libm: integers, halves (ties round to even inside the sum), one ulp
    /// either side of them, tiny values and the top of the range, then random doubles of
    /// every binade below 2⁵².
    @Test func floorBelow2p52IsTheFloor() {
        var xs: [Double] = [0, .leastNonzeroMagnitude, 0x1p-1074, 1e-300, 0.25, 0.5, 0.75, 0x1p52 - 1, 0x1p52 - 0.5, 0x1p51 + 0.5]
        for k in [1.0, 2, 3, 4, 5, 63, 64, 65, 1023, 1024, 0x1p30, 0x1p31 + 1, 0x1p51, 0x1p51 + 1, 0x1p52 - 2] {
            for x in [k, k + 0.5, k - 0.5, k.nextUp, k.nextDown, (k + 0.5).nextUp, (k + 0.5).nextDown] where x >= 0 && x < 0x1p52 {
                xs.append(x)
            }
        }
        var rng = SplitMix64(seed: 0xf100_7)
        for _ in 0..<20_000 {
            let binade = Double(rng.next() % 53) - 1  // 2⁻¹ … 2⁵¹
            let x = Double(sign: .plus, exponent: Int(binade), significand: 1 + Double(rng.next() >> 12) / 0x1p52)
            if x < 0x1p52 { xs.append(x) }
        }
        for x in xs {
            #expect(AdvanceScale.floorBelow2p52(x).bitPattern == x.rounded(.down).bitPattern, "x = \(x)")
        }
    }
}
