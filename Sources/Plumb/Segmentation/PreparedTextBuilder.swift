/// The character style of one run of a text, as the preparer needs it: resolved fonts and
/// sanitized numbers. Plain text is one run of the style's own font.
struct PreparationRun {
    /// Where the run ends (UTF-8 offset in the text).
    var byteEnd: Int
    var cascade: ResolvedCascade
    var size: Double
    var letterSpacing: Double
    /// Raises the run's glyphs (points).
    var baselineOffset: Double = 0
    /// The inline box the run stands for (one U+FFFC), sizes sanitized.
    var box: InlineBoxMetrics? = nil
    /// The run's own language (`TextAttributes.language`; nil: the style's).
    var language: String? = nil
}

/// A truncation token for the preparer: its UTF-8 bytes and runs (`byteEnd` relative to the
/// token).
struct TokenInput: @unchecked Sendable {  // immutable; cascades are shared read-only
    var utf8: [UInt8]
    var runs: [PreparationRun]
}

/// An inline box's layout numbers (points, finite, sizes ≥ 0).
struct InlineBoxMetrics: Hashable {
    var width: Double
    var height: Double
    var baselineOffset: Double
}

/// Accumulates the arrays of a `PreparedText`.
///
/// Local fonts are faces: a font at one run style (size, letter spacing, baseline offset),
/// or an inline box. Runs of equal style share a *group*; line heights combine the fonts of a
/// group as plain text does and align groups on the baseline (see `LineHeightModel`).
struct PreparedTextBuilder {
    struct FontEntry {
        let font: Font
        let id: Int
        let upem: Double
        /// `Font.bitmapStrikePPEM` (0 for outline fonts).
        let strikePPEM: Double
        /// FreeType's 16.16 `x_scale` at the entry's size (`AdvanceScaling.freeTypeFixedPoint`;
        /// see ``PreparedTextBuilder/advance(units:font:)``).
        let freeTypeXScale: Double
        let size: Double
        let letterSpacing: Double
        let baselineOffset: Double
        /// The run-style group (0 for the first run's style).
        let group: Int32
        /// Set for an inline box's entry.
        let box: InlineBoxMetrics?
        /// How the entry's units become points (``PreparedTextBuilder/advance(units:font:)``).
        let scale: AdvanceScale
        /// `font.hasColorGlyphs`, kept here so the rules read it without retaining the font
        /// (a shared object: every worker would write its reference count).
        let drawsColor: Bool
        /// Whether spaces may take this entry's font from a neighbour
        /// (``TextPreparer/applyNeighbouringSpaceFonts(graphemes:scripts:into:)``): a text face
        /// (not a box, not colour glyphs) with a space glyph.
        let takesSpaces: Bool

        init(_ font: Font, style: RunStyle, group: Int32, box: InlineBoxMetrics? = nil, freeTypeScaling: Bool) {
            self.font = font
            id = font.id
            upem = font.upem
            strikePPEM = font.bitmapStrikePPEM
            size = style.size
            letterSpacing = style.letterSpacing + style.extraSpacing
            baselineOffset = style.baselineOffset
            freeTypeXScale = ((size * AdvanceScale.fixed26Dot6).rounded() * AdvanceScale.fixed16Dot16 / font.upem).rounded()
            self.group = group
            self.box = box
            scale = AdvanceScale(
                size: size, upem: upem, strikePPEM: strikePPEM, freeTypeXScale: freeTypeXScale,
                letterSpacing: letterSpacing, boxWidth: box?.width ?? 0, freeType: freeTypeScaling)
            drawsColor = font.hasColorGlyphs
            takesSpaces = box == nil && !font.hasColorGlyphs && font.hasGlyph(for: " ")
        }
    }

    /// What makes two runs' faces differ.
    struct RunStyle: Hashable {
        var cascadeID: ObjectIdentifier
        var size: Double
        var letterSpacing: Double
        var baselineOffset: Double
        var box: InlineBoxMetrics?
        /// Spacing added to the letter spacing of this style's word separators (phase 4b's
        /// entries; 0 for a run's own style).
        var extraSpacing = 0.0
    }

