import Synchronization

/// One loaded fontconfig configuration and the faces loaded from it: the state that font
/// matching, per-script preferences and fallback lookups share.
///
/// A `FontResolver` owns one library; every `ResolvedCascade` it hands out keeps a strong
/// reference to it, so a cascade resolved before `TextMeasurer.reloadFontsIfChanged()` keeps
/// working on the fonts it was resolved with for as long as anything holds it (the library
/// holds no cascade, so there is no reference cycle: the old fonts are freed once the last
/// style, prepared text or in-flight batch that uses them is gone).
///
/// - Thread safety: all methods may be called from any thread. fontconfig is not documented
///   as thread-safe, so every call into it is serialised behind one lock; results are cached
///   (timings: Decisions.md, "Timings from code comments").
final class FontLibrary: Sendable {
    /// Matches with a family that is not the one asked for (fontconfig's silent substitution)
    /// count as "not installed" unless the request is one of these generic names.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive",
        "fantasy",
    ]

    struct PreferenceKey: Hashable {
        var family: String
        var weight: Int
        var italic: Bool
        var color: Bool?
    }

    struct SortKey: Hashable {
        var family: String?
        var weight: Int
        var italic: Bool
        var language: String
    }

    private struct State: ~Copyable {
        var config: OpaquePointer
        var fonts: [String: Font] = [:]
        var preferred: [PreferenceKey: Font?] = [:]
        var sorted: [SortKey: SortedFonts] = [:]
    }

    /// RFC 3066 language given to fontconfig when a lookup names none.
    let language: String
    /// Fingerprint of the font set (see `FontResolver.fontSetFingerprint`).
    let fontSetFingerprint: [String]
    private let state: Lock<State>

    /// Loads fontconfig's configuration (as the environment says: `FONTCONFIG_FILE`, …) and
    /// adds the application font folders. Never fails: when fontconfig cannot load its
    /// configuration the library is empty, and every lookup finds no font.
    ///
    /// - Parameter systemFonts: `false` starts from an empty configuration instead (only the
    ///   application folders' fonts; tests use it for a machine without fonts).
    init(language: String, applicationFontDirectories: [String], systemFonts: Bool = true) {
        self.language = language
        let loaded = systemFonts ? Fontconfig.loadConfig() : nil
        let config = loaded ?? Fontconfig.emptyConfig()
        for dir in applicationFontDirectories {
            Fontconfig.addApplicationFontDirectory(dir, to: config)
        }
        fontSetFingerprint = Fontconfig.fontSetFingerprint(config: config)
        state = Lock(State(config: config))
    }

    deinit {
        state.withLock { Fontconfig.destroy(config: $0.config) }
    }

    /// Whether fonts were added or removed on disk since the configuration was loaded.
    var isUpToDate: Bool {
        state.withLock { Fontconfig.isUpToDate(config: $0.config) }
    }

    /// Loads the face fontconfig matches for `family`. With `strict`, a match whose family
    /// differs from the request (fontconfig's silent substitution) counts as "not installed".
    func loadFamily(_ family: String, weight: Int, italic: Bool, strict: Bool) -> Font? {
        state.withLock { state -> Font? in
            guard
                let pattern = Fontconfig.makePattern(
                    family: family, weight: weight, italic: italic, language: language, color: nil)
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

    /// The face of a per-script preference (the CJK family, the emoji family) closest to the
    /// requested weight and slant, as fontconfig matches it; `nil` when the family is not
    /// installed (a color font counts for the emoji preference whatever its name).
    ///
    /// When the family has no face of that weight or slant, fontconfig gives its nearest one
    /// (e.g. Noto Sans CJK SC has no italic: the upright face of the nearest weight).
    func preferredFont(_ family: String, weight: Int, italic: Bool, color: Bool?) -> Font? {
        let key = PreferenceKey(family: family, weight: weight, italic: italic, color: color)
        return state.withLock { state -> Font? in
            if let cached = state.preferred[key] { return cached }
            var font: Font? = nil
            if let pattern = Fontconfig.makePattern(
                family: family, weight: weight, italic: italic, language: language, color: color)
            {
                if let match = Fontconfig.match(config: state.config, pattern: pattern),
                    match.families.contains(where: { $0.familyKey == family.familyKey })
                        || (color == true && match.isColor)
                {
                    font = Self.load(match, into: &state)
                }
                Fontconfig.destroy(pattern: pattern)
            }
            state.preferred[key] = font
            return font
        }
    }

    private static func load(_ match: Fontconfig.Match, into state: inout State) -> Font? {
        let key = "\(match.path)#\(match.faceIndex)"
        if let font = state.fonts[key] { return font }
        guard
            let font = Font(
                id: Font.nextID(), path: match.path, faceIndex: match.faceIndex,
                familyName: match.families.first ?? match.path)
        else { return nil }
        state.fonts[key] = font
        return font
    }

    /// Fontconfig's sorted fallback list for a first family, a weight, a slant and a language
    /// (computed once per combination, cached). Faces of the requested weight and slant sort
    /// before the others of their family.
    func sortedFallbacks(family: String?, weight: Int, italic: Bool, language: String?) -> SortedFonts? {
        let key = SortKey(family: family, weight: weight, italic: italic, language: language ?? self.language)
        return state.withLock { state -> SortedFonts? in
            if let hit = state.sorted[key] { return hit }
            guard
                let pattern = Fontconfig.makePattern(
                    family: family, weight: weight, italic: italic, language: key.language, color: nil)
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
    var familyKey: String {
        String(lowercased().unicodeScalars.filter { $0 != " " })
    }
}
