import Synchronization

/// Resolves family cascades to loaded fonts and picks a font for every grapheme cluster.
///
/// Families resolve through fontconfig with the language set explicitly (never the process
/// locale). Per cluster: an emoji-presentation cluster tries the color emoji font first; then
/// the cascade in order; then a per-script preference (CJK); then fontconfig's sorted
/// fallback list. A cluster is never split across fonts.
///
/// - Thread safety: all methods may be called from any thread. fontconfig is serialised behind
///   one lock; results are cached (a match or a sort costs hundreds of microseconds; timings:
///   Decisions.md, "Timings from code comments").
public final class FontResolver: Sendable {
    /// What the resolver prefers when a cascade cannot render a cluster.
    public struct Configuration: Hashable, Sendable {
        /// RFC 3066 language given to fontconfig (e.g. "en", "zh-cn").
        public var language: String = "en"
        /// Family used when no family of a cascade exists.
        public var defaultFamily: String = "sans-serif"
        /// Preferred family for CJK clusters the cascade cannot render.
        public var cjkFamily: String = "Noto Sans CJK SC"
        /// Preferred family for emoji-presentation clusters.
        public var emojiFamily: String = "Noto Color Emoji"
        /// Extra folders of font files the application ships (added to this resolver's
        /// fontconfig configuration only, like `FcConfigAppFontAddDir`).
        public var applicationFontDirectories: [String] = []
        /// Font files and font data the application ships, registered with this resolver only
        /// (``FontFile``): found by family name before the system's fonts. A file that cannot
        /// be used is skipped and reported in ``FontResolver/fontFileErrors``.
        public var fontFiles: [FontFile] = []
        /// The defaults: English, "sans-serif", Noto Sans CJK SC, Noto Color Emoji, no
        /// application fonts.
        public init() {}
    }

    struct CascadeKey: Hashable {
        var families: [String]
        var instance: FontInstance
        /// The query behind the cascade's fallback fonts.
        var fallback: LayoutConventions.FallbackQuery
        var weight: Int { instance.weight }
        var italic: Bool { instance.italic }
    }

    /// The registered fonts that could not be used (missing, unreadable, not a font, a WOFF2
    /// that does not decode), each naming its file; the others are registered.
    public var fontFileErrors: [FontFileError] { library.registry.errors }

    /// Every registered face: its family, the file or data it came from, and its container.
    public var registeredFonts: [(family: String, source: String, format: FontFileFormat)] {
        library.registry.faces.map { ($0.family, $0.source, $0.bytes.format) }
    }

    /// The preferences this resolver was made with.
    public let configuration: Configuration
    /// Process-wide identity of this resolver: a `ResolvedCascade` carries the id of the
    /// resolver that made it, so an engine can tell a style resolved on other fonts (before a
    /// reload, or by another engine) from one of its own.
    let id: Int
    private static let ids = Atomic<Int>(1)
    /// Fingerprint of the installed font set (path, face index, file size and modification
    /// time of every face): part of every cache salt, so results measured with other fonts are
    /// never served.
    public var fontSetFingerprint: [String] { library.fontSetFingerprint }
    /// Whether this resolver has no font at all (fontconfig's configuration is empty, could
    /// not be loaded, or lists no usable font). Such a resolver still answers: every cascade
    /// is HarfBuzz's empty face, every result carries `MeasureWarning.noFontsAvailable` and is
    /// flagged as a fallback (never cached).
    public var hasNoFonts: Bool { defaultFont == nil }
    private let library: FontLibrary
    private let cascades = Lock<[CascadeKey: ResolvedCascade]>([:])
    /// The default family's regular face, loaded once; `nil` when no font can be loaded.
    private let defaultFont: Font?
    /// Shared by every cascade of a resolver without fonts.
    private let standIn: Font

