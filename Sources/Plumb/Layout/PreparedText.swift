/// A text measured once for one font setup, ready to be laid out at any width.
///
/// Everything here is width-independent: grapheme clusters with their advances (HarfBuzz, in
/// points, letter spacing included), break opportunities (ICU), fonts and paragraphs. Line
/// breaking over it is pure arithmetic (`LineBreaker`), so a width change never reshapes.
/// Opaque to library users on purpose, so the public API does not calcify around it.
///
/// Per grapheme it stores ~1.1 B: a one-byte index into the text's palette of distinct
/// (unit, flags, font, step) entries, 5 B each (a 150-character cell: 143 graphemes,
/// 27 entries), and a 2-byte checkpoint every 32 graphemes (``GraphemeColumns``); a text the
/// palette cannot hold stores 5–6 B (16-bit ends and units when they fit, flags, a font or
/// one font byte for the whole text), 10–11 B past 64 KiB.
///
/// - Thread safety: immutable; share freely.
final class PreparedText: Sendable {
    /// A font used by the text, with its metrics scaled to the style's size (points).
    ///
    /// The font object itself is opaque here (`face`): layout needs only the numbers, and the
    /// stages that shape or draw read it as a `Font` (`FontUse.font`, in Fonts).
    struct FontUse: Sendable {
        let face: AnyObject & Sendable
        let ascender: Double
        /// Below the baseline when negative (≤ 0 unless a run is raised).
        let descender: Double
        let lineGap: Double
        /// The run-style group of the face (0 for plain text): line heights take the tallest
        /// face within a group and align groups on the baseline (`LineHeightModel`).
        var group: Int32 = 0
        /// Whether the face is raised or lowered from the baseline (a run's baseline offset or
        /// an inline box), so the line's ascent and descent must be taken apart.
        var isShifted = false
        /// The face's metrics per em, for line-height rules that round them to device
        /// pixels (nil for inline boxes and hand-made test faces: their numbers are used as
        /// they are).
        var em: EmMetrics? = nil
        /// The local index of the first font of the face's run style, the strut of that
        /// style's inline box in CSS (255: none, e.g. an inline box).
        var strut: UInt8 = 255

        /// Natural line height: ascender − descender, plus the gap with font leading.
        @inline(__always)
        func lineHeight(includingLeading: Bool) -> Double {
            ascender - descender + (includingLeading ? lineGap : 0)
        }
    }

    /// A face's vertical metrics as fractions of its em, in `Float` as Skia computes them,
    /// with the run numbers a device-pixel rounding needs (`BlinkLineBox`).
    struct EmMetrics: Sendable {
        /// Ascender / upem (up is positive).
        var ascent: Float
        /// −descender / upem (down is positive).
        var descent: Float
        /// Line gap / upem.
        var lineGap: Float
        /// The run's font size (points).
        var size: Double
        /// The run's baseline offset (points, up is positive).
        var baselineOffset: Double
        /// Whether Blink gives the font the system's render style, which positions glyphs at
        /// subpixels above device scale 1: a system font of one of the run's cascade
        /// families. Fonts found by fallback and application fonts (to Blink, `@font-face`
        /// fonts, which take the default web-font style) do not.
        var hasSystemRenderStyle: Bool
    }

    /// Per-grapheme flag bits.
    struct GraphemeFlags: OptionSet, Sendable {
        let rawValue: UInt8
        /// Whitespace that hangs at a line end (never causes a wrap, not in the used width).
        static let hangingSpace = GraphemeFlags(rawValue: 1)
        /// A tab: its advance depends on the position in the line.
        static let tab = GraphemeFlags(rawValue: 2)
        /// A line may break after this grapheme (UAX #14).
        static let breakAfter = GraphemeFlags(rawValue: 4)
        /// A line must break after this grapheme (a mandatory break inside a paragraph, e.g.
        /// vertical tab or form feed).
        static let mandatoryBreakAfter = GraphemeFlags(rawValue: 8)
        /// This grapheme continues a cluster that was cut because it was too long
        /// (`TextPreparer.maximumClusterScalars`): shaped apart from the piece before it.
        static let continuesCluster = GraphemeFlags(rawValue: 16)
        /// An inline box (its U+FFFC): its advance is the box's width, its face the box's.
        static let inlineBox = GraphemeFlags(rawValue: 32)
        /// The first grapheme of a paragraph: its start is the paragraph's, not the previous
        /// grapheme's end (set by `PreparedText.init`, see ``PreparedText/graphemeStarts``).
        static let startsParagraph = GraphemeFlags(rawValue: 64)
    }

    /// Graphemes between two break opportunities: the unit of word wrapping, as the breaker
    /// reads it (stored in 12 bytes: ``Words``). The word's first grapheme is not stored (the
    /// previous word's end, or the paragraph's first grapheme:
    /// ``PreparedText/graphemeStart(ofWord:in:words:)``), nor its width (the sum of its
    /// advances, summed again where needed: `LineBreaker`'s general loop; a line's width comes
    /// from `end`), nor the chromium profile's end adjustment (its last grapheme's cut
    /// adjustment, `LineBreaker.Views`); the flags share a word with `nextMaskChange`.
    ///
    /// A stored word may stand for a run of words of one grapheme each
    /// (``breaksAfterEveryGrapheme``: CJK ideographs, kana, Hangul syllables), with the
    /// run's last word's ends: the breaker re-sums the advances inside it (Decisions.md,
    /// "Runs of one-grapheme words").
    struct Word: Sendable {
        var graphemeEnd: Int32
        /// `nextMaskChange` (bits 0–27), `breaksAfterEveryGrapheme` (bit 28),
        /// `hasHangingWidth` (bit 29), `hasTab` (bit 30), `mandatoryBreakAfter` (bit 31).
        fileprivate var bits: UInt32
        /// Advance of the trailing hanging whitespace (included in `width`).
        var hangingWidth: Double
        /// Bit i set when local font i (capped at 63) draws a grapheme of the word.
        var fontMask: UInt64
        /// Where the word ends, measured from its paragraph's start (Σ widths so far): lets
        /// the breaker find a line's last word by binary search.
        var end: Double
        /// `end − hangingWidth`, as the breaker's fit test computes it (the same bits): where
        /// the word's visible content ends. Stored per word; `end` is put back from it.
        var visibleEnd: Double