    /// The current run's cascade, size and letter spacing (the first run's until
    /// `beginRun(_:)` switches).
    private(set) var cascade: ResolvedCascade
    private(set) var size: Double
    private(set) var letterSpacing: Double
    private(set) var runStyle: RunStyle
    private(set) var group: Int32 = 0
    /// Distinct run styles seen, by group, with their cascades.
    private(set) var groups: [(style: RunStyle, cascade: ResolvedCascade)] = []
    var fontList: [FontEntry] = []
    // The per-grapheme columns: raw storage lent by the preparer (`Columns`), reused from
    // text to text, copied into the prepared text's one allocation by `finish`. Only what
    // the prepared text stores is kept per grapheme (10 bytes, 14 with `cutAdjustments`):
    // starts are the previous ends (``graphemeStart(_:)``), advances are recomputed from the
    // units (``advance(_:)``), so a 4 MB word does not need 22 bytes per byte while building.
    var graphemeEnds: Column<Int32>
    /// Per grapheme, the shaped units its advance comes from (what `PreparedText` stores).
    var units: Column<Int32>
    /// With `reshapesLineEnds`: per grapheme, alone − as shaped (see `PreparedText.cutAdjustments`).
    var cutAdjustments: Column<Float>
    var flags: Column<PreparedText.GraphemeFlags>
    var graphemeFonts: Column<UInt8>
    var words: [PreparedText.Word] = []
    /// Chromium profile, paragraphs of several runs: where each run ends (`PreparedText.RunEnd`).
    var runEnds: [PreparedText.RunEnd] = []
    var paragraphs: [PreparedText.Paragraph] = []
    var missingGlyphClusters = 0
    /// A tab was appended: the text records `PreparedText.TabFacts`.
    var hasTab = false
    /// Where a line end shows a hyphen (phase 3b, `TextPreparer.markHyphenationPoints`).
    var hyphens = HyphenPoints()
    /// What phase 3b looks for (the profile's default mode unless the style sets one).
    var hyphenation: HyphenationRequest
    /// Per run of the text, the dictionary of its own language (`PreparationRun.language`)
    /// under `auto`; empty when no run sets one.
    var runDictionaries: [HyphenationDictionary?] = []
    /// Whether the paragraph being prepared has a U+00AD (phase 3b; read by phase 4).
    var paragraphHasSoftHyphen = false
    /// The hyphen's advance and face per local font, as phase 3b first needs them.
    var hyphenWidths: [(width: Double, face: Font)?] = []
    /// Whether some grapheme so far is an inline box (`GraphemeFlags.inlineBox`): without one
    /// the break tailoring around boxes has nothing to visit.
    var hasInlineBoxes = false
    /// The `pango` profile only: where the baseline tag of the resolved scripts changes
    /// (`TextPreparer.recordPangoBaselineTags`); empty otherwise.
    var pangoTagChanges: [PangoBaselines.Change] = []
    /// Per local font, how its units become points (`fontList[i].scale`, kept apart in a raw
    /// column so the per-grapheme reads touch no reference count).
    private(set) var scales: Column<AdvanceScale>
    /// The first grapheme and byte of the paragraph being prepared (``graphemeStart(_:)``).
    private(set) var paragraphGrapheme = 0
    private(set) var paragraphByte: Int32 = 0
    /// The conventions every phase reads.
    let conventions: LayoutConventions
    /// `conventions.advanceScaling == .freeTypeFixedPoint`, given to every font entry.
    let scalesLikeFreeType: Bool

    /// The per-grapheme storage a builder borrows from its preparer and hands back
    /// (``handBack()``), so a cold pass allocates it once per preparer, not once per text;
    /// with it the builder's own arrays (fonts, run styles, words, paragraphs…), which
    /// `finish` copies into the prepared text: handed back empty, with their capacity, so a
    /// text allocates none of them (~7 allocations per cell before).
    struct Columns {
        var graphemeEnds = Column<Int32>()
        var units = Column<Int32>()
        var cutAdjustments = Column<Float>()
        var flags = Column<PreparedText.GraphemeFlags>()
        var graphemeFonts = Column<UInt8>()
        var scales = Column<AdvanceScale>()
        var arrays = Arrays()

