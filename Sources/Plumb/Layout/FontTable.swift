/// The fonts of a prepared text — each face with its vertical metrics at the text's size
/// (`PreparedText.FontUse`, `PreparedText.FontLine`) and how its units become points
/// (`AdvanceScale`) — shared by every text prepared with the same faces in the same run
/// styles. Texts of one style mostly use the same few faces, and a copy of these tables in
/// every text would cost ~200 bytes per font. Interned per engine by `FontTableInterner`.
///
/// - Thread safety: immutable; share freely.
final class FontTable: Sendable {
    /// The faces, by local index.
    let fonts: [PreparedText.FontUse]
    /// What makes two tables equal (faces by identity, every number by its bits).
    let key: Key
    /// `fonts` as plain numbers (no font references), read on every line.
    var lines: Packed<PreparedText.FontLine> { Packed(base: UnsafePointer(linesBase), count: fonts.count) }
    /// Per local font, how its units become points.
    var scales: Packed<AdvanceScale> { Packed(base: UnsafePointer(scalesBase), count: scalesCount) }

    /// The columns' storage (owned by the table, freed in `deinit`): `PreparedText` reads
    /// them through these with its own counts. Written only in `init`, then read-only.
    nonisolated(unsafe) let linesBase: UnsafeMutablePointer<PreparedText.FontLine>
    // As `linesBase`: written only in `init`, then read-only.
    nonisolated(unsafe) let scalesBase: UnsafeMutablePointer<AdvanceScale>
    private let scalesCount: Int

    /// A table of `fonts` and their `scales` (one per font; hand-built test texts may give
    /// one scale for an empty font list).
    ///
    /// - Complexity: O(fonts).
    init(fonts: [PreparedText.FontUse], scales: UnsafeBufferPointer<AdvanceScale>, key: Key? = nil) {
        self.fonts = fonts
        self.key = key ?? Key(fonts: fonts, scales: scales)
        linesBase = .allocate(capacity: max(1, fonts.count))
        for (i, f) in fonts.enumerated() {
            (linesBase + i).initialize(
                to: PreparedText.FontLine(
                    ascender: f.ascender, heightWithLeading: f.lineHeight(includingLeading: true),
                    heightWithoutLeading: f.lineHeight(includingLeading: false), group: f.group,
                    isShifted: f.isShifted, em: f.em, strut: f.strut))
        }
        scalesCount = scales.count
        scalesBase = .allocate(capacity: max(1, scales.count))
        if let s = scales.baseAddress { scalesBase.initialize(from: s, count: scales.count) }
    }

    deinit {
        linesBase.deallocate()
        scalesBase.deallocate()
    }

    /// How many scales the table holds (one per font).
    var scaleCount: Int { scalesCount }

    /// Whether this table is the one of `fonts` and `scales` (the same faces, the same bits
    /// in every number), without building a ``Key``: a preparer's texts mostly use the
    /// table of the text before.
    ///
    /// - Complexity: O(fonts), no allocation.
    func matches(fonts other: [PreparedText.FontUse], scales: UnsafeBufferPointer<AdvanceScale>) -> Bool {
        guard other.count == fonts.count, scales.count == scalesCount else { return false }
        for i in 0..<fonts.count where !Self.same(fonts[i], other[i]) { return false }
        for i in 0..<scalesCount where !Self.same(scalesBase[i], scales[i]) { return false }
        return true
    }

    private static func same(_ a: PreparedText.FontUse, _ b: PreparedText.FontUse) -> Bool {
        guard a.face === b.face, a.ascender.bitPattern == b.ascender.bitPattern,
            a.descender.bitPattern == b.descender.bitPattern, a.lineGap.bitPattern == b.lineGap.bitPattern,
            a.group == b.group, a.isShifted == b.isShifted, a.strut == b.strut
        else { return false }
        switch (a.em, b.em) {
        case (nil, nil): return true
        case let (x?, y?):
            return x.ascent.bitPattern == y.ascent.bitPattern && x.descent.bitPattern == y.descent.bitPattern
                && x.lineGap.bitPattern == y.lineGap.bitPattern && x.size.bitPattern == y.size.bitPattern
                && x.baselineOffset.bitPattern == y.baselineOffset.bitPattern && x.hasSystemRenderStyle == y.hasSystemRenderStyle
        default: return false
        }
    }

    private static func same(_ a: AdvanceScale, _ b: AdvanceScale) -> Bool {
        a.size.bitPattern == b.size.bitPattern && a.upem.bitPattern == b.upem.bitPattern
            && a.strikePPEM.bitPattern == b.strikePPEM.bitPattern && a.freeTypeXScale.bitPattern == b.freeTypeXScale.bitPattern
            && a.letterSpacing.bitPattern == b.letterSpacing.bitPattern && a.boxWidth.bitPattern == b.boxWidth.bitPattern
            && a.freeType == b.freeType
    }

    /// A table's identity: its faces, and the bit patterns of every number of its fonts and
    /// scales (explicit fields: structs' padding bytes are not compared).
    struct Key: Hashable, Sendable {
        let faces: [ObjectIdentifier]
        let bits: [UInt64]

        init(fonts: [PreparedText.FontUse], scales: UnsafeBufferPointer<AdvanceScale>) {
            faces = fonts.map { ObjectIdentifier($0.face) }
            var b: [UInt64] = []
            b.reserveCapacity(fonts.count * 13 + scales.count * 7)
            for f in fonts {
                b += [f.ascender.bitPattern, f.descender.bitPattern, f.lineGap.bitPattern,
                      UInt64(UInt32(bitPattern: f.group)) | (f.isShifted ? 1 << 32 : 0) | UInt64(f.strut) << 40]
                if let em = f.em {
                    b += [UInt64(em.ascent.bitPattern) | UInt64(em.descent.bitPattern) << 32, UInt64(em.lineGap.bitPattern),
                          em.size.bitPattern, em.baselineOffset.bitPattern, em.hasSystemRenderStyle ? 3 : 2]
                } else {
                    b.append(0)
                }
            }
            for s in scales {
                b += [s.size.bitPattern, s.upem.bitPattern, s.strikePPEM.bitPattern, s.freeTypeXScale.bitPattern,
                      s.letterSpacing.bitPattern, s.boxWidth.bitPattern, s.freeType ? 1 : 0]
            }
            bits = b
        }
    }
}
