/// A CSS font value that does not parse: the property and the offending text.
public struct CSSValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The CSS property, e.g. `font-feature-settings`.
    public var property: String
    /// The item that does not parse.
    public var value: String
    /// One line naming both.
    public var description: String { "\(property): cannot parse '\(value)'" }
}