        /// Frees the storage (the owning preparer's `deinit`, or after a large text).
        mutating func deallocate() {
            scales.deallocate()
            graphemeEnds.deallocate()
            units.deallocate()
            cutAdjustments.deallocate()
            flags.deallocate()
            graphemeFonts.deallocate()
            arrays = Arrays()
        }
    }

    /// The builder's arrays a preparer keeps between texts (always empty there).
    struct Arrays {
        var fontList: [FontEntry] = []
        var groups: [(style: RunStyle, cascade: ResolvedCascade)] = []
        var cascadeLocal: [UInt8] = []
        var words: [PreparedText.Word] = []
        var runEnds: [PreparedText.RunEnd] = []
        var paragraphs: [PreparedText.Paragraph] = []
        var pangoTagChanges: [PangoBaselines.Change] = []

        /// Empties every array, keeping its capacity (fonts and cascades are released). An
        /// empty array is left alone: `removeAll(keepingCapacity:)` costs ~100 instructions
        /// even then.
        mutating func empty() {
            if !fontList.isEmpty { fontList.removeAll(keepingCapacity: true) }
            if !groups.isEmpty { groups.removeAll(keepingCapacity: true) }
            if !cascadeLocal.isEmpty { cascadeLocal.removeAll(keepingCapacity: true) }
            if !words.isEmpty { words.removeAll(keepingCapacity: true) }
            if !runEnds.isEmpty { runEnds.removeAll(keepingCapacity: true) }
            if !paragraphs.isEmpty { paragraphs.removeAll(keepingCapacity: true) }
            if !pangoTagChanges.isEmpty { pangoTagChanges.removeAll(keepingCapacity: true) }
        }
    }

    /// The columns and the emptied arrays, to be handed back to their owner once the builder
    /// has finished (they may have grown, so the owner's copy is stale). The builder is not
    /// used after this.
    mutating func handBack() -> Columns {
        var arrays = Arrays()
        swap(&arrays.fontList, &fontList)
        swap(&arrays.groups, &groups)
        swap(&arrays.cascadeLocal, &cascadeLocal)
        swap(&arrays.words, &words)
        swap(&arrays.runEnds, &runEnds)
        swap(&arrays.paragraphs, &paragraphs)
        swap(&arrays.pangoTagChanges, &pangoTagChanges)
        arrays.empty()
        return Columns(
            graphemeEnds: graphemeEnds, units: units, cutAdjustments: cutAdjustments, flags: flags, graphemeFonts: graphemeFonts,
            scales: scales, arrays: arrays)
    }

    /// A builder for a text whose first run is `run`, writing into `columns` (emptied here;
    /// its arrays move into the builder until ``handBack()``).
    init(first run: PreparationRun, conventions: LayoutConventions, columns: inout Columns) {
        graphemeEnds = columns.graphemeEnds
        scales = columns.scales
        scales.removeAll()
        units = columns.units
        cutAdjustments = columns.cutAdjustments
        flags = columns.flags
        graphemeFonts = columns.graphemeFonts
        graphemeEnds.removeAll()
        units.removeAll()
        cutAdjustments.removeAll()
        flags.removeAll()
        graphemeFonts.removeAll()
        // Moved out of `columns` (which keeps empty arrays): uniquely referenced here, so
        // they grow in place.
        swap(&fontList, &columns.arrays.fontList)
        swap(&groups, &columns.arrays.groups)
        swap(&cascadeLocal, &columns.arrays.cascadeLocal)
        swap(&words, &columns.arrays.words)
        swap(&runEnds, &columns.arrays.runEnds)
        swap(&paragraphs, &columns.arrays.paragraphs)
        swap(&pangoTagChanges, &columns.arrays.pangoTagChanges)
        // Already empty (``handBack()`` empties them), as a default `Columns()` is.
        cascade = run.cascade
        size = run.size
        letterSpacing = run.letterSpacing
        runStyle = RunStyle(
            cascadeID: ObjectIdentifier(run.cascade), size: run.size, letterSpacing: run.letterSpacing,
            baselineOffset: run.baselineOffset, box: run.box)
        groups.append((runStyle, run.cascade))
        self.conventions = conventions
        hyphenation = HyphenationRequest(conventions: conventions)
        scalesLikeFreeType = conventions.advanceScaling == .freeTypeFixedPoint
        // Local font 0 is always the first run's primary font (empty lines use it).
        _ = localIndex(of: cascade.primary)
    }

