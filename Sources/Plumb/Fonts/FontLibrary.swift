internal import CHarfBuzz
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
        var instance: FontInstance
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
        /// Font files read so far, by path (each read once, kept in memory).
        var files: [String: FontBytes?] = [:]
        /// The variation axes of each face loaded so far, by `path#index`.
        var axes: [String: [FontInstance.Axis]] = [:]
        var preferred: [PreferenceKey: Font?] = [:]
        var sorted: [SortKey: SortedFonts] = [:]
    }

    /// RFC 3066 language given to fontconfig when a lookup names none.
    let language: String
    /// Fingerprint of the font set (see `FontResolver.fontSetFingerprint`).
    let fontSetFingerprint: [String]
    /// The fonts the application registered with this engine.
    let registry: FontRegistry
    private let state: Lock<State>

    /// Loads fontconfig's configuration (as the environment says: `FONTCONFIG_FILE`, …) and
    /// adds the application font folders. Never fails: when fontconfig cannot load its
    /// configuration the library is empty, and every lookup finds no font.
    ///
    /// - Parameter systemFonts: `false` starts from an empty configuration instead (only the
    ///   application folders' fonts; tests use it for a machine without fonts).
    init(language: String, applicationFontDirectories: [String], fontFiles: [FontFile] = [], systemFonts: Bool = true) {
        self.language = language
        let loaded = systemFonts ? Fontconfig.loadConfig() : nil
        let config = loaded ?? Fontconfig.emptyConfig()
        for dir in applicationFontDirectories {
            Fontconfig.addApplicationFontDirectory(dir, to: config)
        }
        registry = FontRegistry(fontFiles)
        fontSetFingerprint = Fontconfig.fontSetFingerprint(config: config) + registry.fingerprint.map { "registered:" + $0 }
        state = Lock(State(config: config))
    }

    deinit {
        state.withLock { Fontconfig.destroy(config: $0.config) }
    }

    /// Whether fonts were added or removed on disk since the configuration was loaded.
    var isUpToDate: Bool {
        state.withLock { Fontconfig.isUpToDate(config: $0.config) }
    }

    /// Loads the face for `family`: a registered face of that family (``FontRegistry``), else
    /// the one fontconfig matches. With `strict`, a match whose family differs from the
    /// request (fontconfig's silent substitution) counts as "not installed".
    func loadFamily(_ family: String, instance: FontInstance, strict: Bool) -> Font? {
        if let (face, fixed) = registry.match(family: family, weight: instance.weight, italic: instance.italic, width: instance.width) {
            var instance = instance
            instance.variations = fixed + instance.variations
            return state.withLock { Self.load(face, instance: instance, into: &$0) }
        }
        return state.withLock { state -> Font? in
            guard
                let pattern = Fontconfig.makePattern(
                    family: family, weight: instance.weight, italic: instance.italic, language: language, color: nil)
            else { return nil }
            defer { Fontconfig.destroy(pattern: pattern) }
            guard let match = Fontconfig.match(config: state.config, pattern: pattern) else {
                return nil
            }
            if strict && !Self.genericFamilies.contains(family.lowercased()) {
                let wanted = family.familyKey
                guard match.families.contains(where: { $0.familyKey == wanted }) else { return nil }
            }
            return Self.load(match, instance: instance, into: &state)
        }
    }

    /// The face of a per-script preference (the CJK family, the emoji family) closest to the
    /// requested weight and slant, as fontconfig matches it; `nil` when the family is not
    /// installed (a color font counts for the emoji preference whatever its name).
    ///
    /// When the family has no face of that weight or slant, fontconfig gives its nearest one
    /// (e.g. Noto Sans CJK SC has no italic: the upright face of the nearest weight).
    func preferredFont(_ family: String, instance: FontInstance, color: Bool?) -> Font? {
        let key = PreferenceKey(family: family, instance: instance, color: color)
        return state.withLock { state -> Font? in
            if let cached = state.preferred[key] { return cached }
            var font: Font? = nil
            if let pattern = Fontconfig.makePattern(
                family: family, weight: instance.weight, italic: instance.italic, language: language, color: color)
            {
                if let match = Fontconfig.match(config: state.config, pattern: pattern),
                    match.families.contains(where: { $0.familyKey == family.familyKey })
                        || (color == true && match.isColor)
                {
                    font = Self.load(match, instance: instance, into: &state)
                }
                Fontconfig.destroy(pattern: pattern)
            }
            state.preferred[key] = font
            return font
        }
    }

    /// The font of a fontconfig match instantiated for `instance` (each file read once).
    private static func load(_ match: Fontconfig.Match, instance: FontInstance, into state: inout State) -> Font? {
        let bytes: FontBytes?
        if let known = state.files[match.path] {
            bytes = known
        } else {
            bytes = try? FontBytes.load(path: match.path)
            state.files[match.path] = bytes
        }
        guard let bytes else { return nil }
        return instantiate(
            bytes, path: match.path, faceIndex: match.faceIndex | match.namedInstance << Font.namedInstanceShift,
            familyName: match.families.first ?? match.path, key: "\(match.path)#\(match.faceIndex)", instance: instance,
            isApplicationFont: false, into: &state)
    }

    /// A registered face instantiated for `instance`.
    private static func load(_ face: FontRegistry.Face, instance: FontInstance, into state: inout State) -> Font? {
        instantiate(
            face.bytes, path: face.source, faceIndex: face.faceIndex, familyName: face.family,
            key: "registered:\(face.digest)#\(face.faceIndex)#\(face.family)", instance: instance,
            isApplicationFont: true, into: &state)
    }

    /// One `Font` per face and distinct instance: a static face without features is the same
    /// object whatever the weight asked for (its key is the face's); a variable face or one
    /// with features is one object per instance.
    private static func instantiate(
        _ bytes: FontBytes, path: String, faceIndex: Int, familyName: String, key faceKey: String, instance: FontInstance,
        isApplicationFont: Bool, into state: inout State
    ) -> Font? {
        let named = faceIndex >> Font.namedInstanceShift
        let axesKey = named > 0 ? faceKey + "@\(named)" : faceKey
        let axes: [FontInstance.Axis]
        if let known = state.axes[axesKey] {
            axes = known
        } else {
            let face = hb_face_create(bytes.blob, UInt32(faceIndex & Font.faceIndexMask))!  // never NULL
            axes = Font.axes(of: face)
            hb_face_destroy(face)
            state.axes[axesKey] = axes
        }
        var key = axesKey
        if !axes.isEmpty { key += "|\(instance.weight)|\(instance.italic)|\(instance.width)|\(instance.opticalSize ?? -1)|\(instance.variations)" }
        if !instance.features.isEmpty { key += "|\(instance.features)" }
        if let font = state.fonts[key] { return font }
        guard
            let font = Font(
                id: Font.nextID(), bytes: bytes, path: path, faceIndex: faceIndex, familyName: familyName,
                instance: axes.isEmpty && instance.features.isEmpty ? nil : instance, isApplicationFont: isApplicationFont)
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
    func loadSortedFallback(_ sorted: SortedFonts, at i: Int, covering scalars: [Unicode.Scalar], instance: FontInstance)
        -> Font?
    {
        state.withLock { state -> Font? in
            guard let match = sorted.match(at: i, covering: scalars) else { return nil }
            return Self.load(match, instance: instance, into: &state)
        }
    }
}

extension String {
    /// Lowercased with spaces removed, as fontconfig compares family names.
    var familyKey: String {
        String(lowercased().unicodeScalars.filter { $0 != " " })
    }
}
