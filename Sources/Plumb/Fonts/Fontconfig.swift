internal import CFontconfig
#if canImport(Glibc)
import Glibc
#endif

/// Thin, prefixed wrappers around the fontconfig calls Plumb makes. Every C call of the Fonts
/// stage that touches fontconfig lives here.
///
/// - Thread safety: fontconfig is not documented as thread-safe; all callers hold
///   `FontResolver`'s lock.
enum Fontconfig {
    /// A face fontconfig found: file, face index, the family name it reports first, whether it
    /// is a color font.
    struct Match: Hashable {
        var path: String
        var faceIndex: Int
        /// The named instance of a variable face fontconfig chose (1-based; 0: none).
        var namedInstance: Int = 0
        var families: [String]
        var isColor: Bool
    }

    /// fontconfig's configuration and font list as the environment says (`FONTCONFIG_FILE`,
    /// …); `nil` when it cannot be loaded.
    static func loadConfig() -> OpaquePointer? {
        FcInitLoadConfigAndFonts()
    }

    /// A configuration with no font directories and no fonts (when none can be loaded).
    static func emptyConfig() -> OpaquePointer {
        // FcConfigCreate fails only when malloc does.
        FcConfigCreate()!
    }

    static func destroy(config: OpaquePointer) {
        FcConfigDestroy(config)
    }

    /// Adds every font file below `dir` to the configuration's application font set.
    static func addApplicationFontDirectory(_ dir: String, to config: OpaquePointer) {
        _ = dir.withCString { d in
            d.withMemoryRebound(to: FcChar8.self, capacity: dir.utf8.count + 1) {
                FcConfigAppFontAddDir(config, $0)
            }
        }
    }

    static func destroy(pattern: OpaquePointer) {
        FcPatternDestroy(pattern)
    }

    /// A pattern for `family` with weight, slant, language and (optionally) color set
    /// explicitly, so the process locale never leaks into the result.
    static func makePattern(
        family: String?, weight: Int, italic: Bool, language: String, color: Bool?
    ) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        if let family {
            _ = family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                    FcPatternAddString(pattern, FC_FAMILY, $0)
                }
            }
        }
        FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(weight)))
        FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        if let langSet = FcLangSetCreate() {
            _ = language.withCString { lang in
                lang.withMemoryRebound(to: FcChar8.self, capacity: language.utf8.count + 1) {
                    FcLangSetAdd(langSet, $0)
                }
            }
            FcPatternAddLangSet(pattern, FC_LANG, langSet)
            FcLangSetDestroy(langSet)
        }
        if let color { FcPatternAddBool(pattern, FC_COLOR, color ? 1 : 0) }
        FcPatternAddBool(pattern, FC_SCALABLE, 1)
        return pattern
    }

    /// `FcFontMatch` for a prepared pattern (substitutions applied here); cache the answer
    /// (timings: Decisions.md, "Timings from code comments").
    static func match(config: OpaquePointer, pattern: OpaquePointer) -> Match? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        return describe(font)
    }

    /// Reads file, index, families and color of a font pattern.
    static func describe(_ font: OpaquePointer) -> Match? {
        var file: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else {
            return nil
        }
        var index: Int32 = 0
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var families: [String] = []
        var n: Int32 = 0
        while true {
            var name: UnsafeMutablePointer<FcChar8>? = nil
            guard FcPatternGetString(font, FC_FAMILY, n, &name) == FcResultMatch, let name else {
                break
            }
            families.append(String(cString: name))
            n += 1
        }
        var color: FcBool = 0
        if FcPatternGetBool(font, FC_COLOR, 0, &color) != FcResultMatch { color = 0 }
        return Match(
            path: String(cString: file), faceIndex: Int(index) & Font.faceIndexMask,
            namedInstance: Int(index) >> Font.namedInstanceShift, families: families, isColor: color != 0)
    }

    /// The fallback order for a pattern (`FcFontSort`), as faces with their character sets.
    /// Asks for the untrimmed list: ``SortedFonts`` trims it itself, lazily, as far as a
    /// caller reads (fontconfig's trimming merges the character sets of every face, ~2 M
    /// instructions per sort). About twice a match; call once per cascade (timings:
    /// Decisions.md, "Timings from code comments").
    static func sort(config: OpaquePointer, pattern: OpaquePointer, trim: Bool = false) -> SortedFonts? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, pattern, trim ? 1 : 0, nil, &result) else { return nil }
        return SortedFonts(set: set, trimmed: trim)
    }

    /// A fingerprint of the installed font files (paths, in fontconfig's order), so caches can
    /// tell when fonts were added or removed.
    static func fontSetFingerprint(config: OpaquePointer) -> [String] {
        var paths: [String] = []
        for which in [FcSetSystem, FcSetApplication] {
            guard let set = FcConfigGetFonts(config, which) else { continue }
            let count = Int(set.pointee.nfont)
            paths.reserveCapacity(paths.count + count)
            for i in 0..<count {
                guard let font = set.pointee.fonts[i] else { continue }
                var file: UnsafeMutablePointer<FcChar8>? = nil
                if FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file {
                    var index: Int32 = 0
                    _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
                    var info = stat()
                    let path = String(cString: file)
                    let meta = stat(path, &info) == 0 ? "\(info.st_size)@\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)" : "missing"
                    paths.append(path + "#\(index)#" + meta)
                }
            }
        }
        return paths
    }

    /// Whether the configuration still reflects the font directories on disk.
    static func isUpToDate(config: OpaquePointer) -> Bool {
        FcConfigUptoDate(config) != 0
    }
}