        fileprivate static let runBit: UInt32 = 1 << 28, hangingBit: UInt32 = 1 << 29, tabBit: UInt32 = 1 << 30
        fileprivate static let mandatoryBit: UInt32 = 1 << 31
        fileprivate static let indexBits: UInt32 = runBit - 1

        /// A word put back together from its stored pieces (no checks: they were made from
        /// a checked word).
        @inline(__always)
        fileprivate init(visibleEnd: Double, end: Double, graphemeEnd: Int32, bits: UInt32, tail t: WordTail) {
            self.graphemeEnd = graphemeEnd
            self.bits = bits
            hangingWidth = t.hangingWidth
            fontMask = t.fontMask
            self.end = end
            self.visibleEnd = visibleEnd
        }

        /// Index of the next word of the paragraph with another font mask (or the paragraph's
        /// word end): OR-ing a line's masks visits runs, not words. Below 2²⁸.
        var nextMaskChange: Int32 {
            @inline(__always) get { Int32(bitPattern: bits & Self.indexBits) }
            set {
                precondition(newValue >= 0 && UInt32(newValue) <= Self.indexBits, "2²⁸ words in a paragraph")
                bits = bits & ~Self.indexBits | UInt32(bitPattern: newValue)
            }
        }
        /// Whether the word stands for a run of words of one grapheme each, which had no
        /// hanging width, tab, mandatory break or inline box and this word's font mask and one
        /// local font (`TextPreparer.mergeOneGraphemeWords`): a line may break
        /// after any of its graphemes, where the old word ended at the previous one's end plus
        /// the grapheme's advance (`LineBreaker` sums them again, in that order).
        var breaksAfterEveryGrapheme: Bool {
            @inline(__always) get { bits & Self.runBit != 0 }
            set { bits = newValue ? bits | Self.runBit : bits & ~Self.runBit }
        }
        /// Whether trailing whitespace hangs (`hangingWidth` ≠ 0), without reading it.
        var hasHangingWidth: Bool {
            @inline(__always) get { bits & Self.hangingBit != 0 }
        }
        var hasTab: Bool {
            @inline(__always) get { bits & Self.tabBit != 0 }
        }
        var mandatoryBreakAfter: Bool {
            @inline(__always) get { bits & Self.mandatoryBit != 0 }
        }

        init(
            graphemeEnd: Int32, hangingWidth: Double, fontMask: UInt64, hasTab: Bool,
            mandatoryBreakAfter: Bool, end: Double = 0, nextMaskChange: Int32 = 0
        ) {
            precondition(nextMaskChange >= 0 && UInt32(nextMaskChange) <= Self.indexBits, "2²⁸ words in a paragraph")
            self.graphemeEnd = graphemeEnd
            bits = UInt32(nextMaskChange) | (hangingWidth != 0 ? Self.hangingBit : 0) | (hasTab ? Self.tabBit : 0)
                | (mandatoryBreakAfter ? Self.mandatoryBit : 0)
            self.hangingWidth = hangingWidth
            self.fontMask = fontMask
            self.end = end
            visibleEnd = end - hangingWidth
        }
    }

    /// Where a style run ends in its paragraph (chromium profile, paragraphs of several runs
    /// only): Blink lays out every element as an inline item of its own and measures a line
    /// item by item, each in layout units (`LineBreaker`'s `LayoutUnitLineWidth`). Sorted by
    /// grapheme; each such paragraph lists all its runs, the last ending at the paragraph's end.
    /// 24 bytes.
    struct RunEnd: Sendable, BitwiseCopyable {
        /// Where the run ends, from its paragraph's start (points, the advances summed as the
        /// paragraph's `Word.end`s are, so a run that ends a word ends at that word's `end`).
        var end: Double
        /// The widths of the paragraph's runs up to and including this one, each rounded up to
        /// the layout unit (Blink's `SnappedWidth` of an item laid out whole).
        var snappedEnd: Double
        /// The grapheme after the run's last one.
        var graphemeEnd: Int32
    }

    /// A word's font mask and hanging width (`Word.fontMask`, `Word.hangingWidth`), stored
    /// once per distinct pair (a text has a handful), found by a one-byte index per word.
    struct WordTail: Sendable {
        var fontMask: UInt64
        var hangingWidth: Double
    }

    /// The words of a text, read as `Word`s from their stored columns: per word its visible
    /// end (8 bytes) and, packed in 4 bytes when every grapheme end fits 16 bits (else 8), its
    /// grapheme end, flags, the index of its ``WordTail`` in the text's table of distinct
    /// ones and the jump to its `nextMaskChange` (capped, ``narrowJumps``) — 12 bytes per
    /// word instead of 32, and a run of one-grapheme words (``Word/breaksAfterEveryGrapheme``)
    /// is one word (Decisions.md, "Runs of one-grapheme words"). `end` is
    /// `visibleEnd + hangingWidth`, which the text checked gives the word's end bit for bit;
    /// a text where it does not for some word stores every end (`ends`).
    ///
    /// The fit test of the simple-paragraph breaker reads only `visibleEnd`; the tail and
    /// `end` are read where a line ends (the loads of fields a caller does not use are
    /// removed by the optimiser).
    ///
    /// - Thread safety: immutable views into the owning `PreparedText`.
    struct Words: RandomAccessCollection, @unchecked Sendable {
        let visibleEnds: UnsafePointer<Double>?
        let count: Int
        /// Per word, its grapheme end, flags, tail index and mask jump: `UInt32`s
        /// (``isNarrow``) or `UInt64`s (``narrow(_:word:tail:)``, ``wide(_:word:tail:)``).
        let packed: UnsafeRawPointer?
        let isNarrow: Bool
        /// Every word's end, when some word's is not `visibleEnd + hangingWidth`; else nil.
        let ends: UnsafePointer<Double>?
        let tails: UnsafePointer<WordTail>?
        /// 0, or all ones when tails are stored one per word (their indexes then 0): the tail
        /// of word k is `tails[index(k) + (k & perWord)]`, so reading a word never branches
        /// on the case.
        let perWord: Int

