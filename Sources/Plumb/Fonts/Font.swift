internal import CHarfBuzz
import Synchronization

/// One font face loaded for shaping: an owning wrapper around HarfBuzz's blob, face and font.
///
/// The HarfBuzz font is created at a scale of one unit per font unit (scale = upem) and is
/// never mutated afterwards, so one `Font` is shared by every size and every thread (HarfBuzz
/// allows concurrent shaping with one immutable `hb_font_t`). Sizes are applied in Swift:
/// points = units × size / upem.
///
/// - Thread safety: immutable after init; the glyph caches are atomic words or behind a `Lock`.
final class Font: @unchecked Sendable, CustomStringConvertible {
    /// Process-wide identity, stable for the lifetime of the `FontResolver` that loaded it.
    let id: Int
    let path: String
    let faceIndex: Int
    let familyName: String
    let upem: Double
    let metrics: FontMetrics
    /// Whether the face carries color glyphs (CBDT/sbix/COLR), e.g. Noto Color Emoji.
    let hasColorGlyphs: Bool
    /// Whether the face uses CFF outlines (glyph extents are slow: cache them).
    let isCFF: Bool
    /// The ppem of the first bitmap strike of a bitmap-only color font (CBLC/CBDT, e.g. 109
    /// for Noto Color Emoji); 0 for outline fonts. FreeType (so Chromium on Linux) takes such
    /// a font's advances in whole pixels at the strike and scales them to the size.
    let bitmapStrikePPEM: Double

    let hbFace: OpaquePointer
    let hbFont: OpaquePointer
    /// The design coordinates the font is instantiated at, one per axis (empty for a static
    /// font, or a variable one at its default instance).
    let coordinates: [Float]
    /// The OpenType features every shaping of this font applies (empty: the defaults).
    let features: [hb_feature_t]
    /// Whether the face has an optical size axis (`opsz`), which follows the font size.
    let hasOpticalSizeAxis: Bool
    /// Whether the face is an application font (registered with the engine: a file or data
    /// the app ships), not one fontconfig found among the system's.
    let isApplicationFont: Bool
    /// The weight the face draws at (1–1000): OS/2's `usWeightClass`, or the `wght` coordinate
    /// of a variable instance (`hb_style_get_value`).
    let drawnWeight: Double
    /// Whether the face's glyphs are slanted already: its italic flag or `ital` axis, or a
    /// non-zero slant angle (`hb_style_get_value`).
    let drawsItalic: Bool
    /// Whether shaping a lone scalar gives its nominal glyph's advance (`cmap` → `hmtx`): false
    /// when features could substitute glyphs (`tnum`, `smcp`, `ss01`, …).
    var hasNominalAdvances: Bool { features.isEmpty }
    private let extentsCache: GlyphExtentsCache
    /// The `pango` profile's baselines per scale (`pangoBaselines(scale:)`): a few sizes each.
    let pangoBaselineCache = Lock<[Int32: PangoBaselines.Face]>([:])
    /// The cmap's answers for the BMP, two bits per code point (answered, has a glyph),
    /// filled as code points are asked for. 16 KiB per face.
    private let bmpCoverage: UnsafeMutablePointer<Atomic<UInt64>>
    private static let coverageWords = 0x10000 * 2 / 64

    /// fontconfig's face index packs a named instance (1-based, 0 for none) above the face's
    /// index in its file: `index & faceIndexMask` is the face, `index >> namedInstanceShift`
    /// the instance.
    static let faceIndexMask = 0xFFFF
    /// Where the named instance starts in a fontconfig face index (``faceIndexMask``).
    static let namedInstanceShift = 16

    /// Process-wide font ids: unique across resolvers, so caches keyed by font id can never
    /// confuse a font of an old resolver with one of a new resolver.
    private static let ids = Atomic<Int>(0)

    /// A fresh process-wide font id.
    static func nextID() -> Int { ids.add(1, ordering: .relaxed).oldValue }

    /// Loads face `faceIndex` of the file at `path` (read into memory); `nil` when the file
    /// cannot be read or has no such face.
    convenience init?(id: Int, path: String, faceIndex: Int, familyName: String) {
        guard let bytes = try? FontBytes.load(path: path) else { return nil }
        self.init(
            id: id, bytes: bytes, path: path, faceIndex: faceIndex, familyName: familyName, instance: nil,
            isApplicationFont: false)
    }

