/// The container a font file came in.
public enum FontFileFormat: String, Hashable, Sendable, Codable {
    /// TrueType or OpenType, a single face or a TTC/OTC collection.
    case sfnt
    /// WOFF 1.0 (decoded with zlib).
    case woff
    /// WOFF 2.0 (decoded with Google's libwoff2).
    case woff2
}
