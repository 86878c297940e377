/// The one allocation behind a ``PreparedText``'s columns, and where each column lies in it:
/// the only code that turns the allocation's address and byte offsets into typed pointers.
///
/// The regions, each aligned for its element, widest alignment first (a few bytes of
/// padding in all): per word its visible end, every word's end (when ``storesEnds``), the run
/// ends, the table of distinct word tails, the packed words, the paragraphs; then the
/// per-grapheme columns in one of two forms (``hasPalette``):
///
/// - explicit columns: the grapheme ends and units (16-bit when they fit, ``narrowEnds``,
///   ``narrowUnits``), the sparse cut adjustments, one flag byte per grapheme and the fonts
///   (one byte for a text of one font, ``singleFont``);
/// - a palette (``PreparedText/PaletteEntry``): its checkpoints and entries where the ends
///   and units would be, the cut adjustments, one index byte per grapheme, no fonts.
///
/// Offsets and counts are kept, not pointer-and-count views (96 bytes less per object); the
/// one-byte regions end the allocation back to back, so their offsets are sums. 64 bytes.
/// Every region is bound to its element type when the storage is made and written once by
/// `PreparedText.init` through the mutable accessors, then only read.
///
/// - Thread safety: a value; the allocation is immutable once its text is made, so any
///   thread may read it. Freed by ``deallocate()`` (its text's `deinit`).
struct PreparedStorage: @unchecked Sendable {
    /// What a text stores: the counts and forms of its regions, from which ``init(_:)`` lays
    /// them out.
    struct Shape {
        /// The number of words, distinct word tails, run ends, paragraphs and graphemes.
        var words = 0, tails = 0, runs = 0, paragraphs = 0, graphemes = 0
        /// The palette's entries; 0 for explicit columns.
        var paletteEntries = 0
        /// The stored cut adjustments (those that are not +0).
        var cutPairs = 0
        /// The word columns' forms, as the storage's flags of the same names.
        var storesEnds = false, narrowWords = false, tailsPerWord = false
        /// The explicit columns' forms, as the storage's flags of the same names.
        var narrowEnds = false, narrowUnits = false, singleFont = false
    }

    /// The allocation: ``byteCount`` bytes (at least 1), 16-byte aligned.
    private let base: UnsafeMutableRawPointer
    /// Byte offsets of the regions whose offsets are not sums of others.
    private var wordsAt: UInt32 = 0, tailsAt: UInt32 = 0, packedWordsAt: UInt32 = 0, paragraphsAt: UInt32 = 0
    /// Explicit columns: the grapheme ends; a palette: its checkpoints.
    private var endsOrCheckpointsAt: UInt32 = 0
    /// Explicit columns: the units; a palette: its entries.
    private var unitsOrEntriesAt: UInt32 = 0
    /// The cut adjustments (``cutMask``, ``cutGraphemes``, ``cutValues``).
    private var cutsAt: UInt32 = 0
    /// The number of graphemes, words and paragraphs.
    private(set) var graphemeCount: Int32 = 0, wordCount: Int32 = 0, paragraphCount: Int32 = 0
    /// The number of run ends and of stored cut adjustments.
    private(set) var runCount: Int32 = 0, cutCount: Int32 = 0
    /// The entries of the grapheme palette; 0 for explicit columns.
    private(set) var paletteCount: UInt16 = 0
    /// One tail per word (tail indexes 0); words' grapheme ends and bits in 32 bits; every
    /// word's end stored (``PreparedText/Words``).
    private(set) var tailsPerWord = false, narrowWords = false, storesEnds = false
    /// Explicit columns: ends in `UInt16`, units in `Int16` (``PackedInt32``).
    private(set) var narrowEnds = false, narrowUnits = false
    /// Explicit columns: one font byte for every grapheme (graphemes > 1).
    private(set) var singleFont = false

