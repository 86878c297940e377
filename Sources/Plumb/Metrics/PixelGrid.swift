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
        let nearest = pixels.rounded()
        let snapped = abs(pixels - nearest) <= Self.tolerance ? nearest : pixels.rounded(.up)
        let result = snapped / scale
        return result.isFinite ? result : 0
    }

    /// The nearest grid value (for positions that must line up, e.g. a layout width key).
    @inline(__always)
    func round(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return (value * scale).rounded() / scale
    }
}
