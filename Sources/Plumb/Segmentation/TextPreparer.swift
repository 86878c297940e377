/// Turns text into a `PreparedText`: paragraphs → grapheme clusters → fonts → segments →
/// shaped advances → words. The width-independent half of the pipeline.
///
/// One `TextPreparer` per worker: it owns ICU iterators, a HarfBuzz buffer and scratch
/// arrays. Shaped segments go through the shared `SegmentCache` (tier 1), so words seen
/// before are never shaped again.
///
/// - Thread safety: not thread-safe; use one per thread (`PreparerPool` lends them out).
final class TextPreparer: @unchecked Sendable {  // one thread at a time (PreparerPool)
    let iterators: BreakIterators
    /// ICU's line breaking under `rules`: the default rules, or ICU with a CSS `line-break`
    /// keyword (`@lb=normal`, the chromium profile's; `@lb=loose`) in `locale` (its tailored
    /// rules: Japanese and Chinese; else English), opened on first use.
    func iterators(for rules: LayoutConventions.BreakRules, locale: String? = nil) -> BreakIterators {
        guard let keyword = rules.icuKeyword else { return iterators }
        let name = "\(locale ?? "en")@lb=\(keyword)"
        if let opened = keywordIterators[name] { return opened }
        let opened = BreakIterators(locale: name) ?? iterators
        keywordIterators[name] = opened
        return opened
    }
    /// The keyword iterators opened so far, by ICU locale name (`ja@lb=normal`).
    private var keywordIterators: [String: BreakIterators] = [:]
    private let shaper = Shaper()
    var shaperForInk: Shaper { shaper }
    private let segmentCache: SegmentCache
    /// Buffers reused from text to text.
    struct Scratch: ~Copyable {
        /// The scalars of the cluster being classified (at most `maximumClusterScalars`).
        var scalars = Column<Unicode.Scalar>()
        /// Where the style runs of the paragraph being prepared end (`ParagraphInput.runEnds`).
        var runEnds = Column<Int32>()
        var units = GrowableBuffer<Int32>()
        var relativeEnds = GrowableBuffer<Int32>()
        var kernBoundaries: [Int] = []
        /// The font tables of the last texts prepared, up to `recentFontTableCount`
        /// (``TextPreparer/sharedFontTable(_:_:)``); `nextFontTable` is replaced next.
        var recentFontTables: [FontTable] = []
        var nextFontTable = 0
        /// The last segment too long for the segment cache, with its units.
        var lastLongSegment: (key: CacheKey, units: [Int32])?
        /// Scripts and first scalars of the paragraph being prepared.
        var paragraph = ParagraphScratch()
        /// The builders' per-grapheme storage, lent to each text's builder.
        var columns = PreparedTextBuilder.Columns()
        /// Segments of the paragraph that missed the segment cache, waiting to be shaped
        /// together (``TextPreparer/shapePendingSegments(_:into:)``), and that call's buffers.
        var pending: [PendingSegment] = []
        var batchBytes = GrowableBuffer<UInt8>()
        var batchEnds = GrowableBuffer<Int32>()
        var batchStarts = GrowableBuffer<Int32>()
        var batchUnits = GrowableBuffer<Int32>()
        var batchMembers = GrowableBuffer<Int32>()
        /// Nominal advances of single scalars (``TextPreparer/aloneUnits(_:at:_:_:)``)
        /// and first advances of short kerning pairs (``TextPreparer/applyPairKerning(_:at:script:into:)``).
        var nominalAdvances = AdvanceMemo()
        var pairAdvances = AdvanceMemo()
        /// Nominal advances of ASCII bytes, a table per font (``ASCIINominals``).
        var asciiNominals = ASCIINominals()
        /// The last "…" shaped (``TextPreparer/measureEllipsis(into:)``): its font's id, key
        /// script (``TextPreparer/keyScript(_:)``: the shaping language) and units, as the
        /// segment cache has them under that key (a font id is never reused).
        var lastEllipsis: (fontID: Int, keyScript: UInt32, units: Int32) = (-1, 0, 0)
        /// The local font of each ASCII byte whose cascade choice was a cascade font, in the
        /// current run (``ASCIIFonts``).
        var asciiFonts = ASCIIFonts()
    }

    /// Per ASCII byte, its local font in the current style run when the cascade chose one of
    /// its own fonts for it alone: that choice depends on the scalar only, so the next
    /// cluster of that byte skips `chooseIndexed` (~75 instructions). Forgotten at every run
    /// start (another cascade or style); fallback, emoji and inherited choices are never kept.
    struct ASCIIFonts: ~Copyable {
        private let fonts = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)

        /// What a byte whose font is not known holds (no local font has this index).
        private static let unknown: UInt8 = 255

        init() { fonts.initialize(repeating: Self.unknown, count: 128) }

        deinit { fonts.deallocate() }

        /// Forgets every byte's font (``unknown``).
        mutating func forget() { fonts.update(repeating: Self.unknown, count: 128) }