    /// Face `faceIndex & faceIndexMask` of `bytes`, instantiated for `instance`: its variation
    /// coordinates (``FontInstance/coordinates(axes:namedInstance:)``; the bits of `faceIndex`
    /// from ``namedInstanceShift`` up name fontconfig's named instance, where the coordinates
    /// start) and its OpenType features. `nil` when the face has no glyphs.
    convenience init?(
        id: Int, bytes: FontBytes, path: String, faceIndex: Int, familyName: String, instance: FontInstance?,
        isApplicationFont: Bool
    ) {
        guard let face = hb_face_create(bytes.blob, UInt32(faceIndex & Self.faceIndexMask)) else { return nil }
        guard hb_face_get_upem(face) > 0, hb_face_get_glyph_count(face) > 0 else {
            hb_face_destroy(face)
            return nil
        }
        let axes = Self.axes(of: face)
        let named = faceIndex >> Self.namedInstanceShift
        let coordinates = instance?.coordinates(axes: axes, namedInstance: named > 0 ? Self.namedCoordinates(face, named - 1, axes.count) : nil)
            ?? (named > 0 ? Self.namedCoordinates(face, named - 1, axes.count) ?? [] : [])
        self.init(
            id: id, face: face, path: path, faceIndex: faceIndex & Self.faceIndexMask, familyName: familyName, coordinates: coordinates,
            features: (instance?.features ?? []).map(Self.hbFeature), hasOpticalSizeAxis: axes.contains { $0.tag == FontInstance.opsz },
            isApplicationFont: isApplicationFont)
    }

    /// The face's variation axes (none for a static font).
    static func axes(of face: OpaquePointer) -> [FontInstance.Axis] {
        var count = hb_ot_var_get_axis_count(face)
        guard count > 0 else { return [] }
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        hb_ot_var_get_axis_infos(face, 0, &count, &infos)
        return infos.prefix(Int(count)).map {
            FontInstance.Axis(tag: $0.tag, minimum: $0.min_value, defaultValue: $0.default_value, maximum: $0.max_value)
        }
    }

    /// The design coordinates of named instance `index` (one per axis).
    private static func namedCoordinates(_ face: OpaquePointer, _ index: Int, _ axisCount: Int) -> [Float]? {
        guard axisCount > 0, index < Int(hb_ot_var_get_named_instance_count(face)) else { return nil }
        var count = UInt32(axisCount)
        var coords = [Float](repeating: 0, count: axisCount)
        hb_ot_var_named_instance_get_design_coords(face, UInt32(index), &count, &coords)
        return coords
    }

    /// A feature for the whole buffer.
    private static func hbFeature(_ f: FontFeature) -> hb_feature_t {
        hb_feature_t(tag: tag(of: f.tag), value: UInt32(clamping: f.value), start: 0, end: UInt32.max)
    }

