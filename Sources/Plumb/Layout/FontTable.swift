/// The fonts of a prepared text — each face with its vertical metrics at the text's size
/// (`PreparedText.FontUse`, `PreparedText.FontLine`) and how its units become points
/// (`AdvanceScale`) — shared by every text prepared with the same faces in the same run
/// styles. Texts of one style mostly use the same few faces, and these tables were ~200
/// bytes per font copied into every text (a third of a short cell's prepared bytes).
/// Interned per engine by `FontTableInterner`.
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

    nonisolated(unsafe) private let linesBase: UnsafeMutablePointer<PreparedText.FontLine>
    nonisolated(unsafe) private let scalesBase: UnsafeMutablePointer<AdvanceScale>
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
                          em.size.bitPattern, em.baselineOffset.bitPattern, em.isFamilyFont ? 3 : 2]
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
