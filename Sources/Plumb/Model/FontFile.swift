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