        var startIndex: Int { 0 }
        var endIndex: Int { count }

        /// - Complexity: O(1): four or five loads, one predictable branch.
        @inline(__always)
        subscript(k: Int) -> Word {
            assert(k >= 0 && k < count, "word \(k) out of 0..<\(count)")
            let visible = visibleEnds.unsafelyUnwrapped[k]
            let graphemeEnd: Int32, high: UInt32, jump: UInt32, tail: Int
            if isNarrow {
                let p = packed.unsafelyUnwrapped.load(fromByteOffset: k &<< 2, as: UInt32.self)
                graphemeEnd = Int32(p & 0xFFFF)
                (high, jump, tail) = (p, (p >> 16) & Self.narrowJumps, Int((p >> 20) & 0xFF))
            } else {
                let p = packed.unsafelyUnwrapped.load(fromByteOffset: k &<< 3, as: UInt64.self)
                graphemeEnd = Int32(truncatingIfNeeded: p)
                high = UInt32(truncatingIfNeeded: p >> 32)
                (jump, tail) = (high & Self.wideJumps, Int((high >> 20) & 0xFF))
            }
            let t = tails.unsafelyUnwrapped[tail &+ (k & perWord)]
            // The index masked: the flags above it are the stored ones (read alone, no add).
            let bits = (UInt32(truncatingIfNeeded: k) &+ jump) & Word.indexBits | high & ~Word.indexBits
            let end = ends == nil ? visible + t.hangingWidth : ends.unsafelyUnwrapped[k]
            return Word(visibleEnd: visible, end: end, graphemeEnd: graphemeEnd, bits: bits, tail: t)
        }

        /// The font masks of words `w...lo` OR-ed, visiting each run of one mask once (per
        /// stored jump, ``narrowJumps``/``wideJumps``): what OR-ing `self[k].fontMask` while
        /// following `self[k].nextMaskChange` gives, reading only the packed word and its tail
        /// (no visible end, no word end), one loop per packing. It stops once the mask is
        /// `all` (``PreparedText/allFontsMask(count:)``: more words cannot add a bit).
        ///
        /// - Complexity: O(mask runs of `w...lo`, plus one per 15 words of a long narrow run).
        @inline(__always)
        func fontMask(from w: Int, through lo: Int, stoppingAt all: UInt64 = ~0) -> UInt64 {
            assert(w >= 0 && w <= lo && lo < count, "words \(w)...\(lo) out of 0..<\(count)")
            let tails = tails.unsafelyUnwrapped, raw = packed.unsafelyUnwrapped, perWord = perWord
            var mask: UInt64 = 0
            var k = w
            // A stored jump is at least 1 and at most the distance to `nextMaskChange`, which
            // is below 2²⁸: `k + jump` is the masked index `self[k]` gives.
            if isNarrow {
                repeat {
                    let v = raw.load(fromByteOffset: k &<< 2, as: UInt32.self)
                    mask |= tails[Int((v >> 20) & 0xFF) &+ (k & perWord)].fontMask
                    k &+= Int((v >> 16) & Self.narrowJumps)
                } while k <= lo && mask != all
            } else {
                repeat {
                    let high = UInt32(truncatingIfNeeded: raw.load(fromByteOffset: k &<< 3, as: UInt64.self) >> 32)
                    mask |= tails[Int((high >> 20) & 0xFF) &+ (k & perWord)].fontMask
                    k &+= Int(high & Self.wideJumps)
                } while k <= lo && mask != all
            }
            return mask
        }

        /// The longest jump from a word to its `nextMaskChange` that is stored, narrow (4 bits,
        /// 16 to 19 of the packed value) and wide (20 bits, 32 to 51): a longer one is stored
        /// as this, and reading masks from it visits a word of the same mask again (OR-ing a
        /// line's masks visits at least every 15th word, which changes no mask).
        static let narrowJumps: UInt32 = 0xF, wideJumps: UInt32 = 0xF_FFFF

        /// Whether `words` can be stored narrow (every grapheme end in 16 bits).
        static func fitNarrow(_ words: UnsafeBufferPointer<Word>) -> Bool {
            words.allSatisfy { $0.graphemeEnd >= 0 && $0.graphemeEnd <= 0xFFFF }
        }

        /// The jump from word `k` to its `nextMaskChange`, capped at `cap` (at least 1).
        @inline(__always)
        static func jump(_ w: Word, word k: Int, cap: UInt32) -> UInt32 {
            UInt32(Swift.max(1, Swift.min(Int(w.nextMaskChange) - k, Int(cap))))
        }

        /// Word `k`, `w`, packed narrow (``fitNarrow(_:)``) with its tail's index: grapheme end
        /// (bits 0–15), jump (16–19), tail index (20–27), flags (28–31).
        @inline(__always)
        static func narrow(_ w: Word, word k: Int, tail: UInt8) -> UInt32 {
            UInt32(w.graphemeEnd) | jump(w, word: k, cap: narrowJumps) << 16 | UInt32(tail) << 20 | w.bits & ~Word.indexBits
        }

        /// Word `k`, `w`, packed wide with its tail's index: grapheme end (bits 0–31), jump
        /// (32–51), tail index (52–59), flags (60–63).
        @inline(__always)
        static func wide(_ w: Word, word k: Int, tail: UInt8) -> UInt64 {
            let high = jump(w, word: k, cap: wideJumps) | UInt32(tail) << 20 | w.bits & ~Word.indexBits
            return UInt64(UInt32(bitPattern: w.graphemeEnd)) | UInt64(high) << 32
        }

