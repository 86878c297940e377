/// A font the application ships, registered with one engine (``FontResolver/Configuration``):
/// a file, or font data in memory. TrueType, OpenType, TTC/OTC collections, WOFF and WOFF2.
///
/// A registered family is found by its name in any cascade before the system's fonts, so it
/// overrides an installed family of the same name; it is not used as a fallback for text its
/// cascade does not name (as `@font-face` fonts in a browser). Its identity in cache keys is
/// the hash of its bytes, so a changed file never returns an old answer.
public struct FontFile: Hashable, Sendable {
    /// Where the font comes from.
    public enum Source: Hashable, Sendable {
        /// A file, read whole when the engine is made (never mapped).
        case path(String)
        /// Font bytes, with a name for messages.
        case data([UInt8], name: String)
    }

    /// Where the font comes from.
    public var source: Source
    /// The family name to register the font under instead of its own (`@font-face`'s
    /// `font-family`); nil uses the names in the font (typographic and legacy family).
    public var family: String?

    /// The font file at `path`.
    public static func path(_ path: String, family: String? = nil) -> FontFile {
        FontFile(source: .path(path), family: family)
    }

    /// Font bytes in memory (`name` appears in messages and in ``FontReport``).
    public static func data(_ bytes: [UInt8], name: String, family: String? = nil) -> FontFile {
        FontFile(source: .data(bytes, name: name), family: family)
    }

    /// The path, or the data's name.
    public var name: String {
        switch source {
        case .path(let p): p
        case .data(_, let name): name
        }
    }
}

/// The container a font file came in.
public enum FontFileFormat: String, Hashable, Sendable, Codable {
    /// TrueType or OpenType, a single face or a TTC/OTC collection.
    case sfnt
    /// WOFF 1.0 (decoded with zlib).
    case woff
    /// WOFF 2.0 (decoded with Google's libwoff2).
    case woff2
}

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
