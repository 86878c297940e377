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
}