        /// Whether every word's end is `visibleEnd + hangingWidth`, bit for bit (almost
        /// always: the sum is rounded back to the end unless the difference was a tie).
        static func endsFollow(_ words: UnsafeBufferPointer<Word>) -> Bool {
            words.allSatisfy { ($0.visibleEnd + $0.hangingWidth).bitPattern == $0.end.bitPattern }
        }
    }

    /// The first grapheme of word `k` of `paragraph`.
    @inline(__always)
    static func graphemeStart(ofWord k: Int, in paragraph: Paragraph, words: Words) -> Int32 {
        k == Int(paragraph.wordStart) ? paragraph.graphemeStart : words[k - 1].graphemeEnd
    }

    /// A paragraph: text between hard breaks. 28 bytes (a uniform font mask is its first
    /// word's, not stored: 40 with the mask).
    struct Paragraph: Sendable {
        /// UTF-8 byte range of the paragraph's content (hard-break characters excluded).
        var byteStart: Int32
        var byteEnd: Int32
        var graphemeStart: Int32
        var graphemeEnd: Int32
        var wordStart: Int32
        var wordEnd: Int32
        /// Every word has the first word's font mask (`words[wordStart].fontMask`): a line's
        /// fonts need no OR over its words.
        var hasUniformMask: Bool
        /// No tabs and no mandatory breaks inside: lines can be found by binary search.
        var isSimple: Bool
        /// Base direction (UAX #9 P2–P3; left to right without a strong character).
        var direction: TextDirection
        /// The break before it is a line separator (U+2028 LS or U+0085 NEL), not a paragraph
        /// break: UIKit (`NSString`'s paragraph ranges) and Pango continue the paragraph there,
        /// so its first line takes the other lines' indent.
        var followsLineSeparator = false

        init(
            byteStart: Int32, byteEnd: Int32, graphemeStart: Int32, graphemeEnd: Int32, wordStart: Int32,
            wordEnd: Int32, isSimple: Bool = false, hasUniformMask: Bool = false, direction: TextDirection = .leftToRight
        ) {
            self.byteStart = byteStart
            self.byteEnd = byteEnd
            self.graphemeStart = graphemeStart
            self.graphemeEnd = graphemeEnd
            self.wordStart = wordStart
            self.wordEnd = wordEnd
            self.hasUniformMask = hasUniformMask
            self.isSimple = isSimple
            self.direction = direction
        }
    }

    /// The one allocation behind every column above and where each lies in it (freed in
    /// `deinit`). Filled before `init` returns and never written again, so any thread may
    /// read it. First: its 64 bytes end on an 8-byte boundary.
    private let storage: PreparedStorage
    /// The text's fonts, shared with other texts of the same faces and styles.
    let fontTable: FontTable
    /// The fonts used by the text, by local index (`fontTable.fonts`).
    var fonts: [FontUse] { fontTable.fonts }
    /// The fonts' vertical metrics as plain numbers (no font references): what line heights
    /// need, read on every line without reference counting.
    ///
    /// Read through `fontTable` (one more load than a pointer of its own, 16 bytes less per
    /// object: Decisions.md, "A 144-byte object").
    var fontLines: Packed<FontLine> { Packed(base: UnsafePointer(fontTable.linesBase), count: Int(fontLineCount)) }

    /// Ascender and natural line heights of a font at the text's size.
    struct FontLine: Sendable {
        let ascender: Double
        let heightWithLeading: Double
        let heightWithoutLeading: Double
        /// `FontUse.group`.
        let group: Int32
        /// `FontUse.isShifted`.
        let isShifted: Bool
        /// `FontUse.em`.
        let em: EmMetrics?
        /// `FontUse.strut`.
        var strut: UInt8 = 255
    }
    /// Where each grapheme starts (UTF-8 offset): the previous grapheme's end inside a
    /// paragraph, the paragraph's start at its first grapheme — derived, not stored.
    @inline(__always) var graphemeStarts: GraphemeStarts { GraphemeStarts(columns: graphemeColumns) }
    /// Where each grapheme ends (UTF-8 offset): in 16 bits for a text under 64 KiB, or
    /// derived from the palette's checkpoints (``GraphemeColumns``).
    @inline(__always) var graphemeEnds: GraphemeEnds { GraphemeEnds(columns: graphemeColumns) }
    /// Per grapheme, its cluster's shaped advance in font units (pair kerning included; 0
    /// for tabs and inline boxes): `advances` turns them into points.
    @inline(__always) var units: GraphemeUnits { GraphemeUnits(columns: graphemeColumns) }
    /// Per local font, how its units become points.
    @inline(__always) var scales: Packed<AdvanceScale> { Packed(base: UnsafePointer(fontTable.scalesBase), count: Int(scaleCount)) }
    /// Per grapheme, its advance in points (letter spacing included; recomputed from `units`).
    @inline(__always) var advances: Advances { Advances(columns: graphemeColumns, scales: scales) }
    @inline(__always) var flags: GraphemeFlagsColumn { GraphemeFlagsColumn(columns: graphemeColumns) }
    /// Per grapheme, its local font (one byte for the whole text when it has one font).
    @inline(__always) var graphemeFonts: GraphemeFonts { GraphemeFonts(columns: graphemeColumns) }
    /// The per-grapheme columns in either form (a palette or explicit columns), which the
    /// views above read.
    @inline(__always) var graphemeColumns: GraphemeColumns {
        let s = storage, palette = s.hasPalette
        // (The indexes and the flags are one region: the choice of `bytes` folds away.)
        return GraphemeColumns(
            count: Int(s.graphemeCount), bytes: UnsafePointer(palette ? s.indexes.baseAddress : s.flags.baseAddress),
            palette: palette ? UnsafePointer(s.entries.baseAddress) : nil,
            checkpoints: palette ? UnsafePointer(s.checkpoints.baseAddress) : nil,
            fonts: palette ? nil : UnsafePointer(s.fonts.baseAddress), fontMask: s.singleFont ? 0 : -1,
            ends: palette ? nil : UnsafeRawPointer(s.ends), units: palette ? nil : UnsafeRawPointer(s.units),
            paragraphs: UnsafePointer(s.paragraphs.baseAddress), paragraphCount: s.paragraphCount,
            narrowEnds: s.narrowEnds, narrowUnits: s.narrowUnits)
    }
    /// Whether the grapheme columns are a palette (``GraphemeColumns``).
    var hasGraphemePalette: Bool { storage.hasPalette }