    /// Loads fontconfig's configuration and font list (from its caches: a few milliseconds).
    ///
    /// Never traps: when fontconfig cannot load its configuration, or it lists no font, the
    /// resolver has no fonts (`hasNoFonts`) and every answer is a flagged stand-in.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, systemFonts: true)
    }

    /// - Parameter systemFonts: `false` ignores fontconfig's configuration (only the
    ///   application font folders count): a machine without fonts, for tests.
    init(configuration: Configuration, systemFonts: Bool) {
        self.configuration = configuration
        self.systemFonts = systemFonts
        self.id = Self.ids.add(1, ordering: .relaxed).oldValue
        let library = FontLibrary(
            language: configuration.language,
            applicationFontDirectories: configuration.applicationFontDirectories,
            fontFiles: configuration.fontFiles, systemFonts: systemFonts)
        self.library = library
        // Without the default family (a machine with only registered fonts), the first
        // registered family stands in for it.
        let regular = FontInstance(FontDescriptor(), withOpticalSize: false)
        self.defaultFont = library.loadFamily(configuration.defaultFamily, instance: regular, strict: false)
            ?? library.registry.faces.first.flatMap { library.loadFamily($0.family, instance: regular, strict: true) }
        self.standIn = Font.standIn()
    }

    /// Whether this resolver reads fontconfig's configuration (`false`: application folders only).
    private let systemFonts: Bool

    /// A new resolver of the same configuration, on the fonts on disk now (for a reload).
    func reloaded() -> FontResolver {
        FontResolver(configuration: configuration, systemFonts: systemFonts)
    }

    /// Whether fonts were added or removed on disk since this resolver was created.
    public var fontsChangedOnDisk: Bool { !library.isUpToDate }

    /// The resolved cascade for a descriptor (cached per families and instance: weight, slant,
    /// width, features, variations, and the size only when a face has an optical size axis),
    /// falling back to the fonts `fallback` finds.
    func cascade(for descriptor: FontDescriptor, fallback: LayoutConventions.FallbackQuery = .firstFamily) -> ResolvedCascade {
        let sizeless = cascade(CascadeKey(
            families: descriptor.families, instance: FontInstance(descriptor, withOpticalSize: false), fallback: fallback))
        guard descriptor.opticalSizing, sizeless.hasOpticalSizeAxis else { return sizeless }
        return cascade(CascadeKey(
            families: descriptor.families, instance: FontInstance(descriptor, withOpticalSize: true), fallback: fallback))
    }

    private func cascade(_ key: CascadeKey) -> ResolvedCascade {
        if let hit = cascades.withLock({ $0[key] }) { return hit }
        let resolved = resolveCascade(key)
        return cascades.withLock { cascades in
            if let raced = cascades[key] { return raced }
            cascades[key] = resolved
            return resolved
        }
    }

    private func resolveCascade(_ key: CascadeKey) -> ResolvedCascade {
        guard defaultFont != nil else {
            return ResolvedCascade(
                key: key, fonts: [standIn], emojiFont: nil, cjkFont: nil, regularCJKFont: nil,
                warnings: [.noFontsAvailable], library: library, resolverID: id)
        }
        var fonts: [Font] = []
        var warnings: [MeasureWarning] = []
        for family in key.families {
            let name = family.trimmingSpaces
            guard !name.isEmpty else { continue }
            if let font = library.loadFamily(name, instance: key.instance, strict: true) {
                if !fonts.contains(where: { $0 === font }) { fonts.append(font) }
            } else {
                warnings.append(.unknownFontFamily(name))
            }
        }
        if fonts.isEmpty {
            let fallback = configuration.defaultFamily
            let font = library.loadFamily(fallback, instance: key.instance, strict: false)
                ?? defaultFont ?? standIn
            fonts.append(font)
            warnings.append(.cascadeFellBackToDefault(font.familyName))
        }
        // The per-script preferences ask for the cascade's weight and slant, as fontconfig's
        // fallback list does (bold Chinese is measured with the bold CJK face).
        let emoji = library.preferredFont(configuration.emojiFamily, instance: key.instance, color: true)
        let cjk = library.preferredFont(configuration.cjkFamily, instance: key.instance, color: nil)
        let regular = FontDescriptor.regularWeight
        let regularCJK = key.weight == regular && !key.italic ? cjk
            : library.preferredFont(configuration.cjkFamily, instance: key.instance.with(weight: regular, italic: false), color: nil)
        return ResolvedCascade(
            key: key, fonts: fonts, emojiFont: emoji, cjkFont: cjk, regularCJKFont: regularCJK,
            warnings: warnings,
            library: library, resolverID: id)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
