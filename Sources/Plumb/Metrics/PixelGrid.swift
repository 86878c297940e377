#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Snaps sizes up to the device-pixel grid: `ceil(v × scale) / scale`, except that a value
/// within 1e-4 of a device pixel of a grid line stays on that line (so 43.000000001 stays 43
/// at 2× instead of becoming 43.5).
struct PixelGrid: Hashable, Sendable {
    /// Device pixels per point (2 on most iPhones).
    let scale: Double
    /// How close (in device pixels) a value must be to a grid line to count as on it.
    static let tolerance = 1e-4

    init(scale: Double) { self.scale = scale }

    /// The smallest grid value ≥ `value` (up to the tolerance). Non-finite or negative → 0.
    @inline(__always)
    func ceil(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 0 }
        let pixels = value * scale
        let nearest = Self.rounded(pixels)
        let snapped = abs(pixels - nearest) <= Self.tolerance ? nearest : Self.roundedUp(pixels)
        let result = snapped / scale
        return result.isFinite ? result : 0
    }

    /// `x.rounded()` (half away from zero), bit for bit, without libm's `round` where
    /// integer truncation gives it: for 0 < x < 2⁵² truncation is ⌊x⌋ and x − ⌊x⌋ is exact,
    /// so comparing the fraction with ½ decides as `round` does. Elsewhere (≤ 0, huge, NaN)
    /// `x.rounded()` itself. (Swift's `rounded()` calls libm: ~20 instructions and a call.)
    @inline(__always)
    static func rounded(_ x: Double) -> Double {
        guard x > 0, x < 0x1p52 else { return x.rounded() }
        let t = Double(Int64(x))
        return x - t >= 0.5 ? t + 1 : t
    }

    /// `x.rounded(.up)`, bit for bit, by the same truncation where it is exact (0 < x < 2⁵²).
    @inline(__always)
    static func roundedUp(_ x: Double) -> Double {
        guard x > 0, x < 0x1p52 else { return x.rounded(.up) }
        let t = Double(Int64(x))
        return x > t ? t + 1 : t
    }

    /// `x.rounded(.down)`, bit for bit, by the same truncation where it is exact (0 < x < 2⁵²).
    @inline(__always)
    static func roundedDown(_ x: Double) -> Double {
        guard x > 0, x < 0x1p52 else { return x.rounded(.down) }
        return Double(Int64(x))
    }

    /// Widths the engine treats identically snap to the profile's grid (`unit` points,
    /// `LayoutConventions.widthUnit`: Blink's 1/64-px layout unit, Pango's 1/1024-pt unit, or 0
    /// for the device-pixel grid, down: a partial pixel cannot hold ink); widths under one
    /// step are kept as they are. Inlined: every cell's keys start with it (a warm hit too).
    @inline(__always)
    static func snap(_ width: LayoutWidth, scale: Double, unit: Double = 0) -> LayoutWidth {
        guard case .points(let w) = width else { return width }
        let pixels = unit > 0 ? w / unit : w * scale
        guard pixels >= 1, pixels.isFinite else { return width }
        let nearest = PixelGrid.rounded(pixels)
        let snapped = abs(pixels - nearest) <= PixelGrid.tolerance ? nearest : PixelGrid.roundedDown(pixels)
        return .points(unit > 0 ? snapped * unit : snapped / scale)
    }

    /// The nearest grid value (for positions that must line up, e.g. a layout width key).
    @inline(__always)
    func round(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return (value * scale).rounded() / scale
    }
}