    /// The local font of each grapheme: from the palette, or a column of one byte per
    /// grapheme, or one byte standing for every grapheme of a text of one font (most texts of
    /// one script): read as `base[g & mask]`, no branch.
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeFonts: GraphemeColumnView, @unchecked Sendable {
        let columns: GraphemeColumns

        /// - Complexity: O(1): one or two loads.
        @inline(__always)
        subscript(g: Int) -> UInt8 { columns.font(g) }

        /// How many bytes the column stores for `fonts`: 1 when every grapheme has the same
        /// font (0 for no grapheme), else one per grapheme.
        static func storedCount(_ fonts: UnsafeBufferPointer<UInt8>) -> Int {
            guard let first = fonts.first else { return 0 }
            return fonts.allSatisfy { $0 == first } ? 1 : fonts.count
        }
    }
    /// Chromium profile only (empty otherwise, and empty when every one is +0): per grapheme,
    /// how much wider it is re-shaped alone than as shaped with the cluster after it
    /// (kerning, `t|e`). Blink re-shapes the cluster where `overflow-wrap` cuts a word, so the
    /// cut fits only with that width. Readers take a missing column as zeros.
    @inline(__always) var cutAdjustments: CutAdjustments {
        let s = storage
        guard s.cutCount > 0 else { return .none }
        return CutAdjustments(
            mask: s.cutMask.pointee, graphemes: UnsafePointer(s.cutGraphemes.baseAddress),
            values: UnsafePointer(s.cutValues.baseAddress), stored: Int(s.cutCount), count: Int(s.graphemeCount))
    }
    @inline(__always) var words: Words {
        let s = storage
        return Words(
            visibleEnds: UnsafePointer(s.visibleEnds.baseAddress), count: Int(s.wordCount),
            packed: UnsafeRawPointer(s.packedWords), isNarrow: s.narrowWords,
            ends: s.storesEnds ? UnsafePointer(s.wordEnds.baseAddress) : nil,
            tails: UnsafePointer(s.tails), perWord: s.tailsPerWord ? -1 : 0)
    }
    /// Chromium profile, text of several style runs only (empty otherwise): the runs of each
    /// paragraph that has more than one (see `RunEnd`).
    @inline(__always) var runEnds: Packed<RunEnd> { Packed(storage.runEnds) }
    @inline(__always) var paragraphs: Packed<Paragraph> { Packed(storage.paragraphs) }
    /// Bytes of the one column allocation (`Cache/HeapCost.swift` counts it for budgets).
    var storageBytes: Int { max(1, storage.byteCount) }

    /// The advance of "…" in `ellipsisFont`.
    let ellipsisWidth: Double
    /// The local fonts of the truncation token (`fontBit(ellipsisFont)` for "…"): they count
    /// for the height of the line the token ends.
    let ellipsisMask: UInt64
    /// What few texts have (a truncation token, "…" per style, pango baselines), out of
    /// line: nil for most texts, 32 bytes less in every object.
    let extras: Extras?
    /// "…" in each run style's font, by group, for texts of several styles (empty otherwise):
    /// a truncated line's "…" takes the style of the text it follows.
    var ellipsisByGroup: [GroupEllipsis] { extras?.ellipsisByGroup ?? [] }
    /// The truncation token's own text and per-face pieces, when a token replaces "…" (for
    /// drawing); `nil` for the plain ellipsis.
    var token: PreparedToken? { extras?.token }
    /// The `pango` profile's baseline alignment data (``PangoBaselines``); `nil` for other
    /// profiles and for texts where no run can move.
    var pangoBaselines: PangoBaselines? { extras?.pangoBaselines }
    /// How a line's width is compared with the box (`LayoutConventions.lineFit`): the line
    /// breaker is specialised per arithmetic.
    let lineFit: LayoutConventions.LineFitArithmetic
    /// How much trailing whitespace hangs (`LayoutConventions.trailingSpaces`).
    let trailingSpaces: LayoutConventions.TrailingSpaceRule
    /// The font (local index) and advance of "…" for truncation.
    let ellipsisFont: UInt8
    /// The font table's lines and scales (local fonts are numbered in a byte; a text's
    /// scales are fewer than 2¹⁶, checked).
    private let fontLineCount: UInt16, scaleCount: UInt16
    /// `utf8Count`, `missingGlyphClusters` (kept here, not as `Int` fields: 8 bytes less per
    /// object). Last: with the small fields before them they fill what would be padding.
    private let storedUTF8Count: Int32, storedMissingGlyphClusters: Int32
    /// The text's length in UTF-8 bytes.
    var utf8Count: Int { Int(storedUTF8Count) }
    /// Clusters no font of the cascade could draw.
    var missingGlyphClusters: Int { Int(storedMissingGlyphClusters) }

    /// The rarely present parts of a prepared text (``extras``).
    ///
    /// - Thread safety: immutable.
    final class Extras: Sendable {
        let token: PreparedToken?
        let ellipsisByGroup: [GroupEllipsis]
        let pangoBaselines: PangoBaselines?
        /// What tab stops need of a text with tabs.
        let tabs: TabFacts?
        /// Where a line end shows a hyphen (`HyphenPoints.none` for most texts).
        let hyphens: HyphenPoints