        /// The local font of `byte` (< 0x80), if known.
        subscript(byte: UInt8) -> UInt8? {
            get {
                let f = fonts[Int(byte)]
                return f == Self.unknown ? nil : f
            }
            set { fonts[Int(byte)] = newValue ?? Self.unknown }
        }
    }

    /// Nominal advances (font units) of the 128 ASCII scalars, one table per font for up to
    /// eight fonts (direct-mapped by font id; a font id is process-unique and never reused,
    /// so a tag match is exact): the chromium profile's alone check
    /// (``TextPreparer/aloneUnits(_:at:_:_:)``) reads one entry per ASCII cluster instead of
    /// building an ``AdvanceMemo`` key and hashing it (~55 instructions). An entry is filled
    /// from `Shaper.nominalAdvance` on first use; a table taken over by another font is
    /// emptied (`Int32.min`: unknown — no advance is that value).
    struct ASCIINominals: ~Copyable {
        private static let ways = 8
        private let tags = UnsafeMutablePointer<Int>.allocate(capacity: ways)
        private let units = UnsafeMutablePointer<Int32>.allocate(capacity: ways * 128)

        init() { tags.initialize(repeating: -1, count: Self.ways) }

        deinit {
            tags.deallocate()
            units.deallocate()
        }

        /// The table of font `id` (≥ 0): 128 entries, `Int32.min` where not yet known. Valid
        /// until the next call for another id.
        ///
        /// - Complexity: O(1); O(128) when the way changes font.
        mutating func table(forFontID id: Int) -> UnsafeMutablePointer<Int32> {
            let way = id & (Self.ways - 1)
            let table = units + way * 128
            if tags[way] != id {
                tags[way] = id
                table.initialize(repeating: .min, count: 128)
            }
            return table
        }
    }

    /// The ASCII table of the local font last asked for (``TextPreparer/aloneUnits(_:at:_:_:)``):
    /// one comparison per cluster while the font stays the same.
    struct ASCIINominalCursor {
        var local = -1
        var table: UnsafeMutablePointer<Int32>? = nil
        /// The font id of local font `idLocal`, the memo's key for other single scalars (the
        /// text's font list does not change while its words are built).
        var idLocal = -1
        var fontID: UInt64 = 0
    }

    /// A direct-mapped memo of advances (font units) by a two-word key, per preparer (no lock,
    /// no hashing of bytes): single scalars' nominal advances (``TextPreparer/aloneUnits(_:at:_:_:)``:
    /// the chromium profile asks for nearly every cluster, and a `cmap` and `hmtx` look-up
    /// through HarfBuzz cost ~200 instructions) and the first cluster's advance of short
    /// kerning pairs (``TextPreparer/applyPairKerning(_:at:script:into:)``: a segment-cache
    /// look-up, ~800 instructions, for each of ~5 pairs per cell, nearly all " " + a letter).
    /// Keys hold everything the value depends on (font ids are process-unique, never reused),
    /// so a hit is exact; a collision replaces the slot.
    struct AdvanceMemo: ~Copyable {
        /// log₂ of ``slots``: how many of the key hash's top bits pick a slot.
        private static let slotBits = 12
        /// The memo's slots (4096).
        private static let slots = 1 << slotBits
        /// Mixes the second key word before it is folded into the first (XXH64's second
        /// prime: odd, its bits well spread), so keys that differ in either word spread apart.
        private static let keyMixer: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        /// Per slot: the key (`first` 0 = empty) and the advance.
        private let firsts = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        private let seconds = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        private let values = UnsafeMutablePointer<Int32>.allocate(capacity: slots)

        init() { firsts.initialize(repeating: 0, count: Self.slots) }

        deinit {
            firsts.deallocate()
            seconds.deallocate()
            values.deallocate()
        }

        @inline(__always)
        private static func slot(_ first: UInt64, _ second: UInt64) -> Int {
            FibonacciHash.slot(first ^ second &* keyMixer, bits: slotBits)
        }

        /// The remembered advance for key (`first`, `second`); `first` must not be 0.
        @inline(__always)
        func units(_ first: UInt64, _ second: UInt64) -> Int32? {
            let i = Self.slot(first, second)
            return firsts[i] == first && seconds[i] == second ? values[i] : nil
        }

        /// Remembers `units` for key (`first`, `second`) (replacing its slot); `first` ≠ 0.
        mutating func remember(_ units: Int32, _ first: UInt64, _ second: UInt64) {
            let i = Self.slot(first, second)
            firsts[i] = first
            seconds[i] = second
            values[i] = units
        }
    }

    /// A segment that missed the segment cache, to be shaped with the paragraph's others.
    struct PendingSegment {
        /// Its graphemes (text indices) and bytes (text offsets).
        let graphemes: Range<Int>
        let bytes: Range<Int>
        let key: CacheKey
        let local: UInt8
        let script: ScriptTag
        /// An earlier pending segment of the same key (its advances are copied), or -1.
        let source: Int32
        var shaped = false
    }

    /// Whether missed segments of a paragraph are shaped together
    /// (``shapePendingSegments(_:into:)``); `false` shapes each as it is met (the tests'
    /// reference).
    var shapesMissedSegmentsTogether = true

    /// Whether the chromium alone check reads ASCII clusters' nominal advances from
    /// ``ASCIINominals`` tables; `false` takes every one from the ``AdvanceMemo`` path (the
    /// tests' reference). Read only when a cluster misses its table.
    var usesASCIINominals = true

    /// At most this many missed segments wait; the next one shapes them.
    static let maximumPendingSegments = 64
    /// One joint HarfBuzz run takes segments up to this many bytes in all (the first always).
    static let maximumBatchBytes = 4096
    // Exclusivity of this class property is checked at run time in debug builds (the tests)
    // and not in release builds: the checks are a measurable share of a cold measurement
    // (Decisions.md, "Speed decisions (issue 3)"), and a preparer is used by one thread at a time.
    #if DEBUG
    var scratch = Scratch()
    #else
    @exclusivity(unchecked) var scratch = Scratch()
    #endif

    /// The dictionaries' answers for words this preparer met (words repeat across cells, and
    /// libhyphen allocates per call).
    let hyphenationMemo = HyphenationMemo()

    /// Whether runs of one-grapheme words are stored as one word each
    /// (``mergeOneGraphemeWords(from:graphemeStart:into:)``); false only in tests, which
    /// compare the lines of both.
    let mergesWordRuns: Bool

    init(iterators: BreakIterators, segmentCache: SegmentCache, mergesWordRuns: Bool = true) {
        self.iterators = iterators
        self.segmentCache = segmentCache
        self.mergesWordRuns = mergesWordRuns
        scratch.scalars.reserve(64)
    }

    deinit {
        scratch.columns.deallocate()
        scratch.scalars.deallocate()
        scratch.runEnds.deallocate()
        scratch.paragraph.deallocate()
    }

    /// Texts longer than this (UTF-8 bytes) give their scratch back after preparing, so one
    /// huge cell does not keep ~30 bytes per byte of it alive in every worker.
    static let retainedScratchBytes = 1 << 16

    /// Frees the per-grapheme scratch grown by a large text (it is allocated again on use).
    private func releaseLargeScratch() {
        iterators.releaseBuffers(over: Self.retainedScratchBytes)
        for opened in keywordIterators.values { opened.releaseBuffers(over: Self.retainedScratchBytes) }
        scratch.columns.deallocate()
        scratch.paragraph.deallocate()
        scratch.lastLongSegment = nil
        scratch.units = GrowableBuffer<Int32>()
        scratch.relativeEnds = GrowableBuffer<Int32>()
    }

    /// The engine's shared table for `fonts` and `scales`: one of the last texts' when it is
    /// the same (no lock, no key: a feed alternates between a few font sets, Latin alone,
    /// with CJK, with Arabic…), else the interner's (`SegmentCache.fontTables`).
    func sharedFontTable(_ fonts: [PreparedText.FontUse], _ scales: UnsafeBufferPointer<AdvanceScale>) -> FontTable {
        for table in scratch.recentFontTables where table.matches(fonts: fonts, scales: scales) { return table }
        let table = segmentCache.fontTables.table(fonts: fonts, scales: scales)
        if scratch.recentFontTables.count < Self.recentFontTableCount {
            scratch.recentFontTables.append(table)
        } else {
            scratch.recentFontTables[scratch.nextFontTable] = table
            scratch.nextFontTable = (scratch.nextFontTable + 1) % Self.recentFontTableCount
        }
        return table
    }

    /// How many recent font tables a preparer compares before asking the interner.
    static let recentFontTableCount = 8

    /// Prepares `utf8` (valid UTF-8) in `cascade` at `size` points with `letterSpacing`.
    ///
    /// - Complexity: O(n) in the text length; the cost is dominated by ICU and, for segments
    ///   not in the cache, HarfBuzz (timings: Decisions.md, "Timings from code comments").
    func prepare(
        _ utf8: UnsafeBufferPointer<UInt8>, cascade: ResolvedCascade, size: Double,
        letterSpacing: Double, wordSpacing: Double = 0, conventions: LayoutConventions = .standard,
        hyphenation: HyphenationRequest? = nil
    ) -> PreparedText {
        let run = PreparationRun(byteEnd: utf8.count, cascade: cascade, size: size, letterSpacing: letterSpacing)
        return prepare(
            utf8, runs: [run], ellipsis: run, conventions: conventions, hyphenation: hyphenation, wordSpacing: wordSpacing)
    }

    /// Prepares `utf8` (valid UTF-8) in runs of character styles: breaks over each whole
    /// paragraph, fonts and shaping per run (no kerning or ligature across a run end; a
    /// cluster never spans one), "…" in the `ellipsis` run's font.
    ///
    /// - Parameter runs: ascending, the last one ending at `utf8.count`; not empty.
    /// - Parameter hyphenation: where words break with a hyphen (nil: the profile's default
    ///   mode, no dictionary).
    /// - Parameter wordSpacing: added to every word separator's advance (phase 4b).
    /// - Complexity: O(n) in the text length, as the one-run call.
    func prepare(
        _ utf8: UnsafeBufferPointer<UInt8>, runs: [PreparationRun], ellipsis: PreparationRun,
        token: TokenInput? = nil, conventions: LayoutConventions, hyphenation: HyphenationRequest? = nil,
        wordSpacing: Double = 0
    ) -> PreparedText {
        var builder = PreparedTextBuilder(first: runs[0], conventions: conventions, columns: &scratch.columns)
        builder.wordSpacing = wordSpacing
        if let hyphenation { builder.hyphenation = hyphenation }
        builder.hyphens.cutsBeforeSoftHyphens = !builder.hyphenation.rule.softHyphenBeforeSpacesShows
        builder.hyphens.cutsGoPastUnfittingHyphens = builder.hyphenation.rule.cutsGoPastUnfittingHyphens
        if builder.hyphenation.mode == .auto && builder.hyphenation.rule.hasDictionaries && runs.contains(where: { $0.language != nil }) {
            let styleDictionary = builder.hyphenation.dictionary
            builder.runDictionaries = runs.map { $0.language.map(HyphenationDictionaries.dictionary(for:)) ?? styleDictionary }
        }
        defer {
            scratch.columns = builder.handBack()
            if utf8.count > Self.retainedScratchBytes { releaseLargeScratch() }
        }
        shaper.language = conventions.shapingLanguage
        builder.reserve(graphemes: utf8.count)
        // Room for the words at once (a word per 3 UTF-8 bytes at most for CJK, fewer in other
        // scripts): growing the array by doubling reallocated it ~4 times per cell.
        builder.words.reserveCapacity(utf8.count / 3 + 1)
        var run = 0
        var nextParagraph = 0
        while let (range, next) = Paragraphs.next(in: utf8, from: nextParagraph) {
            nextParagraph = next
            // In the preparer's scratch: no array allocated per paragraph.
            scratch.runEnds.removeAll()
            while run < runs.count && runs[run].byteEnd <= range.lowerBound && runs[run].byteEnd < utf8.count { run += 1 }
            var k = run
            while k < runs.count && runs[k].byteEnd < range.upperBound {
                if runs[k].byteEnd > range.lowerBound { scratch.runEnds.append(Int32(runs[k].byteEnd)) }
                k += 1
            }
            scratch.runEnds.append(Int32(range.upperBound))
            let input = ParagraphInput(
                text: utf8, bytes: range, graphemes: 0..<0, runEnds: scratch.runEnds.buffer, runs: runs, firstRun: run)
            prepareParagraph(input, into: &builder)
            builder.paragraphs[builder.paragraphs.count - 1].followsLineSeparator =
                Paragraphs.isLineSeparator(before: range.lowerBound, in: utf8)
        }
        let tabFacts = builder.hasTab ? Self.tabFacts(utf8, space: spaceWidth(runs[0], into: &builder), builder) : nil
        if let token, !token.runs.isEmpty {
            let prepared = prepareToken(token, into: &builder)
            return builder.finish(
                utf8Count: utf8.count, ellipsisFont: prepared.pieces.first?.font ?? 0,
                ellipsisWidth: prepared.pieces.reduce(0) { $0 + $1.width },
                ellipsisMask: prepared.pieces.reduce(0) { $0 | PreparedText.fontBit($1.font) }, token: prepared,
                tabFacts: tabFacts, hyphens: builder.hyphens, handingOverColumns: utf8.count > Self.retainedScratchBytes,
                fontTable: sharedFontTable)
        }
        // With several run styles, "…" takes the style of the text it follows (UIKit uses the
        // attributes at the truncation point): one per text style.
        var byGroup: [GroupEllipsis] = []
        let ellipsisStyle = PreparedTextBuilder.RunStyle(
            cascadeID: ObjectIdentifier(ellipsis.cascade), size: ellipsis.size, letterSpacing: ellipsis.letterSpacing,
            baselineOffset: ellipsis.baselineOffset, box: ellipsis.box)
        if builder.groups.count > 1 || builder.groups.first?.style != ellipsisStyle {
            for (style, cascade) in builder.groups {
                // A word separator's entry: "…" after it takes its run's own spacing.
                guard style.box == nil, style.extraSpacing == 0 else {
                    byGroup.append(GroupEllipsis(font: 0, width: 0, isSet: false))
                    continue
                }
                builder.beginRun(
                    PreparationRun(
                        byteEnd: utf8.count, cascade: cascade, size: style.size, letterSpacing: style.letterSpacing,
                        baselineOffset: style.baselineOffset))
                let (font, width) = measureEllipsis(into: &builder)
                byGroup.append(GroupEllipsis(font: font, width: width, isSet: true))
            }
        }
        builder.beginRun(ellipsis)
        let (ellipsisFont, ellipsisWidth) = measureEllipsis(into: &builder)
        return builder.finish(
            utf8Count: utf8.count, ellipsisFont: ellipsisFont, ellipsisWidth: ellipsisWidth, ellipsisByGroup: byGroup,
            tabFacts: tabFacts, hyphens: builder.hyphens, handingOverColumns: utf8.count > Self.retainedScratchBytes,
            fontTable: sharedFontTable)
    }

    /// The units of cluster `g` shaped alone: for one scalar its own glyph's advance
    /// (`Shaper.nominalAdvance`, no shaping, remembered in ``AdvanceMemo``); for a sequence
    /// (marks, jamo, emoji) the cluster shaped by itself through the segment cache
    /// (``aloneSequenceUnits(_:start:end:at:_:)``). In points: the font's `AdvanceScale`.
    ///
    /// - Parameter b: `inout` only so the builder is not copied (it is read, not changed).
    /// - Complexity: O(1) for one scalar remembered (one memo probe).
    ///
    /// An ASCII cluster (one byte) reads its font's ``ASCIINominals`` table through `cursor`
    /// (filled by ``asciiNominalUnits(_:at:_:_:)`` on first use).
    @inline(__always)
    func aloneUnits(
        _ text: UnsafeBufferPointer<UInt8>, at g: Int, _ b: inout PreparedTextBuilder, _ cursor: inout ASCIINominalCursor
    ) -> Int32 {
        let start = Int(b.graphemeStart(g))
        let end = Int(b.graphemeEnds[g])
        let lead = text[start]
        if lead < 0x80 && end == start &+ 1 {
            let local = Int(b.graphemeFonts[g])
            if local == cursor.local, let table = cursor.table {
                let units = table[Int(lead)]
                if units != .min { return units }
            }
            return asciiNominalUnits(lead, at: g, &b, &cursor)
        }
        let firstLength = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard start + firstLength >= end else { return aloneSequenceUnits(text, start: start, end: end, at: g, &b) }
        let local = Int(b.graphemeFonts[g])
        if local != cursor.idLocal {
            cursor.idLocal = local
            cursor.fontID = UInt64(b.fontList[local].id)
        }
        let fontID = cursor.fontID
        let key = Self.nominalKey(text, start: start, length: firstLength)
        if let known = scratch.nominalAdvances.units(key, fontID) { return known }
        return nominalUnits(ParagraphScratch.scalar(in: text, at: start), key: key, fontID: fontID, local: local, at: g, &b)
    }

    /// The memo key of the scalar whose `length` UTF-8 bytes start at `start` of valid UTF-8
    /// `text`: its bytes, first in the low byte, and bit 32 (never 0). One scalar, one key
    /// (UTF-8 is a bijection), without decoding it on a hit.
    ///
    /// - Complexity: O(1), at most four loads.
    @inline(__always)
    static func nominalKey(_ text: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> UInt64 {
        let p = text.baseAddress.unsafelyUnwrapped + start
        var key = UInt64(p[0]) | 1 << 32
        if length > 1 { key |= UInt64(p[1]) << 8 }
        if length > 2 { key |= UInt64(p[2]) << 16 }
        if length > 3 { key |= UInt64(p[3]) << 24 }
        return key
    }

    /// The nominal advance of ASCII cluster `g` (`byte`) not found through `cursor`: the
    /// cursor moves to its font's table, and the entry is filled if unknown.
    @inline(never)
    private func asciiNominalUnits(
        _ byte: UInt8, at g: Int, _ b: inout PreparedTextBuilder, _ cursor: inout ASCIINominalCursor
    ) -> Int32 {
        let local = Int(b.graphemeFonts[g])
        guard usesASCIINominals else {
            let key = Self.nominalKey(text: byte)
            if let known = scratch.nominalAdvances.units(key, UInt64(b.fontList[local].id)) { return known }
            return nominalUnits(UInt32(byte), key: key, fontID: UInt64(b.fontList[local].id), local: local, at: g, &b)
        }
        let table = scratch.asciiNominals.table(forFontID: b.fontList[local].id)
        cursor = ASCIINominalCursor(local: local, table: table)
        if table[Int(byte)] == .min {
            let font = b.fontList[local].font
            table[Int(byte)] = font.hasNominalAdvances
                ? Shaper.nominalAdvance(of: CollectionOfOne(Unicode.Scalar(byte)), font: font)
                : shapedAloneUnits(of: Unicode.Scalar(byte), at: g, &b)
        }
        return table[Int(byte)]
    }

    /// ``nominalKey(_:start:length:)`` of an ASCII byte.
    @inline(__always)
    static func nominalKey(text byte: UInt8) -> UInt64 { UInt64(byte) | 1 << 32 }

    /// A single scalar's nominal advance, not yet remembered (see ``aloneUnits(_:at:_:_:)``).
    @inline(never)
    private func nominalUnits(
        _ scalar: UInt32, key: UInt64, fontID: UInt64, local: Int, at g: Int, _ b: inout PreparedTextBuilder
    ) -> Int32 {
        let font = b.fontList[local].font
        let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        let units = font.hasNominalAdvances ? Shaper.nominalAdvance(of: CollectionOfOne(s), font: font) : shapedAloneUnits(of: s, at: g, &b)
        scratch.nominalAdvances.remember(units, key, fontID)
        return units
    }

    /// A scalar shaped by itself with its font's features (a feature such as `tnum` or
    /// `smcp` substitutes the nominal glyph, so `cmap` → `hmtx` would be wrong).
    private func shapedAloneUnits(of scalar: Unicode.Scalar, at g: Int, _ b: inout PreparedTextBuilder) -> Int32 {
        var utf8: [UInt8] = []
        utf8.append(contentsOf: String(Character(scalar)).utf8)
        return utf8.withUnsafeBufferPointer { aloneSequenceUnits($0, start: 0, end: $0.count, at: g, &b) }
    }

    /// A cluster of several scalars shaped by itself (through the segment cache, in the
    /// script of grapheme `g`).
    @inline(never)
    private func aloneSequenceUnits(
        _ text: UnsafeBufferPointer<UInt8>, start: Int, end: Int, at g: Int, _ b: inout PreparedTextBuilder
    ) -> Int32 {
        let local = Int(b.graphemeFonts[g])
        let bytes = UnsafeBufferPointer(rebasing: text[start..<end])
        return cachedUnits(
            of: bytes, clusters: 1, clusterEnd: { _ in Int32(bytes.count) }, fontID: b.fontList[local].id,
            script: scratch.paragraph[g], font: { b.fontList[local].font })[0]
    }

    /// Scripts whose text breaks between almost every character (CJK) are shaped a whole
    /// font-and-script run at a time, so kerning between characters (e.g. ケー in Noto Sans
    /// CJK) counts as it does in every other engine; the run is still cut at its break
    /// opportunities by the line breaker. Other scripts are shaped one word at a time, which
    /// lets words be cached and reused across cells.
    @inline(__always)
    static func shapesWholeRuns(_ script: ScriptTag) -> Bool {
        switch script {
        case .han, .hiragana, .katakana, .hangul, .bopomofo: true
        default: false
        }
    }

    /// Han, hiragana or katakana: the scripts Blink shapes as one run in Japanese text.
    @inline(__always)
    static func isJapanese(_ script: ScriptTag) -> Bool { script == .han || script == .hiragana || script == .katakana }

    /// The script as the segment cache sees it (its raw tag, hashed into keys): shaping with
    /// the document language (`LayoutConventions.shapingLanguage`) gives other advances, so it
    /// gets other keys.
    @inline(__always)
    func keyScript(_ script: ScriptTag) -> UInt32 {
        shaper.language == .document ? script.rawValue | Self.documentLanguageKeyBit : script.rawValue
    }

    /// Set in ``keyScript(_:)`` when shaping uses the document language: no ISO 15924 tag has
    /// it (the tags are ASCII letters), so these keys never meet the script's own.
    static let documentLanguageKeyBit: UInt32 = 0x8000_0000

    /// Gives Common/Inherited clusters (spaces, digits, punctuation, ー) a script, as UAX #24
    /// script-run itemization does (ICU's `usc`, Pango): the script of the run they are in;
    /// leading ones take the first real script; a closing bracket takes the script of its
    /// opening bracket (`<숫자>` in Latin text closes back into Latin). Segments are then shaped
    /// with their script's language forms.
    ///
    /// - Parameters:
    ///   - scripts: raw scripts of the clusters (`.neutral` = Common/Inherited), resolved in place.
    ///   - firstScalars: each cluster's first scalar, to recognise paired brackets.
    ///   - pairsAll: whether quotation marks and `<…>` pair like brackets (`usc` and Pango:
    ///     `‘…’`, `“…”`, `«…»`, `<…>`); Blink pairs only Unicode's bidi brackets, so a closing
    ///     quote or `>` stays in the run of the text it follows (the chromium profile).
    static func resolveCommonScripts(_ scripts: inout [ScriptTag], firstScalars: [UInt32], pairsAll: Bool = true) {
        var raw = scripts.map(\.rawValue)
        raw.withUnsafeMutableBufferPointer { s in
            resolveCommonScripts(s, firstScalar: { $0 < firstScalars.count ? firstScalars[$0] : 0 }, pairsAll: pairsAll)
        }
        scripts = raw.map(ScriptTag.init(rawValue:))
    }

    /// ``resolveCommonScripts(_:firstScalars:pairsAll:)`` over a buffer of raw script tags or
    /// script indexes (0 = Common; the preparer's scratch stores one byte per cluster), each
    /// cluster's first scalar read through `firstScalar` (only for Common clusters).
    @inline(__always)
    static func resolveCommonScripts<S: FixedWidthInteger>(
        _ scripts: UnsafeMutableBufferPointer<S>, firstScalar: (Int) -> UInt32, pairsAll: Bool
    ) {
        var run: S = 0
        var stack: [(closing: UInt32, script: S)] = []
        var pendingStart = 0  // first cluster still waiting for a real script
        for i in scripts.indices {
            let raw = scripts[i]
            if raw != 0 {
                if run == 0 {
                    for k in pendingStart..<i { scripts[k] = raw }
                    for k in stack.indices where stack[k].script == 0 { stack[k].script = raw }
                }
                run = raw
                continue
            }
            let c = firstScalar(i)
            // Most Common clusters are spaces, digits and punctuation that pair with nothing:
            // one range test before the look-ups (a hashed `Dictionary`/`Set` probe per
            // cluster showed in profiles).
            guard Self.mayPair(c) else {
                scripts[i] = run
                if run != 0 { pendingStart = i + 1 }
                continue
            }
            if let closing = pairedClosing[c], pairsAll || !Self.notBidiBrackets.contains(c) {
                stack.append((closing, run))
                if stack.count > Self.maximumBracketDepth { stack.removeFirst() }
            } else if pairsAll || !Self.notBidiBrackets.contains(c), let k = stack.lastIndex(where: { $0.closing == c }) {
                if stack[k].script != 0 { run = stack[k].script }
                stack.removeSubrange(k...)
            }
            scripts[i] = run
            if run == 0 { continue }
            pendingStart = i + 1
        }
    }

    /// Open brackets remembered by ``resolveCommonScripts(_:firstScalar:pairsAll:)``: deeper
    /// ones forget the outermost first (ICU's `usc` keeps as many).
    static let maximumBracketDepth = 32

    /// Whether `c` can be in `pairedClosing` as an opening or closing bracket (a superset:
    /// the ASCII brackets and `<>`, `«»`, and U+2018–U+203A, U+3008–U+301B, U+FF08–U+FF5D).
    @inline(__always)
    static func mayPair(_ c: UInt32) -> Bool {
        switch c {
        case 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0xAB, 0xBB: true
        case 0x2018...0x203A, 0x3008...0x301B, 0xFF08...0xFF5D: true
        default: false
        }
    }

    /// Opening → closing brackets that script itemization pairs (ICU's `usc` list).
    private static let pairedClosing: [UInt32: UInt32] = [
        0x28: 0x29, 0x3C: 0x3E, 0x5B: 0x5D, 0x7B: 0x7D, 0xAB: 0xBB, 0x2018: 0x2019,
        0x201C: 0x201D, 0x2039: 0x203A, 0x3008: 0x3009, 0x300A: 0x300B, 0x300C: 0x300D,
        0x300E: 0x300F, 0x3010: 0x3011, 0x3014: 0x3015, 0x3016: 0x3017, 0x3018: 0x3019,
        0x301A: 0x301B, 0xFF08: 0xFF09, 0xFF3B: 0xFF3D, 0xFF5B: 0xFF5D,
    ]

    /// The pairs in `pairedClosing` that are not bidi paired brackets in Unicode
    /// (BidiBrackets.txt): angle brackets `<…>` and quotation marks.
    private static let notBidiBrackets: Set<UInt32> = [0x3C, 0x3E, 0xAB, 0xBB, 0x2018, 0x2019, 0x201C, 0x201D, 0x2039, 0x203A]

    /// Per-cluster advances (font units) of `bytes` in `font`: from the segment cache, or shaped
    /// and stored. `clusterEnd(i)` is the end of cluster i relative to `bytes`.
    ///
    /// - Returns: the advances, in the preparer's scratch: valid until the next call.
    /// - Complexity: one cache lookup; an `hb_shape` call on a miss.
    @inline(__always)
    func cachedUnits(
        of bytes: UnsafeBufferPointer<UInt8>, clusters count: Int, clusterEnd: (Int) -> Int32,
        font: Font, script: ScriptTag
    ) -> UnsafeBufferPointer<Int32> {
        cachedUnits(of: bytes, clusters: count, clusterEnd: clusterEnd, fontID: font.id, script: script) { font }
    }

    /// ``cachedUnits(of:clusters:clusterEnd:font:script:)`` for the font with id `fontID`,
    /// which `font()` gives only on a miss: a hit touches no font object (no reference count).
    /// Segments over ``maximumCachedClusters`` skip the cache; the last one is remembered.
    func cachedUnits(
        of bytes: UnsafeBufferPointer<UInt8>, clusters count: Int, clusterEnd: (Int) -> Int32,
        fontID: Int, script: ScriptTag, font: () -> Font
    ) -> UnsafeBufferPointer<Int32> {
        let cached = count <= Self.maximumCachedClusters
        let key = SegmentCache.key(bytes: bytes, fontID: fontID, script: keyScript(script))
        let units = scratch.units.reserve(count)
        let out = UnsafeMutableBufferPointer(rebasing: units[0..<count])
        if cached, segmentCache.copyAdvances(for: key, into: out) { return UnsafeBufferPointer(out) }
        if !cached, let last = scratch.lastLongSegment, last.key == key, last.units.count == count {
            for i in 0..<count { out[i] = last.units[i] }
            return UnsafeBufferPointer(out)
        }
        let ends = scratch.relativeEnds.reserve(count)
        for i in 0..<count { ends[i] = clusterEnd(i) }
        shaper.shape(
            bytes, graphemeEnds: UnsafeBufferPointer(rebasing: ends[0..<count]), font: font(),
            script: script, advances: out)
        if cached { segmentCache.insert(UnsafeBufferPointer(out), for: key) } else { scratch.lastLongSegment = (key, Array(out)) }
        return UnsafeBufferPointer(out)
    }

    /// Segments of more clusters than this are not kept in the segment cache: the pieces of
    /// a huge word or CJK paragraph are rarely seen again, and caching them took up to 4
    /// bytes per byte of a 4 MB word of distinct pieces in tier 1. The preparer remembers the
    /// last one only (`Scratch.lastLongSegment`: a word of one repeated letter is shaped
    /// once, as before).
    static let maximumCachedClusters = 512

    /// Shapes graphemes `range` (one font, one script) through the segment cache. A miss of a
    /// script HarfBuzz may shape jointly (``Shaper/batchesSegments(of:)``) waits in
    /// `scratch.pending` for ``shapePendingSegments(_:into:)``.
    func shapeSegment(
        _ text: UnsafeBufferPointer<UInt8>, graphemes range: Range<Int>, script: ScriptTag,
        into b: inout PreparedTextBuilder
    ) {
        let byteStart = Int(b.graphemeStart(range.lowerBound))
        let byteEnd = Int(b.graphemeEnds[range.upperBound - 1])
        // Fields of the local font, not the entry (a copy would retain its font).
        let local = Int(b.graphemeFonts[range.lowerBound])
        if shapesMissedSegmentsTogether, range.count <= Self.maximumCachedClusters, Shaper.batchesSegments(of: script) {
            let key = SegmentCache.key(
                bytes: UnsafeBufferPointer(rebasing: text[byteStart..<byteEnd]), fontID: b.fontList[local].id,
                script: keyScript(script))
            let out = UnsafeMutableBufferPointer(rebasing: scratch.units.reserve(range.count)[0..<range.count])
            if segmentCache.copyAdvances(for: key, into: out) {
                for i in 0..<range.count { b.units[range.lowerBound + i] = out[i] }
                return
            }
            var source: Int32 = -1
            for k in scratch.pending.indices where scratch.pending[k].key == key && scratch.pending[k].graphemes.count == range.count {
                source = Int32(k)
                break
            }
            scratch.pending.append(
                PendingSegment(
                    graphemes: range, bytes: byteStart..<byteEnd, key: key, local: UInt8(local), script: script,
                    source: source))
            if scratch.pending.count >= Self.maximumPendingSegments { shapePendingSegments(text, into: &b) }
            return
        }
        let graphemeEnds = b.graphemeEnds  // a pointer: no retain
        let units = cachedUnits(
            of: UnsafeBufferPointer(rebasing: text[byteStart..<byteEnd]), clusters: range.count,
            clusterEnd: { graphemeEnds[range.lowerBound + $0] - Int32(byteStart) },
            fontID: b.fontList[local].id, script: script, font: { b.fontList[local].font })
        for i in 0..<range.count { b.units[range.lowerBound + i] = units[i] }
    }

    /// Shapes the segments waiting in `scratch.pending`: those of one font and script together
    /// in one HarfBuzz run (``Shaper/shapeSegments(_:graphemeEnds:segmentStarts:font:script:advances:)``,
    /// exact: a segment whose edges HarfBuzz marks unsafe to break is shaped again alone), each
    /// stored in the segment cache and written to the builder; a repeated segment copies the
    /// first's advances.
    ///
    /// - Complexity: one `hb_shape` per font and script (and per ``maximumBatchBytes``)
    ///   instead of one per segment; O(p²) key comparisons for p ≤ ``maximumPendingSegments``.
    func shapePendingSegments(_ text: UnsafeBufferPointer<UInt8>, into b: inout PreparedTextBuilder) {
        let count = scratch.pending.count
        guard count > 0 else { return }
        for i in 0..<count where !scratch.pending[i].shaped && scratch.pending[i].source < 0 {
            shapeBatch(startingAt: i, text, into: &b)
        }
        for i in 0..<count where scratch.pending[i].source >= 0 {
            let from = scratch.pending[Int(scratch.pending[i].source)].graphemes.lowerBound
            let range = scratch.pending[i].graphemes
            for k in 0..<range.count { b.units[range.lowerBound + k] = b.units[from + k] }
        }
        scratch.pending.removeAll(keepingCapacity: true)
    }

    /// Shapes pending segment `first` with the later pending segments of its font and script
    /// (up to ``maximumBatchBytes``) in one run; marks them shaped.
    private func shapeBatch(startingAt first: Int, _ text: UnsafeBufferPointer<UInt8>, into b: inout PreparedTextBuilder) {
        let local = scratch.pending[first].local
        let script = scratch.pending[first].script
        let members = scratch.batchMembers.reserve(Self.maximumPendingSegments)
        var memberCount = 0
        var byteCount = 0
        var clusterCount = 0
        for j in first..<scratch.pending.count {
            let p = scratch.pending[j]
            guard !p.shaped, p.source < 0, p.local == local, p.script == script else { continue }
            if memberCount > 0 && byteCount + p.bytes.count > Self.maximumBatchBytes { continue }
            members[memberCount] = Int32(j)
            memberCount += 1
            byteCount += p.bytes.count
            clusterCount += p.graphemes.count
            scratch.pending[j].shaped = true
        }
        let bytes = scratch.batchBytes.reserve(byteCount)
        let ends = scratch.batchEnds.reserve(clusterCount)
        let starts = scratch.batchStarts.reserve(memberCount)
        let units = scratch.batchUnits.reserve(clusterCount)
        var byte = 0
        var cluster = 0
        for m in 0..<memberCount {
            let p = scratch.pending[Int(members[m])]
            starts[m] = Int32(cluster)
            for i in p.bytes { bytes[byte + i - p.bytes.lowerBound] = text[i] }
            for g in p.graphemes {
                ends[cluster] = Int32(byte) + b.graphemeEnds[g] - Int32(p.bytes.lowerBound)
                cluster += 1
            }
            byte += p.bytes.count
        }
        let font = b.fontList[Int(local)].font
        shaper.shapeSegments(
            UnsafeBufferPointer(rebasing: bytes[0..<byteCount]), graphemeEnds: UnsafeBufferPointer(rebasing: ends[0..<clusterCount]),
            segmentStarts: UnsafeBufferPointer(rebasing: starts[0..<memberCount]), font: font, script: script,
            advances: UnsafeMutableBufferPointer(rebasing: units[0..<clusterCount]))
        for m in 0..<memberCount {
            let p = scratch.pending[Int(members[m])]
            let start = Int(starts[m])
            let shaped = UnsafeMutableBufferPointer(rebasing: units[start..<(start + p.graphemes.count)])
            for k in 0..<p.graphemes.count { b.units[p.graphemes.lowerBound + k] = shaped[k] }
            segmentCache.insert(UnsafeBufferPointer(shaped), for: p.key)
        }
    }

    /// Kerning between the last cluster of one segment and the first of the next (same font
    /// and script, split only by a break opportunity): shapes the pair (cached like a segment)
    /// and adds the difference of the first cluster's advance to it. HarfBuzz attributes a pair
    /// adjustment to the first glyph, so this equals shaping the whole run (`-T`, `e -`).
    ///
    /// - Complexity: one segment-cache lookup per boundary; a 2-cluster `hb_shape` on a miss.
    func applyPairKerning(
        _ text: UnsafeBufferPointer<UInt8>, at g: Int, script: ScriptTag, into b: inout PreparedTextBuilder
    ) {
        let byteStart = Int(b.graphemeStart(g - 1))
        let split = Int32(b.graphemeEnds[g - 1]) - Int32(byteStart)
        let byteEnd = Int(b.graphemeEnds[g])
        let local = Int(b.graphemeFonts[g])
        let fontID = b.fontList[local].id
        // A pair of at most 7 bytes is its own key (bytes, length and split) in the memo.
        let length = byteEnd - byteStart
        var packed: UInt64 = 0
        if length <= 7 {
            for i in 0..<length { packed |= UInt64(text[byteStart + i]) << (8 * i) }
            packed |= UInt64(length) << 56 | UInt64(split) << 60
            if let known = scratch.pairAdvances.units(packed, UInt64(fontID) << 32 | UInt64(keyScript(script))) {
                b.units[g - 1] = known
                return
            }
        }
        let pair = cachedUnits(
            of: UnsafeBufferPointer(rebasing: text[byteStart..<byteEnd]), clusters: 2,
            clusterEnd: { $0 == 0 ? split : Int32(byteEnd - byteStart) }, fontID: fontID,
            script: script, font: { b.fontList[local].font })
        b.units[g - 1] = pair[0]
        if packed != 0 { scratch.pairAdvances.remember(pair[0], packed, UInt64(fontID) << 32 | UInt64(keyScript(script))) }
    }

    /// Prepares a truncation token (one line, no breaks): per run its clusters take fonts as
    /// text does, each stretch of one face is shaped through the segment cache, a box counts
    /// its width.
    ///
    /// - Complexity: O(token length).
    private func prepareToken(_ token: TokenInput, into b: inout PreparedTextBuilder) -> PreparedToken {
        var pieces: [(bytes: Range<Int>, font: UInt8, width: Double, isBox: Bool)] = []
        var clusterWidths: [(end: Int32, width: Double)] = []
        token.utf8.withUnsafeBufferPointer { text in
            var start = 0
            for run in token.runs {
                b.beginRun(run)
                let end = run.byteEnd
                if let box = run.box {
                    pieces.append((start..<end, b.boxLocalIndex(), box.width, true))
                    clusterWidths.append((Int32(end), box.width))
                    start = end
                    continue
                }
                let bytes = UnsafeBufferPointer(rebasing: text[start..<end])
                var previous: UInt8 = 0
                var clusters: [(end: Int, font: UInt8)] = []
                var clusterStart = 0
                for boundary in iterators.graphemeBreaks(bytes) {
                    decodeScalars(bytes, start: clusterStart, end: Int(boundary))
                    let font = tokenFont(previousFont: previous, into: &b)
                    clusters.append((Int(boundary), font))
                    previous = font
                    clusterStart = Int(boundary)
                }
                var pieceStart = 0
                var k = 0
                while k < clusters.count {
                    var j = k
                    while j + 1 < clusters.count && clusters[j + 1].font == clusters[k].font { j += 1 }
                    let pieceEnd = clusters[j].end
                    let piece = UnsafeBufferPointer(rebasing: bytes[pieceStart..<pieceEnd])
                    let ends = clusters[k...j].map { Int32($0.end - pieceStart) }
                    let entry = b.fontList[Int(clusters[k].font)]
                    let units = cachedUnits(
                        of: piece, clusters: ends.count, clusterEnd: { ends[$0] }, font: entry.font, script: .neutral)
                    let widths = units.map { b.advance(units: $0, font: entry) }
                    let width = widths.reduce(0.0, +)
                    for (i, w) in widths.enumerated() { clusterWidths.append((Int32(start + pieceStart) + ends[i], w)) }
                    pieces.append((start + pieceStart..<start + pieceEnd, clusters[k].font, width, false))
                    pieceStart = pieceEnd
                    k = j + 1
                }
                start = end
            }
        }
        return PreparedToken(utf8: token.utf8, pieces: pieces, clusters: clusterWidths)
    }

    /// The font of a token cluster (in `scratch.scalars`) in the current run's cascade.
    private func tokenFont(previousFont: UInt8, into b: inout PreparedTextBuilder) -> UInt8 {
        let choice = b.cascade.choose(forCluster: scratch.scalars.buffer)
        switch choice {
        case .font(let f), .missing(let f): return b.localIndex(of: f)
        case .inherit: return previousFont
        }
    }

    /// Font and advance of "…" (U+2026) for truncated lines.
    private func measureEllipsis(into b: inout PreparedTextBuilder) -> (UInt8, Double) {
        scratch.scalars.removeAll()
        scratch.scalars.append("\u{2026}")
        let choice = b.cascade.choose(forCluster: scratch.scalars.buffer)
        let font: Font
        switch choice {
        case .font(let f), .missing(let f): font = f
        case .inherit: font = b.cascade.primary
        }
        let index = b.localIndex(of: font)
        let units: Int32
        if scratch.lastEllipsis.fontID == font.id && scratch.lastEllipsis.keyScript == keyScript(.neutral) {
            units = scratch.lastEllipsis.units
        } else {
            units = Self.ellipsisUTF8.withUnsafeBufferPointer { bytes in
                cachedUnits(of: bytes, clusters: 1, clusterEnd: { _ in Int32(bytes.count) }, font: font, script: .neutral)[0]
            }
            scratch.lastEllipsis = (font.id, keyScript(.neutral), units)
        }
        return (index, b.advance(units: units, font: .init(font, style: b.runStyle, group: b.group, freeTypeScaling: b.scalesLikeFreeType)))
    }

    /// A space's advance in `run`'s primary font at its size, letter spacing included: what
    /// CSS `tab-size` and Pango's default tabs count in (Blink's `SpaceWidth` of the primary
    /// font).
    private func spaceWidth(_ run: PreparationRun, into b: inout PreparedTextBuilder) -> Double {
        b.beginRun(run)
        let font = run.cascade.primary
        let units = Shaper.nominalAdvance(of: CollectionOfOne(Unicode.Scalar(0x20)), font: font)
        return b.advance(units: units, font: .init(font, style: b.runStyle, group: b.group, freeTypeScaling: b.scalesLikeFreeType))
    }

    /// The tab facts of `utf8` (prepared into `b`): the space width and which graphemes are
    /// a full stop.
    ///
    /// - Complexity: O(bytes + stops × log graphemes); only for a text with a tab.
    static func tabFacts(_ utf8: UnsafeBufferPointer<UInt8>, space: Double, _ b: PreparedTextBuilder) -> PreparedText.TabFacts {
        var points: [Int32] = []
        let ends = b.graphemeEnds.buffer
        for i in utf8.indices where utf8[i] == 0x2E {
            // The grapheme ending right after the byte is the full stop alone.
            var lo = 0, hi = ends.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Int(ends[mid]) <= i { lo = mid + 1 } else { hi = mid }
            }
            // It starts at the byte: the previous grapheme ends there, or a hard break does.
            let startsHere = lo == 0 || Int(ends[lo - 1]) == i || [0x0A, 0x0D, 0x85, 0xA8, 0xA9].contains(utf8[i - 1])
            if lo < ends.count, Int(ends[lo]) == i + 1, startsHere {
                points.append(Int32(lo))
            }
        }
        return PreparedText.TabFacts(spaceWidth: space, decimalPoints: points)
    }

    /// "…" (U+2026), the ellipsis of truncated lines, in UTF-8.
    static let ellipsisUTF8: [UInt8] = [0xE2, 0x80, 0xA6]

    /// Decodes the scalars of `text[start..<end]` (valid UTF-8) into `scratch.scalars`.
    @inline(__always)
    func decodeScalars(_ text: UnsafeBufferPointer<UInt8>, start: Int, end: Int) {
        scratch.scalars.removeAll()
        var i = start
        while i < end {
            let b0 = UInt32(text[i])
            var value: UInt32
            var length: Int
            if b0 < 0x80 {
                value = b0; length = 1
            } else if b0 < 0xE0 {
                value = b0 & 0x1F; length = 2
            } else if b0 < 0xF0 {
                value = b0 & 0x0F; length = 3
            } else {
                value = b0 & 0x07; length = 4
            }
            var k = 1
            while k < length && i + k < end {
                value = value << 6 | (UInt32(text[i + k]) & 0x3F)
                k += 1
            }
            scratch.scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            i += length
        }
        if scratch.scalars.count == 0 { scratch.scalars.append("\u{FFFD}") }
    }
}