    /// Lays out the regions of `shape`, allocates them and binds each to its element type.
    ///
    /// - Complexity: O(1); one heap block.
    init(_ shape: Shape) {
        var layout = PackedLayout()
        let w = Self.layOutWords(shape, &layout), g = Self.layOutGraphemes(shape, &layout)
        (wordsAt, tailsAt, packedWordsAt, paragraphsAt) = (w.words, w.tails, w.packed, w.paragraphs)
        (endsOrCheckpointsAt, unitsOrEntriesAt, cutsAt) = (g.endsOrCheckpoints, g.unitsOrEntries, g.cuts)
        (graphemeCount, wordCount, paragraphCount) = (Int32(shape.graphemes), Int32(shape.words), Int32(shape.paragraphs))
        (runCount, cutCount, paletteCount) = (Int32(shape.runs), Int32(shape.cutPairs), UInt16(shape.paletteEntries))
        (tailsPerWord, narrowWords, storesEnds) = (shape.tailsPerWord, shape.narrowWords, shape.storesEnds)
        (narrowEnds, narrowUnits, singleFont) = (shape.narrowEnds, shape.narrowUnits, shape.singleFont)
        precondition(layout.byteCount < Int(UInt32.max), "a prepared text of 4 GiB")
        // unsafe: freed by `deallocate()`, which the owning text's `deinit` calls.
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, layout.byteCount), alignment: 16)
        precondition(
            Int(flagsAt) == g.flags && Int(fontsAt) == g.fonts && byteCount == layout.byteCount,
            "the one-byte columns end the storage back to back")
        precondition(Int(wordEndsAt) == w.wordEnds && Int(runsAt) == w.runs, "word ends and run ends follow the visible ends")
        bindRegions(tails: shape.tails)
    }

    /// Reserves the word, run and paragraph regions of `shape` in `layout`: their offsets.
    private static func layOutWords(
        _ shape: Shape, _ layout: inout PackedLayout
    ) -> (words: UInt32, wordEnds: Int, runs: Int, tails: UInt32, packed: UInt32, paragraphs: UInt32) {
        let words = UInt32(layout.add(Double.self, shape.words))
        let wordEnds = layout.add(Double.self, shape.storesEnds ? shape.words : 0)
        let runs = layout.add(PreparedText.RunEnd.self, shape.runs)
        let tails = UInt32(layout.add(PreparedText.WordTail.self, shape.tails))
        let packed = UInt32(shape.narrowWords ? layout.add(UInt32.self, shape.words) : layout.add(UInt64.self, shape.words))
        return (words, wordEnds, runs, tails, packed, UInt32(layout.add(PreparedText.Paragraph.self, shape.paragraphs)))
    }

    /// Reserves the per-grapheme regions of `shape` (and the cut adjustments) in `layout`:
    /// their offsets.
    private static func layOutGraphemes(
        _ shape: Shape, _ layout: inout PackedLayout
    ) -> (endsOrCheckpoints: UInt32, unitsOrEntries: UInt32, cuts: UInt32, flags: Int, fonts: Int) {
        let endsOrCheckpoints: Int, unitsOrEntries: Int
        if shape.paletteEntries > 0 {
            endsOrCheckpoints = layout.add(UInt16.self, PreparedText.checkpointCount(graphemes: shape.graphemes))
            unitsOrEntries = layout.add(PreparedText.PaletteEntry.self, shape.paletteEntries)
        } else {
            endsOrCheckpoints = addInt32(&layout, shape.graphemes, narrow: shape.narrowEnds, as: UInt16.self)
            unitsOrEntries = addInt32(&layout, shape.graphemes, narrow: shape.narrowUnits, as: Int16.self)
        }
        // (The mask's 8-byte alignment only when there is one: a text without adjustments
        // keeps the 4-byte alignment its columns had.)
        let cuts = shape.cutPairs > 0 ? layout.add(UInt64.self, cutBytes(stored: shape.cutPairs) / 8) : layout.add(Float.self, 0)
        let flags = layout.add(UInt8.self, shape.graphemes)
        let fonts = layout.add(UInt8.self, shape.paletteEntries > 0 ? 0 : shape.singleFont ? 1 : shape.graphemes)
        return (UInt32(endsOrCheckpoints), UInt32(unitsOrEntries), UInt32(cuts), flags, fonts)
    }

    /// Frees the allocation; no accessor may be read after it.
    func deallocate() {
        // unsafe: called once, from the owning text's `deinit`, when no view of it is left.
        base.deallocate()
    }

    /// Bytes of the allocation (`Cache/HeapCost.swift` counts it for budgets).
    var byteCount: Int { Int(fontsAt &+ fontBytes) }

    /// Whether the grapheme columns are a palette (``checkpoints``, ``entries``,
    /// ``indexes``) rather than explicit columns (``ends``, ``units``, ``flags``, ``fonts``).
    @inline(__always) var hasPalette: Bool { paletteCount != 0 }

    // MARK: Words, runs and paragraphs

    /// Per word, where its visible content ends.
    @inline(__always) var visibleEnds: UnsafeMutableBufferPointer<Double> { buffer(wordsAt, wordCount) }
    /// Every word's end (empty unless ``storesEnds``).
    @inline(__always) var wordEnds: UnsafeMutableBufferPointer<Double> { buffer(wordEndsAt, storesEnds ? wordCount : 0) }
    /// The run ends of paragraphs of several style runs (chromium profile).
    @inline(__always) var runEnds: UnsafeMutableBufferPointer<PreparedText.RunEnd> { buffer(runsAt, runCount) }
    /// The table of distinct word tails (one per word when ``tailsPerWord``).
    @inline(__always) var tails: UnsafeMutablePointer<PreparedText.WordTail> { pointer(tailsAt) }
    /// Per word its packed grapheme end, flags, tail index and mask jump: a `UInt32` when
    /// ``narrowWords``, else a `UInt64` (raw: read and written with one `load`/`storeBytes`
    /// of either width).
    @inline(__always) var packedWords: UnsafeMutableRawPointer {
        // unsafe: an offset inside the allocation, laid out by `init`.
        base + Int(packedWordsAt)
    }
    /// The paragraphs.
    @inline(__always) var paragraphs: UnsafeMutableBufferPointer<PreparedText.Paragraph> { buffer(paragraphsAt, paragraphCount) }

    // MARK: Explicit grapheme columns

    /// Per grapheme its UTF-8 end: `UInt16`s when ``narrowEnds``, else `Int32`s (raw, as
    /// ``PackedInt32`` reads it; written by ``fillEnds(from:)``).
    @inline(__always) var ends: UnsafeMutableRawPointer {
        assert(!hasPalette, "a palette text has checkpoints, not ends")
        // unsafe: an offset inside the allocation, laid out by `init`.
        return base + Int(endsOrCheckpointsAt)
    }
    /// Per grapheme its shaped units: `Int16`s when ``narrowUnits``, else `Int32`s.
    @inline(__always) var units: UnsafeMutableRawPointer {
        assert(!hasPalette, "a palette text has entries, not units")
        // unsafe: an offset inside the allocation, laid out by `init`.
        return base + Int(unitsOrEntriesAt)
    }
    /// Per grapheme its ``PreparedText/GraphemeFlags`` raw value.
    @inline(__always) var flags: UnsafeMutableBufferPointer<UInt8> {
        assert(!hasPalette, "a palette text has indexes, not flags")
        return buffer(flagsAt, graphemeCount)
    }
    /// Per grapheme its local font, or one byte for all (``singleFont``).
    @inline(__always) var fonts: UnsafeMutableBufferPointer<UInt8> { buffer(fontsAt, Int32(fontBytes)) }

    /// Copies `values` into ``ends``, narrowed when ``narrowEnds``.
    func fillEnds(from values: UnsafeBufferPointer<Int32>) {
        Self.fill(ends, from: values, narrow: narrowEnds, as: UInt16.self)
    }
    /// Copies `values` into ``units``, narrowed when ``narrowUnits``.
    func fillUnits(from values: UnsafeBufferPointer<Int32>) {
        Self.fill(units, from: values, narrow: narrowUnits, as: Int16.self)
    }

    // MARK: Palette

    /// Where grapheme `k · paletteSpan` starts, for each k, and the text's end
    /// (``PreparedText/checkpointCount(graphemes:)``).
    @inline(__always) var checkpoints: UnsafeMutableBufferPointer<UInt16> {
        assert(hasPalette, "explicit columns have no checkpoints")
        return buffer(endsOrCheckpointsAt, Int32(PreparedText.checkpointCount(graphemes: Int(graphemeCount))))
    }
    /// The distinct entries (``paletteCount``).
    @inline(__always) var entries: UnsafeMutableBufferPointer<PreparedText.PaletteEntry> {
        assert(hasPalette, "explicit columns have no palette entries")
        return buffer(unitsOrEntriesAt, Int32(paletteCount))
    }
    /// Per grapheme the index of its entry.
    @inline(__always) var indexes: UnsafeMutableBufferPointer<UInt8> {
        assert(hasPalette, "explicit columns have no palette indexes")
        return buffer(flagsAt, graphemeCount)
    }

    // MARK: Cut adjustments

    /// Bit `g % 64` set for every grapheme with a stored cut adjustment (``cutCount`` > 0).
    @inline(__always) var cutMask: UnsafeMutablePointer<UInt64> {
        assert(cutCount > 0, "no cut adjustments are stored")
        return pointer(cutsAt)
    }
    /// The graphemes with a stored cut adjustment, ascending.
    @inline(__always) var cutGraphemes: UnsafeMutableBufferPointer<Int32> { buffer(cutsAt &+ 8, cutCount) }
    /// Their adjustments, in the same order.
    @inline(__always) var cutValues: UnsafeMutableBufferPointer<Float> { buffer(cutsAt &+ 8 &+ UInt32(cutCount) &* 4, cutCount) }

    // MARK: Layout

    /// Every word's end, right after the visible ends.
    private var wordEndsAt: UInt32 { wordsAt &+ UInt32(wordCount) &* 8 }
    /// The run ends, right after the word ends (8-byte aligned like them).
    private var runsAt: UInt32 { wordEndsAt &+ (storesEnds ? UInt32(wordCount) &* 8 : 0) }
    /// Grapheme flags or palette indexes, right after the cut adjustments.
    private var flagsAt: UInt32 { cutsAt &+ UInt32(Self.cutBytes(stored: Int(cutCount))) }
    /// Grapheme fonts, right after the flags.
    private var fontsAt: UInt32 { flagsAt &+ UInt32(graphemeCount) }
    /// The font column's bytes: none with a palette, one for a text of one font.
    private var fontBytes: UInt32 { hasPalette ? 0 : singleFont ? 1 : UInt32(graphemeCount) }

    /// Bytes of a cut adjustment column of `stored` values (none for none), 8-byte aligned:
    /// the mask, the grapheme indexes, the values.
    private static func cutBytes(stored: Int) -> Int { stored == 0 ? 0 : 8 &+ stored &* 8 }

    /// Reserves an `Int32` column of `n` values in `layout`, as `Narrow`s when `narrow`.
    private static func addInt32<Narrow>(_ layout: inout PackedLayout, _ n: Int, narrow: Bool, as _: Narrow.Type) -> Int {
        narrow ? layout.add(Narrow.self, n) : layout.add(Int32.self, n)
    }

    /// The region at `offset` as `T`s.
    @inline(__always)
    private func pointer<T>(_ offset: UInt32) -> UnsafeMutablePointer<T> {
        // unsafe: every region was bound to its element type in `init` (`bindRegions`).
        (base + Int(offset)).assumingMemoryBound(to: T.self)
    }

    /// The region of `count` `T`s at `offset`.
    @inline(__always)
    private func buffer<T>(_ offset: UInt32, _ count: Int32) -> UnsafeMutableBufferPointer<T> {
        // unsafe: `count` is the region's length as `init` laid it out.
        UnsafeMutableBufferPointer(start: pointer(offset), count: Int(count))
    }

    /// Binds each region to its element type (`tails`: the tail table's length), so the
    /// accessors may assume it.
    private func bindRegions(tails: Int) {
        let words = Int(wordCount), graphemes = Int(graphemeCount)
        // unsafe (each line): the region's offset and length as `init` laid it out.
        (base + Int(wordsAt)).bindMemory(to: Double.self, capacity: words + (storesEnds ? words : 0))
        (base + Int(runsAt)).bindMemory(to: PreparedText.RunEnd.self, capacity: Int(runCount))
        (base + Int(tailsAt)).bindMemory(to: PreparedText.WordTail.self, capacity: tails)
        if narrowWords { packedWords.bindMemory(to: UInt32.self, capacity: words) } else { packedWords.bindMemory(to: UInt64.self, capacity: words) }
        (base + Int(paragraphsAt)).bindMemory(to: PreparedText.Paragraph.self, capacity: Int(paragraphCount))
        if hasPalette {
            (base + Int(endsOrCheckpointsAt)).bindMemory(to: UInt16.self, capacity: PreparedText.checkpointCount(graphemes: graphemes))
            (base + Int(unitsOrEntriesAt)).bindMemory(to: PreparedText.PaletteEntry.self, capacity: Int(paletteCount))
        } else {
            Self.bindInt32(base + Int(endsOrCheckpointsAt), graphemes, narrow: narrowEnds, as: UInt16.self)
            Self.bindInt32(base + Int(unitsOrEntriesAt), graphemes, narrow: narrowUnits, as: Int16.self)
        }
        if cutCount > 0 {
            (base + Int(cutsAt)).bindMemory(to: UInt64.self, capacity: 1)
            (base + Int(cutsAt) + 8).bindMemory(to: Int32.self, capacity: Int(cutCount))
            (base + Int(cutsAt) + 8 + Int(cutCount) * 4).bindMemory(to: Float.self, capacity: Int(cutCount))
        }
        (base + Int(flagsAt)).bindMemory(to: UInt8.self, capacity: graphemes + Int(fontBytes))
    }

    /// Binds the `Int32` column of `n` values at `column` (as `Narrow`s when `narrow`).
    private static func bindInt32<Narrow>(_ column: UnsafeMutableRawPointer, _ n: Int, narrow: Bool, as _: Narrow.Type) {
        if narrow { column.bindMemory(to: Narrow.self, capacity: n) } else { column.bindMemory(to: Int32.self, capacity: n) }
    }

    /// Copies `values` into the `Int32` column at `column`, as `Narrow`s when `narrow`.
    private static func fill<Narrow: FixedWidthInteger>(
        _ column: UnsafeMutableRawPointer, from values: UnsafeBufferPointer<Int32>, narrow: Bool, as _: Narrow.Type
    ) {
        guard let source = values.baseAddress else { return }
        guard narrow else {
            // unsafe: the column holds `values.count` `Int32`s, bound in `bindRegions`.
            column.assumingMemoryBound(to: Int32.self).update(from: source, count: values.count)
            return
        }
        // unsafe: the column holds `values.count` `Narrow`s, bound in `bindRegions`.
        let narrowed = column.assumingMemoryBound(to: Narrow.self)
        for (i, v) in values.enumerated() { narrowed[i] = Narrow(truncatingIfNeeded: v) }
    }
}