        init(
            token: PreparedToken?, ellipsisByGroup: [GroupEllipsis], pangoBaselines: PangoBaselines?, tabs: TabFacts? = nil,
            hyphens: HyphenPoints = .none
        ) {
            self.token = token
            self.ellipsisByGroup = ellipsisByGroup
            self.pangoBaselines = pangoBaselines
            self.tabs = tabs
            self.hyphens = hyphens
        }

        /// The bytes of the stored properties (a 24-byte token, an array, a reference, the
        /// tab facts' number and array, the hyphen points' five arrays and two flags).
        static let storedBytes = 104
    }

    /// What a text with tabs records for its tab stops: the width of a space (CSS `tab-size`
    /// counts in it) and which graphemes are decimal points (decimal stops line up on them).
    struct TabFacts: Sendable, Equatable {
        /// A space of the first run's primary font, letter spacing included (points).
        var spaceWidth: Double
        /// The graphemes that are a full stop ("."), ascending.
        var decimalPoints: [Int32]
    }

    /// The tab facts (nil for a text without tabs).
    var tabFacts: TabFacts? { extras?.tabs }

    /// Where a line end shows a hyphen (none for most texts).
    var hyphenPoints: HyphenPoints { extras?.hyphens ?? .none }

    /// Whether grapheme `g` is a decimal point (".").
    ///
    /// - Complexity: O(log decimal points).
    func isDecimalPoint(_ g: Int32) -> Bool {
        guard let points = extras?.tabs?.decimalPoints, !points.isEmpty else { return false }
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid] < g { lo = mid + 1 } else { hi = mid }
        }
        return lo < points.count && points[lo] == g
    }

    /// A prepared text with copies of these columns (arrays: tests build texts by hand).
    convenience init(
        fonts: [FontUse], graphemeStarts: [Int32], graphemeEnds: [Int32], advances: [Double],
        cutAdjustments: [Float] = [], flags: [GraphemeFlags], graphemeFonts: [UInt8], words: [Word], paragraphs: [Paragraph],
        ellipsisFont: UInt8, ellipsisWidth: Double, ellipsisMask: UInt64? = nil, token: PreparedToken? = nil,
        utf8Count: Int, missingGlyphClusters: Int, tabFacts: TabFacts? = nil, hyphens: HyphenPoints = .none,
        trailingSpaces: LayoutConventions.TrailingSpaceRule = .allHang,
        lineFit: LayoutConventions.LineFitArithmetic = .exact(tolerance: LayoutConventions.exactFitTolerance)
    ) {
        // Advances become units and scales: one unit per grapheme, each font's scale its
        // advance (so every non-tab grapheme of a font must have the same advance).
        var scales = [AdvanceScale](
            repeating: AdvanceScale(size: 0, upem: 1, strikePPEM: 0, freeTypeXScale: 0, letterSpacing: 0, boxWidth: 0, freeType: false),
            count: max(1, fonts.count))
        var units = [Int32](repeating: 0, count: advances.count)
        var seen = Set<UInt8>()
        for g in advances.indices where !flags[g].contains(.tab) {
            let f = graphemeFonts[g]
            if seen.insert(f).inserted { scales[Int(f)].size = advances[g] }
            precondition(scales[Int(f)].size == advances[g], "hand-built texts take one advance per font")
            units[g] = 1
        }
        self.init(
            fontTable: scales.withUnsafeBufferPointer { FontTable(fonts: fonts, scales: $0) },
            columns: Columns(
                graphemeEnds: graphemeEnds.withUnsafeBufferPointer { $0 },
                units: units.withUnsafeBufferPointer { $0 },
                cutAdjustments: cutAdjustments.withUnsafeBufferPointer { $0 },
                flags: flags.withUnsafeBufferPointer { $0 },
                graphemeFonts: graphemeFonts.withUnsafeBufferPointer { $0 },
                words: words.withUnsafeBufferPointer { $0 },
                paragraphs: paragraphs.withUnsafeBufferPointer { $0 }),
            ellipsisFont: ellipsisFont, ellipsisWidth: ellipsisWidth, tabFacts: tabFacts, hyphens: hyphens, utf8Count: utf8Count,
            missingGlyphClusters: missingGlyphClusters, trailingSpaces: trailingSpaces, lineFit: lineFit)
        assert(graphemeStarts.indices.allSatisfy { graphemeStarts[$0] == self.graphemeStarts[$0] },
               "grapheme starts are not derivable from the ends: graphemes of a paragraph must be contiguous")
        withExtendedLifetime((graphemeEnds, units, scales, cutAdjustments, flags, graphemeFonts, words, paragraphs)) {}
    }

    /// The columns a prepared text copies into its one allocation (borrowed for the call).
    struct Columns {
        var graphemeEnds: UnsafeBufferPointer<Int32>
        var units: UnsafeBufferPointer<Int32>
        var cutAdjustments: UnsafeBufferPointer<Float>
        var flags: UnsafeBufferPointer<GraphemeFlags>
        var graphemeFonts: UnsafeBufferPointer<UInt8>
        var words: UnsafeBufferPointer<Word>
        var paragraphs: UnsafeBufferPointer<Paragraph>
        /// Empty unless the chromium profile prepared text of several runs.
        var runEnds = UnsafeBufferPointer<RunEnd>(start: nil, count: 0)
        /// The per-grapheme buffers (ends, units, cut adjustments, flags, fonts) were
        /// allocated with `UnsafeMutablePointer.allocate` and are handed over: each is freed
        /// as soon as it is copied, so a huge text's peak is its result plus one column, not
        /// plus all of them (the builder of a text over 64 KiB).
        var freesGraphemeColumns = false
        /// Whether the grapheme columns may be stored as a palette (``GraphemeColumns``);
        /// false keeps the explicit columns (tests compare the two).
        var allowsPalette = true
    }

    /// A prepared text whose plain columns are copied from `columns` into one allocation.
    ///
    /// - Complexity: O(n) copies; one heap block besides the object and `fonts`.
    init(
        fontTable: FontTable, columns c: Columns, ellipsisFont: UInt8, ellipsisWidth: Double,
        ellipsisMask: UInt64? = nil, token: PreparedToken? = nil, ellipsisByGroup: [GroupEllipsis] = [],
        pangoBaselines: PangoBaselines? = nil, tabFacts: TabFacts? = nil, hyphens: HyphenPoints = .none, utf8Count: Int,
        missingGlyphClusters: Int, trailingSpaces: LayoutConventions.TrailingSpaceRule,
        lineFit: LayoutConventions.LineFitArithmetic
    ) {
        self.trailingSpaces = trailingSpaces
        self.lineFit = lineFit
        self.fontTable = fontTable
        let tableLines = fontTable.lines.count, tableScales = fontTable.scales.count
        precondition(tableLines <= Int(UInt16.max) && tableScales <= Int(UInt16.max), "2¹⁶ fonts in a text")
        precondition(
            c.flags.count == c.graphemeEnds.count && c.graphemeFonts.count == c.graphemeEnds.count
                && (c.cutAdjustments.isEmpty || c.cutAdjustments.count == c.graphemeEnds.count),
            "one flag, one font (and one cut adjustment or none) per grapheme")
        // Pass 1 counts the distinct tails (0 when over 256: one per word); pass 2, once the
        // storage exists, writes the table and each word's index (no heap allocation).
        let distinctTails = Self.distinctTailCount(c.words)
        var palette = PaletteBuilder(c)
        defer { palette.release() }
        let s = PreparedStorage(Self.shape(of: c, distinctTails: distinctTails, paletteEntries: palette.entryCount))
        Self.writeWords(c.words, to: s)
        _ = s.runEnds.initialize(fromContentsOf: c.runEnds)
        _ = s.paragraphs.initialize(fromContentsOf: c.paragraphs)
        Self.writeGraphemes(c, palette: palette, to: s)
        storage = s
        fontLineCount = UInt16(tableLines)
        scaleCount = UInt16(tableScales)
        storedUTF8Count = Int32(clamping: utf8Count)
        storedMissingGlyphClusters = Int32(clamping: missingGlyphClusters)
        self.ellipsisFont = ellipsisFont
        self.ellipsisWidth = ellipsisWidth
        self.ellipsisMask = ellipsisMask ?? Self.fontBit(ellipsisFont)
        extras =
            token == nil && ellipsisByGroup.isEmpty && pangoBaselines == nil && tabFacts == nil && hyphens.isEmpty
            ? nil
            : Extras(
                token: token, ellipsisByGroup: ellipsisByGroup, pangoBaselines: pangoBaselines, tabs: tabFacts,
                hyphens: hyphens)
    }

    deinit { storage.deallocate() }

    /// The regions `c` needs (`distinctTails`: 0 for one tail per word; `paletteEntries`: 0
    /// for explicit columns).
    private static func shape(of c: Columns, distinctTails: Int, paletteEntries: Int) -> PreparedStorage.Shape {
        var s = PreparedStorage.Shape()
        (s.words, s.runs, s.paragraphs, s.graphemes) = (c.words.count, c.runEnds.count, c.paragraphs.count, c.graphemeEnds.count)
        (s.tails, s.tailsPerWord) = (distinctTails == 0 ? c.words.count : distinctTails, distinctTails == 0)
        (s.narrowWords, s.storesEnds) = (Words.fitNarrow(c.words), !Words.endsFollow(c.words))
        // Only the cut adjustments that are not +0 (bit for bit), with their graphemes: ~95 %
        // of them are zero (``CutAdjustments``).
        s.cutPairs = CutAdjustments.storedCount(c.cutAdjustments)
        s.paletteEntries = paletteEntries
        // (A palette holds the ends, units and fonts: no column to size.)
        guard paletteEntries == 0 else { return s }
        s.narrowEnds = PackedInt32<UInt16>.fitsNarrow(c.graphemeEnds)
        s.narrowUnits = PackedInt32<Int16>.fitsNarrow(c.units)
        s.singleFont = c.graphemeFonts.count > 1 && GraphemeFonts.storedCount(c.graphemeFonts) == 1
        return s
    }

    /// Writes the grapheme columns of `c` (and its cut adjustments) into `s`, as the palette
    /// when it has one, freeing each source column once copied when `c` hands them over.
    private static func writeGraphemes(_ c: Columns, palette: PaletteBuilder, to s: PreparedStorage) {
        func handOver<T>(_ column: UnsafeBufferPointer<T>) { if c.freesGraphemeColumns { column.deallocate() } }
        if s.cutCount > 0 {
            CutAdjustments.write(c.cutAdjustments, mask: s.cutMask, graphemes: s.cutGraphemes, values: s.cutValues)
        }
        handOver(c.cutAdjustments)
        if s.hasPalette {
            palette.write(entries: s.entries, indexes: s.indexes, checkpoints: s.checkpoints)
        } else {
            s.fillUnits(from: c.units)
            s.fillEnds(from: c.graphemeEnds)
            let flags = s.flags
            UnsafeMutableRawBufferPointer(flags).copyMemory(from: UnsafeRawBufferPointer(c.flags))
            // Mark each paragraph's first grapheme, which `graphemeStarts` needs.
            for p in c.paragraphs where p.graphemeStart < p.graphemeEnd {
                flags[Int(p.graphemeStart)] |= GraphemeFlags.startsParagraph.rawValue
            }
            _ = s.fonts.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: c.graphemeFonts[..<s.fonts.count]))
        }
        handOver(c.units)
        handOver(c.graphemeEnds)
        handOver(c.flags)
        handOver(c.graphemeFonts)
    }

    /// Writes the words' visible ends, (when `s.storesEnds`) ends, their table of distinct
    /// tails and the packed grapheme ends, flags, tail indexes and mask jumps into `s`.
    private static func writeWords(_ words: UnsafeBufferPointer<Word>, to s: PreparedStorage) {
        let visible = s.visibleEnds
        for (k, w) in words.enumerated() { visible[k] = w.visibleEnd }
        if s.storesEnds {
            let ends = s.wordEnds
            for (k, w) in words.enumerated() { ends[k] = w.end }
        }
        let packed = s.packedWords, narrow = s.narrowWords
        writeTails(words, table: s.tails, perWord: s.tailsPerWord) { k, tail in
            if narrow {
                packed.storeBytes(of: Words.narrow(words[k], word: k, tail: tail), toByteOffset: k << 2, as: UInt32.self)
            } else {
                packed.storeBytes(of: Words.wide(words[k], word: k, tail: tail), toByteOffset: k << 3, as: UInt64.self)
            }
        }
    }

    @inline(__always)
    private static func tail(_ w: Word) -> WordTail { WordTail(fontMask: w.fontMask, hangingWidth: w.hangingWidth) }

    @inline(__always)
    private static func same(_ a: WordTail, _ b: WordTail) -> Bool {
        a.fontMask == b.fontMask && a.hangingWidth.bitPattern == b.hangingWidth.bitPattern
    }

    /// The index of `t` among `table[0..<count]` (the last one found, `last`, tried first),
    /// or `count` when it is not there.
    @inline(__always)
    private static func find(_ t: WordTail, in table: UnsafeMutablePointer<WordTail>, count: Int, last: Int) -> Int {
        if last < count, same(table[last], t) { return last }
        var i = 0
        while i < count && !same(table[i], t) { i += 1 }
        return i
    }

    /// How many distinct tails `words` has, or 0 when over 256 (one is then stored per word).
    ///
    /// - Complexity: O(words × distinct tails), the last one found tried first; a 1 KB table
    ///   on the stack for the first 64 distinct tails (a text has a handful), 4 KB on the
    ///   heap past them (`withUnsafeTemporaryAllocation` heap-allocates over 1 KB: a 4 KB
    ///   table cost a `malloc` per text).
    private static func distinctTailCount(_ words: UnsafeBufferPointer<Word>) -> Int {
        let few = withUnsafeTemporaryAllocation(of: WordTail.self, capacity: 64) {
            distinctTailCount(words, table: $0.baseAddress.unsafelyUnwrapped, capacity: 64)
        }
        if let few { return few }
        return withUnsafeTemporaryAllocation(of: WordTail.self, capacity: 256) {
            distinctTailCount(words, table: $0.baseAddress.unsafelyUnwrapped, capacity: 256) ?? 0
        }
    }

    /// ``distinctTailCount(_:)`` in a table of `capacity` tails: nil when more are distinct.
    @inline(__always)
    private static func distinctTailCount(
        _ words: UnsafeBufferPointer<Word>, table base: UnsafeMutablePointer<WordTail>, capacity: Int
    ) -> Int? {
        var count = 0, last = 0
        for w in words {
            let t = tail(w)
            last = find(t, in: base, count: count, last: last)
            if last == count {
                if count == capacity { return nil }
                base[count] = t
                count += 1
            }
        }
        return count
    }

    /// Writes the tail table of `words` (as ``distinctTailCount(_:)`` counted them) and
    /// hands each word's index into it to `index`; `perWord`: one tail per word, indexes 0.
    private static func writeTails(
        _ words: UnsafeBufferPointer<Word>, table: UnsafeMutablePointer<WordTail>, perWord: Bool,
        index: (_ word: Int, _ tail: UInt8) -> Void
    ) {
        guard !perWord else {
            for (k, w) in words.enumerated() {
                table[k] = tail(w)
                index(k, 0)
            }
            return
        }
        var count = 0, last = 0
        for (k, w) in words.enumerated() {
            let t = tail(w)
            last = find(t, in: table, count: count, last: last)
            if last == count {
                table[count] = t
                count += 1
            }
            index(k, UInt8(last))
        }
    }

    /// The font bit that local fonts ``sharedFontBitIndex`` and up share: a mask with it set
    /// does not name its fonts exactly (they are then read per grapheme).
    static let overflowFontBit: UInt64 = 1 << 63
    /// The index of ``overflowFontBit``: local fonts below it have a font bit of their own
    /// (``fontBit(_:)``).
    static let sharedFontBitIndex: UInt8 = 63

    /// The bits of local fonts `0..<count` (``fontBit(_:)``; all 64 from 63 fonts on): a
    /// mask of a text of `count` fonts is never more.
    @inline(__always) static func allFontsMask(count: Int) -> UInt64 { count >= 64 ? ~0 : (1 << UInt64(count)) &- 1 }

    /// The font bit of local font index `i` (indices ≥ 63 share ``overflowFontBit``).
    @inline(__always) static func fontBit(_ i: UInt8) -> UInt64 { 1 << UInt64(min(i, sharedFontBitIndex)) }
}

/// "…" in one run style: its local font and advance (`isSet` false for a box's group).
struct GroupEllipsis: Sendable, Equatable {
    var font: UInt8
    var width: Double
    var isSet: Bool
}

/// A truncation token as prepared: its text and its pieces of one face each, in order, with
/// their advances (points). Drawn where the layout puts "…".
struct PreparedToken: Sendable {
    /// The token's UTF-8 bytes.
    let utf8: [UInt8]
    /// Byte ranges of one face each, their local font and advance.
    let pieces: [(bytes: Range<Int>, font: UInt8, width: Double, isBox: Bool)]
    /// Every cluster of the token in logical order (a box is one): its end byte and advance.
    /// Drawing an RTL line splits pieces at bidi runs with them.
    let clusters: [(end: Int32, width: Double)]
}
