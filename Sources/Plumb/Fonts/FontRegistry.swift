internal import CHarfBuzz
import Dispatch

/// The fonts an application registered with one engine (``FontFile``), matched by family
/// name, width, slant and weight as CSS Fonts 4 §5.2 matches `@font-face` faces.
///
/// - Thread safety: immutable after init.
final class FontRegistry: Sendable {
    /// One registered face.
    struct Face: Sendable {
        /// The family it is registered under (the alias, or its own typographic family).
        let family: String
        /// Every name it answers to, as ``Swift/String/familyKey``.
        let familyKeys: Set<String>
        let bytes: FontBytes
        /// `bytes.fingerprint`, hashed once.
        let digest: String
        let faceIndex: Int
        /// The file or data name, for reports.
        let source: String
        /// Weights it covers: its `wght` axis's range, or its OS/2 weight.
        let weights: ClosedRange<Double>
        /// Widths (percent) it covers: its `wdth` axis's range, or its OS/2 width.
        let widths: ClosedRange<Double>
        let isItalic: Bool
        /// Its full and PostScript names (as ``Swift/String/familyKey``), and a variable face's
        /// named instances' (`Inter Bold`, `Inter-Bold`), each with the axis settings it fixes
        /// (none for a static face): a family string naming one face, as `UIFont(name:)` takes.
        let faceNames: [String: [FontVariation]]
    }

    let faces: [Face]
    /// The fonts that could not be registered, in the order given.
    let errors: [FontFileError]
    /// The content fingerprint of every registered font with its face count and alias: part
    /// of the engine salt.
    let fingerprint: [String]

    /// Reads and decodes every file (each once; several on every core), keeping the order given.
    ///
    /// - Complexity: O(total bytes). A WOFF2 decodes at ~140 MB/s of sfnt output on this
    ///   machine's cores, so WOFF2 files dominate: 20 Noto UI fonts (15.5 MB decoded) take
    ///   ~110 ms on one core, their TTFs ~4 ms.
    init(_ files: [FontFile]) {
        var faces: [Face] = []
        var errors: [FontFileError] = []
        var fingerprint: [String] = []
        for (file, loaded) in zip(files, Self.load(files)) {
            let bytes: FontBytes, digest: String
            switch loaded {
            case .success(let decoded): (bytes, digest) = decoded
            case .failure(let reason):
                errors.append(FontFileError(source: file.name, reason: reason))
                continue
            }
            fingerprint.append("\(digest)#\(bytes.faceCount)#\(file.family ?? "")")
            for i in 0..<max(1, bytes.faceCount) {
                if let face = Self.describe(bytes, face: i, digest: digest, source: file.name, alias: file.family) { faces.append(face) }
            }
        }
        self.faces = faces
        self.errors = errors
        self.fingerprint = fingerprint
    }

    /// The registered face CSS font matching picks for `family`, or nil when no registered
    /// face has that name. A family that is no registered family but a face's full or
    /// PostScript name (or a named instance's) is that face, whatever the weight, slant and
    /// width asked for, with the instance's axis settings (explicit variations still apply
    /// after them).
    ///
    /// - Complexity: O(registered faces).
    func match(family: String, weight: Int, italic: Bool, width: Double) -> (face: Face, variations: [FontVariation])? {
        let key = family.familyKey
        if let face = matchFamily(key, weight: weight, italic: italic, width: width) { return (face, []) }
        for face in faces {
            if let fixed = face.faceNames[key] { return (face, fixed) }
        }
        return nil
    }

    /// CSS font matching among the faces of the family whose key is `key`.
    private func matchFamily(_ key: String, weight: Int, italic: Bool, width: Double) -> Face? {
        var candidates = faces.filter { $0.familyKeys.contains(key) }
        guard !candidates.isEmpty else { return nil }
        // 1. Width: the nearest, narrower first at or below 100 %, wider first above.
        let nearestWidth = Self.nearest(width, in: candidates.map(\.widths), preferLower: width <= FontDescriptor.normalWidth)
        candidates = candidates.filter { $0.widths.contains(nearestWidth) }
        // 2. Slant: italic faces for italic (else upright, synthesised oblique), upright for upright.
        let slanted = candidates.filter { $0.isItalic == italic }
        if !slanted.isEmpty { candidates = slanted }
        // 3. Weight (§5.2 step 4): 400–500 look up to 500 first, then down, then up; below 400
        // down then up; above 500 up then down.
        let w = Double(weight)
        let ranges = candidates.map(\.weights)
        let chosen: Double
        if ranges.contains(where: { $0.contains(w) }) {
            chosen = w
        } else if w >= 400 && w <= 500, let up = ranges.map(\.lowerBound).filter({ $0 > w && $0 <= 500 }).min() {
            chosen = up
        } else {
            chosen = Self.nearest(w, in: ranges, preferLower: w <= 500)
        }
        return candidates.first { $0.weights.contains(chosen) }
    }

    /// The value of `ranges` nearest `v` on the preferred side first (CSS's search order).
    private static func nearest(_ v: Double, in ranges: [ClosedRange<Double>], preferLower: Bool) -> Double {
        if let hit = ranges.first(where: { $0.contains(v) }) { return v.clamped(to: hit) }
        let below = ranges.map(\.upperBound).filter { $0 < v }.max()
        let above = ranges.map(\.lowerBound).filter { $0 > v }.min()
        return preferLower ? (below ?? above ?? v) : (above ?? below ?? v)
    }

