/// The unit of a character offset: what NSRange (UTF-16), byte buffers (UTF-8) or Swift's
/// `unicodeScalars` count.
public enum TextOffsetUnit: String, Hashable, Sendable, CaseIterable {
    /// UTF-16 code units (UIKit's NSRange, JavaScript string indices).
    case utf16
    /// UTF-8 bytes.
    case utf8
    /// Unicode scalars (the CLI's `lineStarts`).
    case scalars
}