    /// Makes `run` the current run: later clusters take its fonts and numbers.
    mutating func beginRun(_ run: PreparationRun) {
        let style = RunStyle(
            cascadeID: ObjectIdentifier(run.cascade), size: run.size, letterSpacing: run.letterSpacing,
            baselineOffset: run.baselineOffset, box: run.box)
        guard style != runStyle else { return }
        runStyle = style
        cascade = run.cascade
        size = run.size
        letterSpacing = run.letterSpacing
        if let known = groups.firstIndex(where: { $0.style == style }) {
            group = Int32(known)
        } else {
            group = Int32(groups.count)
            groups.append((style, run.cascade))
        }
        cascadeLocal.removeAll(keepingCapacity: true)
        // CSS gives every inline box the strut of its first font, used or not.
        if case .blink = conventions.lineHeights, run.box == nil { _ = localIndex(of: cascade.primary) }
    }

    /// The local index of the current run's inline box.
    mutating func boxLocalIndex() -> UInt8 {
        localIndex(of: cascade.primary)
    }

    /// The cascade of a local font's run (the Pango space rule ranks fonts in it).
    func cascade(ofLocal local: UInt8) -> ResolvedCascade {
        groups[Int(fontList[Int(local)].group)].cascade
    }

    /// A cluster's advance in points from its shaped advance in font units, with letter
    /// spacing, never negative: `AdvanceScale.points(units:)`, the formula `PreparedText`
    /// reads advances with.
    ///
    /// - Complexity: O(1), a few floating-point operations (the FreeType scale is per font).
    @inline(__always)
    func advance(units: Int32, font: FontEntry) -> Double {
        font.scale.points(units: units)
    }

    /// Marks grapheme `g` (not yet appended) as the first of a paragraph starting at byte
    /// `byte`.
    mutating func beginParagraph(grapheme g: Int, byte: Int32) {
        paragraphGrapheme = g
        paragraphByte = byte
    }

    /// Where grapheme `g` of the current paragraph starts (UTF-8 offset): the previous
    /// grapheme's end, or the paragraph's start (a paragraph's graphemes are contiguous).
    @inline(__always)
    func graphemeStart(_ g: Int) -> Int32 {
        g == paragraphGrapheme ? paragraphByte : graphemeEnds[g - 1]
    }