    /// The tag of a four-character string (validated by the sanitizer).
    static func tag(of string: String) -> UInt32 {
        string.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The four characters of a tag (the inverse of ``tag(of:)``).
    static func string(ofTag tag: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    /// The stand-in of an engine that found no font at all (fontconfig's configuration is
    /// empty or could not be loaded): HarfBuzz's empty face, with no glyphs. HarfBuzz gives
    /// every character of it the default advance of a face without `hmtx` (half an em) and
    /// `FontMetrics` the em box (ascender 0.8 em, descender 0.2 em), so answers are a rough,
    /// flagged estimate rather than a trap.
    static func standIn() -> Font {
        // HarfBuzz never returns NULL from a constructor (it returns its inert empty object
        // instead), so these unwraps cannot fail.
        let face = hb_face_create(hb_blob_get_empty(), 0)!
        return Font(id: nextID(), face: face, path: "", faceIndex: 0, familyName: "(no font)", coordinates: [], features: [], hasOpticalSizeAxis: false,
            isApplicationFont: false)
    }

    /// Takes ownership of `face` (one reference), instantiated at `coordinates` (design
    /// coordinates, one per axis, or none) with `features`.
    private init(
        id: Int, face: OpaquePointer, path: String, faceIndex: Int, familyName: String, coordinates: [Float],
        features: [hb_feature_t], hasOpticalSizeAxis: Bool, isApplicationFont: Bool
    ) {
        self.isApplicationFont = isApplicationFont
        self.coordinates = coordinates
        self.features = features
        self.hasOpticalSizeAxis = hasOpticalSizeAxis
        let upem = hb_face_get_upem(face)
        hb_face_make_immutable(face)
        let font = hb_font_create(face)!  // never NULL (HarfBuzz returns its empty font)
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        if !coordinates.isEmpty { hb_font_set_var_coords_design(font, coordinates, UInt32(coordinates.count)) }
        hb_font_make_immutable(font)
        bmpCoverage = .allocate(capacity: Self.coverageWords)
        for i in 0..<Self.coverageWords { (bmpCoverage + i).initialize(to: Atomic(0)) }
        self.id = id
        self.path = path
        self.faceIndex = faceIndex
        self.familyName = familyName
        self.upem = Double(upem)
        self.hbFace = face
        self.hbFont = font
        self.metrics = FontMetrics(hbFont: font)
        self.hasColorGlyphs =
            hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0
            || hb_ot_color_has_svg(face) != 0
        self.drawnWeight = Double(hb_style_get_value(font, HB_STYLE_TAG_WEIGHT))
        self.drawsItalic = hb_style_get_value(font, HB_STYLE_TAG_ITALIC) >= 0.5
            || hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE) != 0
        self.isCFF = hb_face_reference_table(face, Font.tag("CFF "))
            .map { blob -> Bool in
                defer { hb_blob_destroy(blob) }
                return hb_blob_get_length(blob) > 0
            } ?? false
        self.extentsCache = GlyphExtentsCache()
        self.bitmapStrikePPEM = Font.firstStrikePPEM(face)
    }

    /// `ppemX` of the first BitmapSize record of the CBLC table (OpenType: an 8-byte header,
    /// then 48-byte records with ppemX at offset 44), or 0 without bitmap strikes or with
    /// outlines (`glyf`, `CFF `) next to them.
    private static func firstStrikePPEM(_ face: OpaquePointer) -> Double {
        func length(_ tag: StaticString) -> Int {
            guard let blob = hb_face_reference_table(face, Font.tag(tag)) else { return 0 }
            defer { hb_blob_destroy(blob) }
            return Int(hb_blob_get_length(blob))
        }
        guard length("glyf") == 0, length("CFF ") == 0,
            let blob = hb_face_reference_table(face, Font.tag("CBLC"))
        else { return 0 }
        defer { hb_blob_destroy(blob) }
        var size: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &size), size >= 8 + 48 else { return 0 }
        let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self)
        let count = UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7])
        return count > 0 ? Double(bytes[8 + 44]) : 0
    }

    deinit {
        bmpCoverage.deinitialize(count: Self.coverageWords)
        bmpCoverage.deallocate()
        hb_font_destroy(hbFont)
        hb_face_destroy(hbFace)
    }

    /// Whether the face has a glyph for `scalar`.
    ///
    /// Font choice asks this for every cluster and every font of the cascade until one has
    /// it; HarfBuzz's cmap lookup costs ~270 instructions (callgrind, 2026-11-30), so answers for the
    /// BMP are remembered in a bitmap: later asks cost one relaxed load.
    ///
    /// - Thread safety: lock-free. Both bits of an answer are set by one atomic OR; threads
    ///   racing on a code point both ask HarfBuzz and set the same bits.
    @inline(__always)
    func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        guard v < 0x10000 else { return cmapHasGlyph(v) }
        let word = bmpCoverage + Int(v >> 5)
        let shift = UInt64(v & 31) &* 2
        let bits = word.pointee.load(ordering: .relaxed) >> shift
        if bits & 1 != 0 { return bits & 2 != 0 }
        let has = cmapHasGlyph(v)
        word.pointee.bitwiseOr((has ? 3 : 1) << shift, ordering: .relaxed)
        return has
    }

    private func cmapHasGlyph(_ codePoint: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, codePoint, &glyph) != 0 && glyph != 0
    }

    /// Vertical ink bounds of a glyph in font units (top above the baseline is positive).
    ///
    /// - Complexity: O(1) after the first call per glyph (cached: CFF extents are slow; timings:
    ///   Decisions.md, "Timings from code comments").
    /// - Thread safety: safe from any thread.
    func inkBounds(of glyph: UInt32) -> (top: Int32, bottom: Int32) {
        extentsCache.bounds(of: glyph) { glyph in
            var extents = hb_glyph_extents_t()
            guard hb_font_get_glyph_extents(hbFont, glyph, &extents) != 0 else { return (0, 0) }
            // y_bearing is the top, height is negative (downwards).
            return (extents.y_bearing, extents.y_bearing + extents.height)
        }
    }

    var description: String { "\(familyName) (\(path)#\(faceIndex))" }

    /// An OpenType tag from its four characters (HarfBuzz's `HB_TAG` macro is invisible to
    /// Swift).
    static func tag(_ string: StaticString) -> UInt32 {
        precondition(string.utf8CodeUnitCount == 4)
        let p = string.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }
}

extension PreparedText.FontUse {
    /// The font a prepared text's local font stands for (layout sees only its metrics).
    init(font: Font, ascender: Double, descender: Double, lineGap: Double, group: Int32 = 0, isShifted: Bool = false) {
        self.init(face: font, ascender: ascender, descender: descender, lineGap: lineGap, group: group, isShifted: isShifted)
    }

    /// The font object behind `face` (every face the preparer stores is a `Font`; the
    /// checked cast runs only where ink bounds are measured, never per grapheme).
    var font: Font { face as! Font }
}