/// The result of `FcFontSort`: faces in fallback order with their character sets.
///
/// Built from the untrimmed list, it answers as fontconfig's trimmed one (`trim = FcTrue`):
/// a face is skipped when it has no character set, or when its set adds nothing to the union
/// of the sets before it (fontconfig's `FcSortWalk`, which keeps the first face with a set
/// in any case). The union is merged lazily, only as far as ``match(at:covering:)`` has
/// looked; most lookups stop within the first few faces, so the merges of fontconfig's
/// trimming (every face, including the large CJK sets) are mostly not done.
/// `SortedFontsTrimTests` compares the kept faces with fontconfig's trimmed list.
///
/// - Thread safety: the faces are immutable; the lazy trim state is mutated by
///   ``match(at:covering:)`` and ``isKept(_:)``, which callers must serialise (FontLibrary
///   calls them under its state lock). `FcCharSetHasChar` only reads.
final class SortedFonts: @unchecked Sendable {
    private let set: UnsafeMutablePointer<FcFontSet>
    /// Whether `set` is already fontconfig's trimmed list (then every face is kept).
    private let trimmed: Bool
    /// The union of the character sets of faces `0..<kept.count` (created at the first merge).
    private var union: OpaquePointer? = nil
    /// Whether faces `0..<kept.count` survive fontconfig's trimming.
    private var kept: [Bool] = []

    init(set: UnsafeMutablePointer<FcFontSet>, trimmed: Bool = false) {
        self.set = set
        self.trimmed = trimmed
    }
    deinit {
        if let union { FcCharSetDestroy(union) }
        FcFontSetDestroy(set)
    }

    /// The number of faces of the list (untrimmed: some are never matched).
    var count: Int { Int(set.pointee.nfont) }

    /// Whether face `i` is in fontconfig's trimmed list: it has a character set and it is the
    /// first face with one, or its set has a character no earlier face has.
    ///
    /// - Complexity: amortised one `FcCharSetMerge` per face up to `i`, once per list.
    func isKept(_ i: Int) -> Bool {
        if trimmed { return true }
        while kept.count <= i {
            kept.append(mergeNext())
        }
        return kept[i]
    }

    /// Merges the character set of face `kept.count` into the union; whether it is kept
    /// (fontconfig 2.14: `!i || adds_chars`, after skipping a face without a set).
    private func mergeNext() -> Bool {
        let i = kept.count
        guard let charset = charset(at: i) else { return false }
        if union == nil { union = FcCharSetCreate() }
        guard let union else { return true }
        var changed: FcBool = 0
        guard FcCharSetMerge(union, charset, &changed) != 0 else { return true }
        return i == 0 || changed != 0
    }

    private func charset(at i: Int) -> OpaquePointer? {
        guard let font = set.pointee.fonts[i] else { return nil }
        var charset: OpaquePointer? = nil
        guard FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch else { return nil }
        return charset
    }

    /// The `i`-th face, if fontconfig's trimmed list has it and it has the given characters.
    func match(at i: Int, covering scalars: [Unicode.Scalar]) -> Fontconfig.Match? {
        guard let font = set.pointee.fonts[i], let charset = charset(at: i) else { return nil }
        for scalar in scalars where FcCharSetHasChar(charset, scalar.value) == 0 {
            return nil
        }
        guard isKept(i) else { return nil }
        return Fontconfig.describe(font)
    }

    /// File and face index of every face fontconfig's trimmed list has, in order (for tests).
    func keptFaces() -> [String] {
        (0..<count).compactMap { i -> String? in
            guard isKept(i), let font = set.pointee.fonts[i], let m = Fontconfig.describe(font) else { return nil }
            return "\(m.path)#\(m.faceIndex)"
        }
    }
}