    /// Grapheme `g`'s advance in points from its units, as `PreparedText.Advances` reads it
    /// back (0 for a tab, the box's width for an inline box), without Blink's run rounding.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func advance(_ g: Int) -> Double {
        let f = flags[g]
        if f.contains(.tab) { return 0 }
        let scale = scales[Int(graphemeFonts[g])]
        if f.contains(.inlineBox) { return scale.boxWidth }
        return scale.points(units: units[g])
    }

    /// Room for `n` graphemes (the text's UTF-8 length bounds them).
    mutating func reserve(graphemes n: Int) {
        graphemeEnds.reserve(n)
        units.reserve(n)
        flags.reserve(n)
        graphemeFonts.reserve(n)
        if conventions.reshapesLineEnds { cutAdjustments.reserve(n) }
    }

    /// Local indexes of the cascade's fonts, once known (255: not yet).
    private var cascadeLocal: [UInt8] = []

    /// The local index of the cascade's font `i`, without touching the font object after the
    /// first time (no reference counting per cluster).
    @inline(__always)
    mutating func localIndex(ofCascadeFont i: Int) -> UInt8 {
        if i < cascadeLocal.count, cascadeLocal[i] != 255 { return cascadeLocal[i] }
        if cascadeLocal.count < cascade.fonts.count {
            cascadeLocal.removeAll(keepingCapacity: true)
            cascadeLocal.append(contentsOf: repeatElement(255, count: cascade.fonts.count))
        }
        let local = localIndex(of: cascade.fonts[i])
        cascadeLocal[i] = local
        return local
    }

    /// `TextStyle.wordSpacing` (phase 4b; 0: no phase 4b).
    var wordSpacing = 0.0

    /// The local entry of local font `local` with the word spacing added to its letter
    /// spacing (a run style of its own), adding it on first use; `local` itself when the
    /// table is full or `local` is such an entry already.
    mutating func wordSpacedIndex(of local: UInt8) -> UInt8 {
        let entry = fontList[Int(local)]
        guard entry.box == nil else { return local }
        let base = groups[Int(entry.group)]
        guard base.style.extraSpacing == 0 else { return local }
        var style = base.style
        style.extraSpacing = wordSpacing
        let group: Int32
        if let known = groups.firstIndex(where: { $0.style == style }) {
            group = Int32(known)
        } else {
            group = Int32(groups.count)
            groups.append((style, base.cascade))
        }
        for i in fontList.indices where fontList[i].id == entry.id && fontList[i].group == group { return UInt8(i) }
        guard fontList.count < 255 else { return local }
        fontList.append(FontEntry(entry.font, style: style, group: group, box: nil, freeTypeScaling: scalesLikeFreeType))
        scales.append(fontList[fontList.count - 1].scale)
        return UInt8(fontList.count - 1)
    }

    /// The local index of `font` in the current run's style, adding it on first use (at most
    /// 255 distinct faces).
    mutating func localIndex(of font: Font) -> UInt8 {
        let id = font.id
        for i in fontList.indices where fontList[i].id == id && fontList[i].group == group { return UInt8(i) }
        guard fontList.count < 255 else { return 0 }
        fontList.append(FontEntry(font, style: runStyle, group: group, box: runStyle.box, freeTypeScaling: scalesLikeFreeType))
        scales.append(fontList[fontList.count - 1].scale)
        return UInt8(fontList.count - 1)
    }

    /// The prepared text, with the layout knobs it carries (`trailingSpaces`, `lineFit`).
    /// `fontTable` gives the shared table of the text's fonts (`TextPreparer.sharedFontTable`;
    /// a table of its own without it). With `handingOverColumns` the per-grapheme columns are freed while they are copied
    /// (and forgotten here), so a huge text never holds them and its result whole at once.
    mutating func finish(
        utf8Count: Int, ellipsisFont: UInt8, ellipsisWidth: Double, ellipsisMask: UInt64? = nil,
        token: PreparedToken? = nil, ellipsisByGroup: [GroupEllipsis] = [], tabFacts: PreparedText.TabFacts? = nil,
        hyphens: HyphenPoints = .none, handingOverColumns: Bool = false,
        fontTable: ((_ fonts: [PreparedText.FontUse], _ scales: UnsafeBufferPointer<AdvanceScale>) -> FontTable)? = nil
    ) -> PreparedText {
        defer {
            if handingOverColumns {
                graphemeEnds.forget()
                units.forget()
                cutAdjustments.forget()
                flags.forget()
                graphemeFonts.forget()
            }
        }
        let uses = fontList.map { entry -> PreparedText.FontUse in
            if let box = entry.box {
                // A box rises height + offset above the baseline and descends by a negative
                // offset (NSTextAttachment's bounds).
                return PreparedText.FontUse(
                    font: entry.font, ascender: box.height + box.baselineOffset,
                    descender: min(0, box.baselineOffset), lineGap: 0, group: entry.group, isShifted: true)
            }
            let m = entry.font.metrics
            let size = entry.size
            let offset = entry.baselineOffset
            let upem = Float(m.upem)
            let em = PreparedText.EmMetrics(
                ascent: Float(m.ascender) / upem, descent: Float(-m.descender) / upem,
                lineGap: Float(m.lineGap) / upem, size: size, baselineOffset: offset,
                hasSystemRenderStyle: !entry.font.isApplicationFont
                    && groups[Int(entry.group)].cascade.fonts.contains { $0.id == entry.id })
            var use: PreparedText.FontUse
            if offset == 0 {
                use = PreparedText.FontUse(
                    font: entry.font, ascender: m.ascender(atSize: size),
                    descender: m.descender(atSize: size), lineGap: m.lineGap(atSize: size), group: entry.group)
            } else {
                use = PreparedText.FontUse(
                    font: entry.font, ascender: m.ascender(atSize: size) + offset,
                    descender: m.descender(atSize: size) + offset, lineGap: m.lineGap(atSize: size),
                    group: entry.group, isShifted: true)
            }
            use.em = em
            let primary = groups[Int(entry.group)].cascade.primary.id
            if let strut = fontList.firstIndex(where: { $0.id == primary && $0.group == entry.group && $0.box == nil }) {
                use.strut = UInt8(strut)
            }
            return use
        }
        let table = fontTable?(uses, scales.buffer) ?? FontTable(fonts: uses, scales: scales.buffer)
        let pangoBaselines = pangoBaselineTable()
        return words.withUnsafeBufferPointer { words in
            paragraphs.withUnsafeBufferPointer { paragraphs in
              runEnds.withUnsafeBufferPointer { runEnds in
                PreparedText(
                    fontTable: table,
                    columns: .init(
                        graphemeEnds: graphemeEnds.buffer,
                        units: units.buffer, cutAdjustments: cutAdjustments.buffer, flags: flags.buffer,
                        graphemeFonts: graphemeFonts.buffer, words: words, paragraphs: paragraphs,
                        runEnds: runEnds, freesGraphemeColumns: handingOverColumns),
                    ellipsisFont: ellipsisFont, ellipsisWidth: ellipsisWidth, ellipsisMask: ellipsisMask,
                    token: token, ellipsisByGroup: ellipsisByGroup, pangoBaselines: pangoBaselines, tabFacts: tabFacts,
                    hyphens: hyphens, utf8Count: utf8Count,
                    missingGlyphClusters: missingGlyphClusters, trailingSpaces: conventions.trailingSpaces,
                    lineFit: conventions.lineFit)
              }
            }
        }
    }

    /// The `pango` profile's baseline table: each local font's baselines at its size in Pango
    /// units (`Font.pangoBaselines`, cached per font), when a run can move — a hanging or
    /// ideographic script in the text, or a face with a roman baseline off 0; else `nil`. An
    /// inline box takes the baselines of the font Pango gives its U+FFFC: the cascade's
    /// first font with the glyph, else the fallback's (Noto Sans for a cascade of Noto Sans
    /// CJK SC alone, which has none), not the primary font the box's metrics come from.
    private func pangoBaselineTable() -> PangoBaselines? {
        guard case .pango = conventions.lineHeights else { return nil }
        func face(_ entry: FontEntry) -> PangoBaselines.Face {
            let font = entry.box == nil ? entry.font : Self.objectReplacementFont(groups[Int(entry.group)].cascade)
            return font.pangoBaselines(scale: Int32(clamping: PangoLineBox.units(entry.size)))
        }
        // Most texts have no change and only faces with a roman baseline of 0: no table, and
        // no array built to find that out.
        guard !pangoTagChanges.isEmpty || fontList.contains(where: { face($0).roman != 0 }) else { return nil }
        // The changes are copied at their size: `pangoTagChanges` is the preparer's lent
        // scratch array, and sharing it would give every table the scratch's capacity (the most
        // changes any earlier text had) and make the scratch copy itself for the next text.
        let changes = pangoTagChanges.withUnsafeBufferPointer { Array($0) }
        return PangoBaselines(faces: fontList.map(face), changes: changes)
    }

    /// The font `cascade` draws U+FFFC with (an inline box's character in Pango).
    private static func objectReplacementFont(_ cascade: ResolvedCascade) -> Font {
        var scalar = Unicode.Scalar(0xFFFC)!
        return withUnsafePointer(to: &scalar) { p in
            switch cascade.choose(forCluster: UnsafeBufferPointer(start: p, count: 1)) {
            case .font(let f), .missing(let f): f
            case .inherit: cascade.primary
            }
        }
    }
}