extension TextPreparer {
    /// Vertical ink bounds (points, above/below the baseline; top positive) of graphemes
    /// `range` of `prepared`, for `usesDeviceMetrics`. Shapes runs of one font again and reads
    /// glyph extents (cached per font). `nil` when nothing in the range has ink.
    func inkBounds(
        _ utf8: UnsafeBufferPointer<UInt8>, prepared: PreparedText, graphemes range: Range<Int32>,
        size: Double
    ) -> (top: Double, bottom: Double)? {
        var top = -Double.infinity
        var bottom = Double.infinity
        var runStart = range.lowerBound
        while runStart < range.upperBound {
            let font = prepared.graphemeFonts[Int(runStart)]
            var runEnd = runStart + 1
            while runEnd < range.upperBound && prepared.graphemeFonts[Int(runEnd)] == font { runEnd += 1 }
            let bytes = UnsafeBufferPointer(
                rebasing: utf8[Int(prepared.graphemeStarts[Int(runStart)])..<Int(prepared.graphemeEnds[Int(runEnd - 1)])])
            let use = prepared.fonts[Int(font)]
            if let b = shaperForInk.inkBounds(bytes, font: use.font, script: .neutral) {
                let k = size / use.font.upem
                top = max(top, Double(b.top) * k)
                bottom = min(bottom, Double(b.bottom) * k)
            }
            runStart = runEnd
        }
        return top.isFinite ? (top, bottom) : nil
    }

    /// Ink bounds of "…" in the ellipsis font.
    func ellipsisInk(prepared: PreparedText, size: Double) -> (top: Double, bottom: Double)? {
        let use = prepared.fonts[Int(prepared.ellipsisFont)]
        return Self.ellipsisUTF8.withUnsafeBufferPointer { b in
            shaperForInk.inkBounds(b, font: use.font, script: .neutral).map {
                (Double($0.top) * size / use.font.upem, Double($0.bottom) * size / use.font.upem)
            }
        }
    }
}
