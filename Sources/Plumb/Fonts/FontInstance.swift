/// How a matched face is instantiated for a style: the weight, slant, width and optical size
/// a variable font's axes are set to, explicit axis settings, and the OpenType features every
/// shaping applies.
///
/// Axes follow CSS Fonts 4 and CoreText: `wght` is the requested weight (450 is 450), `wdth`
/// the width percentage, `opsz` the font size when optical sizing is on, `ital` 1 for an
/// italic request; explicit variations override all of them; every value is clamped to its
/// axis's range, and axes the face lacks are ignored.
struct FontInstance: Hashable, Sendable {
    var weight: Int
    var italic: Bool
    /// The `font-stretch` percentage (100 normal).
    var width: Double
    /// The size (points) the `opsz` axis follows; nil keeps the axis's default.
    var opticalSize: Double?
    var variations: [FontVariation]
    var features: [FontFeature]

    /// The instance a descriptor asks for (the optical size only when `withOpticalSize`:
    /// cascades resolve it only when one of their faces has the axis).
    init(_ d: FontDescriptor, withOpticalSize: Bool) {
        weight = d.weight
        italic = d.italic
        width = d.width
        opticalSize = withOpticalSize && d.opticalSizing ? d.size : nil
        variations = d.variations
        features = d.features
    }

    /// The same instance in another weight and slant (the regular faces fallback uses).
    func with(weight: Int, italic: Bool) -> FontInstance {
        var copy = self
        copy.weight = weight
        copy.italic = italic
        return copy
    }

    /// One variation axis of a face (design units).
    struct Axis: Hashable, Sendable {
        var tag: UInt32
        var minimum: Float
        var defaultValue: Float
        var maximum: Float
    }

    static let wght = Font.tag("wght"), wdth = Font.tag("wdth"), opsz = Font.tag("opsz"), ital = Font.tag("ital")

    /// The design coordinates (one per axis) for `axes`, starting from a named instance's
    /// coordinates when given, else the defaults; `nil` for a face without axes.
    func coordinates(axes: [Axis], namedInstance: [Float]?) -> [Float]? {
        guard !axes.isEmpty else { return nil }
        var coords = namedInstance ?? axes.map(\.defaultValue)
        func set(_ tag: UInt32, _ value: Double) {
            for i in axes.indices where axes[i].tag == tag {
                coords[i] = min(max(Float(value), axes[i].minimum), axes[i].maximum)
            }
        }
        set(Self.wght, Double(weight))
        set(Self.wdth, width)
        if let opticalSize { set(Self.opsz, opticalSize) }
        if italic { set(Self.ital, 1) }
        for v in variations { set(Font.tag(of: v.tag), v.value) }
        return coords
    }
}
