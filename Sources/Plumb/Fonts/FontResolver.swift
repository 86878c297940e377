import Synchronization

/// Resolves family cascades to loaded fonts and picks a font for every grapheme cluster.
///
/// Families resolve through fontconfig with the language set explicitly (never the process
/// locale). Per cluster: an emoji-presentation cluster tries the color emoji font first; then
/// the cascade in order; then a per-script preference (CJK); then fontconfig's sorted
/// fallback list. A cluster is never split across fonts.
///
/// - Thread safety: all methods may be called from any thread. fontconfig is serialised behind
///   one lock; results are cached (a match costs ~200 µs, a sort ~400 µs).
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
        public init() {}
    }

    struct CascadeKey: Hashable {
        var families: [String]
        var weight: Int
        var italic: Bool
    }

    struct SortKey: Hashable {
        var cascade: CascadeKey
        var language: String
    }

    private struct State: ~Copyable {
        var config: OpaquePointer
        var fonts: [String: Font] = [:]
        var cascades: [CascadeKey: ResolvedCascade] = [:]
        var preferred: [String: Font?] = [:]
        var sorted: [SortKey: SortedFonts] = [:]
    }

    public let configuration: Configuration
    /// Font ids are unique in the process (across resolvers), so caches keyed by font id can
    /// never confuse a font of an old resolver with one of a new resolver.
    static let nextFontID = Atomic<Int>(0)
    /// Fingerprint of the installed font set (path, face index, file size and modification
    /// time of every face): part of every cache salt, so results measured with other fonts are
    /// never served.
    public let fontSetFingerprint: [String]
    private let state: Mutex<State>

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        guard let config = Fontconfig.loadConfig() else {
            fatalError("fontconfig could not load its configuration")
        }
        for dir in configuration.applicationFontDirectories {
            Fontconfig.addApplicationFontDirectory(dir, to: config)
        }
        self.fontSetFingerprint = Fontconfig.fontSetFingerprint(config: config)
        self.state = Mutex(State(config: config))
    }

    deinit {
        state.withLock { Fontconfig.destroy(config: $0.config) }
    }

    /// Whether fonts were added or removed on disk since this resolver was created.
    public var fontsChangedOnDisk: Bool {
        state.withLock { !Fontconfig.isUpToDate(config: $0.config) }
    }

    /// The resolved cascade for a descriptor (cached per families + weight + slant).
    func cascade(for descriptor: FontDescriptor) -> ResolvedCascade {
        let key = CascadeKey(
            families: descriptor.families, weight: descriptor.weight, italic: descriptor.italic)
        if let hit = state.withLock({ $0.cascades[key] }) { return hit }
        let resolved = resolveCascade(key)
        return state.withLock { state in
            if let raced = state.cascades[key] { return raced }
            state.cascades[key] = resolved
            return resolved
        }
    }

    private func resolveCascade(_ key: CascadeKey) -> ResolvedCascade {
        var fonts: [Font] = []
        var warnings: [MeasureWarning] = []
        for family in key.families {
            let name = family.trimmingSpaces
            guard !name.isEmpty else { continue }
            if let font = loadFamily(name, weight: key.weight, italic: key.italic, strict: true) {
                if !fonts.contains(where: { $0 === font }) { fonts.append(font) }
            } else {
                warnings.append(.unknownFontFamily(name))
            }
        }
        if fonts.isEmpty {
            let fallback = configuration.defaultFamily
            if let font = loadFamily(fallback, weight: key.weight, italic: key.italic, strict: false) {
                fonts.append(font)
            } else {
                fatalError("fontconfig found no font at all for '\(fallback)'")
            }
            warnings.append(.cascadeFellBackToDefault(fonts[0].familyName))
        }
        let emoji = preferredFont(configuration.emojiFamily, color: true)
        let cjk = preferredFont(configuration.cjkFamily, color: nil)
        return ResolvedCascade(
            key: key, fonts: fonts, emojiFont: emoji, cjkFont: cjk, warnings: warnings,
            resolver: self)
    }

    private static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive",
        "fantasy",
    ]

    /// Loads the face fontconfig matches for `family`. With `strict`, a match whose family
    /// differs from the request (fontconfig's silent substitution) counts as "not installed".
    private func loadFamily(_ family: String, weight: Int, italic: Bool, strict: Bool) -> Font? {
        state.withLock { state -> Font? in
            guard
                let pattern = Fontconfig.makePattern(
                    family: family, weight: weight, italic: italic,
                    language: configuration.language, color: nil)
            else { return nil }
            defer { Fontconfig.destroy(pattern: pattern) }
            guard let match = Fontconfig.match(config: state.config, pattern: pattern) else {
                return nil
            }
            if strict && !Self.genericFamilies.contains(family.lowercased()) {
                let wanted = family.familyKey
                guard match.families.contains(where: { $0.familyKey == wanted }) else { return nil }
            }
            return Self.load(match, into: &state)
        }
    }

    private func preferredFont(_ family: String, color: Bool?) -> Font? {
        state.withLock { state -> Font? in
            if let cached = state.preferred[family] { return cached }
            var font: Font? = nil
            if let pattern = Fontconfig.makePattern(
                family: family, weight: 400, italic: false, language: configuration.language,
                color: color)
            {
                if let match = Fontconfig.match(config: state.config, pattern: pattern),
                    match.families.contains(where: { $0.familyKey == family.familyKey })
                        || (color == true && match.isColor)
                {
                    font = Self.load(match, into: &state)
                }
                Fontconfig.destroy(pattern: pattern)
            }
            state.preferred[family] = font
            return font
        }
    }

    private static func load(_ match: Fontconfig.Match, into state: inout State) -> Font? {
        let key = "\(match.path)#\(match.faceIndex)"
        if let font = state.fonts[key] { return font }
        guard
            let font = Font(
                id: FontResolver.nextFontID.add(1, ordering: .relaxed).oldValue, path: match.path, faceIndex: match.faceIndex,
                familyName: match.families.first ?? match.path)
        else { return nil }
        state.fonts[key] = font
        return font
    }

    /// Fontconfig's sorted fallback list for a cascade and a language (computed once per
    /// pair, cached). The language is the sample language of the cluster's script (as Pango
    /// does), so Arabic falls back to an Arabic font first, Thai to a Thai font, and so on.
    func sortedFallbacks(for cascade: CascadeKey, language: String?) -> SortedFonts? {
        let key = SortKey(cascade: cascade, language: language ?? configuration.language)
        return state.withLock { state -> SortedFonts? in
            if let hit = state.sorted[key] { return hit }
            guard
                let pattern = Fontconfig.makePattern(
                    family: cascade.families.first, weight: cascade.weight, italic: cascade.italic,
                    language: key.language, color: nil)
            else { return nil }
            defer { Fontconfig.destroy(pattern: pattern) }
            guard let sorted = Fontconfig.sort(config: state.config, pattern: pattern) else {
                return nil
            }
            state.sorted[key] = sorted
            return sorted
        }
    }

    /// Loads (or finds) the `i`-th sorted fallback face if it covers `scalars`.
    func loadSortedFallback(_ sorted: SortedFonts, at i: Int, covering scalars: [Unicode.Scalar])
        -> Font?
    {
        state.withLock { state -> Font? in
            guard let match = sorted.match(at: i, covering: scalars) else { return nil }
            return Self.load(match, into: &state)
        }
    }
}

extension String {
    /// Lowercased with spaces removed, as fontconfig compares family names.
    fileprivate var familyKey: String {
        String(lowercased().unicodeScalars.filter { $0 != " " })
    }
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
