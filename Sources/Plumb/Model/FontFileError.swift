/// A font file or font data that could not be registered, naming it and saying why.
///
/// Registration never fails as a whole: the other fonts are registered, and the engine
/// measures as if this one had not been given.
public struct FontFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a font could not be registered.
    public enum Reason: Error, Hashable, Sendable {
        /// The file cannot be opened or read (`errno`: missing, a directory, no permission).
        case unreadable(errno: Int32)
        /// The bytes are no TrueType, OpenType, collection, WOFF or WOFF2 font.
        case notAFont
        /// A WOFF or WOFF2 file that does not decode (truncated or corrupt).
        case doesNotDecode
        /// The font has no face with glyphs HarfBuzz can use (truncated or corrupt tables).
        case noUsableFace
    }

    /// The file's path, or the name the data was given under.
    public var source: String
    /// Why.
    public var reason: Reason

    /// One line naming the file and the reason.
    public var description: String {
        let why: String
        switch reason {
        case .unreadable(let code): why = "cannot be read (\(Self.describe(errno: code)))"
        case .notAFont: why = "is not a font (no TrueType, OpenType, WOFF or WOFF2 signature)"
        case .doesNotDecode: why = "does not decode (a truncated or corrupt WOFF/WOFF2 file)"
        case .noUsableFace: why = "has no usable face (truncated or corrupt font tables)"
        }
        return "font \(source) \(why)"
    }

    /// The usual reasons a file cannot be read, in words (Linux errno values).
    private static func describe(errno code: Int32) -> String {
        switch code {
        case 2: "no such file"
        case 13: "permission denied"
        case 21: "is a directory"
        case 5: "input/output error"
        default: "errno \(code)"
        }
    }
}