    /// A face's names and style, read from its `name`, `OS/2` and `fvar` tables.
    private static func describe(_ bytes: FontBytes, face index: Int, digest: String, source: String, alias: String?) -> Face? {
        guard let face = hb_face_create(bytes.blob, UInt32(index)) else { return nil }
        defer { hb_face_destroy(face) }
        guard hb_face_get_upem(face) > 0, hb_face_get_glyph_count(face) > 0 else { return nil }
        let font = hb_font_create(face)!
        defer { hb_font_destroy(font) }
        let names = [Self.typographicFamilyNameID, Self.familyNameID].compactMap { name(face, $0) }
        guard let own = names.first ?? Optional(source) else { return nil }
        let family = alias ?? own
        let keys = alias.map { [$0.familyKey] } ?? names.map { $0.familyKey }
        let axes = Font.axes(of: face)
        func range(_ tag: UInt32, style: hb_style_tag_t) -> ClosedRange<Double> {
            if let axis = axes.first(where: { $0.tag == tag }) { return Double(axis.minimum)...Double(axis.maximum) }
            let v = Double(hb_style_get_value(font, style))
            return v...v
        }
        let italic = hb_style_get_value(font, HB_STYLE_TAG_ITALIC) > 0.5 || hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE) != 0
        return Face(
            family: family, familyKeys: Set(keys), bytes: bytes, digest: digest, faceIndex: index, source: source,
            weights: range(FontInstance.wght, style: HB_STYLE_TAG_WEIGHT), widths: range(FontInstance.wdth, style: HB_STYLE_TAG_WIDTH),
            isItalic: italic, faceNames: faceNames(face, family: names.first ?? own, axes: axes))
    }

    /// A face's own full (4) and PostScript (6) names, and each named instance's: its
    /// PostScript name, else the one Adobe Technical Note #5902 derives (the family without
    /// spaces, "-", the subfamily without spaces), and its full name (family, space,
    /// subfamily), each with the instance's coordinates as variations.
    private static func faceNames(_ face: OpaquePointer, family: String, axes: [FontInstance.Axis]) -> [String: [FontVariation]] {
        var result: [String: [FontVariation]] = [:]
        for id in [Self.fullNameID, Self.postScriptNameID] {
            if let n = name(face, id) { result[n.familyKey] = [] }
        }
        guard !axes.isEmpty else { return result }
        for i in 0..<hb_ot_var_get_named_instance_count(face) {
            var count = UInt32(axes.count)
            var coords = [Float](repeating: 0, count: axes.count)
            hb_ot_var_named_instance_get_design_coords(face, i, &count, &coords)
            let fixed = zip(axes, coords.prefix(Int(count))).map { FontVariation(Font.string(ofTag: $0.tag), Double($1)) }
            guard let subfamily = name(face, hb_ot_var_named_instance_get_subfamily_name_id(face, i)) else { continue }
            let derived = family.filter { $0 != " " } + "-" + subfamily.filter { $0 != " " }
            let postScript = name(face, hb_ot_var_named_instance_get_postscript_name_id(face, i)) ?? derived
            for n in [postScript, family + " " + subfamily] where result[n.familyKey] == nil {
                result[n.familyKey] = fixed
            }
        }
        return result
    }

    /// Each file's bytes and content fingerprint, or why it cannot be used, in `files`' order.
    /// Several files are read, decoded and hashed concurrently (one iteration per file).
    private static func load(_ files: [FontFile]) -> [Result<(FontBytes, String), FontFileError.Reason>] {
        guard files.count > 1 else { return files.map(loadOne) }
        var results = [Result<(FontBytes, String), FontFileError.Reason>](repeating: .failure(.notAFont), count: files.count)
        results.withUnsafeMutableBufferPointer { out in
            // Each iteration writes only its own element.
            nonisolated(unsafe) let slots = out
            DispatchQueue.concurrentPerform(iterations: files.count) { slots[$0] = loadOne(files[$0]) }
        }
        return results
    }

    private static func loadOne(_ file: FontFile) -> Result<(FontBytes, String), FontFileError.Reason> {
        do throws(FontFileError.Reason) {
            let bytes = switch file.source {
            case .path(let path): try FontBytes.load(path: path)
            case .data(let data, _): try FontBytes.decode(data)
            }
            return .success((bytes, bytes.fingerprint))
        } catch {
            return .failure(error)
        }
    }

    /// OpenType `name` table ID of the family name (at most four styles per family).
    private static let familyNameID: hb_ot_name_id_t = 1
    /// `name` table ID of the full name (family and subfamily).
    private static let fullNameID: hb_ot_name_id_t = 4
    /// `name` table ID of the PostScript name.
    private static let postScriptNameID: hb_ot_name_id_t = 6
    /// `name` table ID of the typographic family, which groups more styles than the family.
    private static let typographicFamilyNameID: hb_ot_name_id_t = 16

    /// A name table entry in English (HarfBuzz's choice for no language), or nil.
    private static func name(_ face: OpaquePointer, _ id: hb_ot_name_id_t) -> String? {
        var size: UInt32 = 256
        var buffer = [CChar](repeating: 0, count: 256)
        guard hb_ot_name_get_utf8(face, id, nil, &size, &buffer) > 0 else { return nil }
        // `size` is now the number of bytes written, without the terminating NUL.
        return String(decoding: buffer.prefix(Int(size)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Double {
    fileprivate func clamped(to r: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, r.lowerBound), r.upperBound) }
}
