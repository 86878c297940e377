/// A prepared text's per-grapheme columns as a palette: most texts have few distinct
/// (unit, flags, font, UTF-8 length) tuples — a 150-character cell has ~145 graphemes and ~27
/// distinct tuples — so each grapheme stores one byte, its tuple's index in a per-text table
/// of 5-byte ``PreparedText/PaletteEntry``s, instead of a 2-byte end, a 2-byte unit, a flag
/// byte and a font byte. Grapheme boundaries are derived: a 16-bit checkpoint every
/// ``PreparedText/paletteSpan`` (32) graphemes holds where that grapheme starts, and a grapheme's
/// start is the nearer checkpoint plus (or minus) the `step`s of the graphemes between.
///
/// A text the palette cannot hold (over 256 tuples, a cluster or the bytes between two
/// graphemes over 255, a unit outside 16 bits, over 65,535 UTF-8 bytes, graphemes not
/// covered by their paragraphs in order) keeps the explicit columns: every view reads both.
extension PreparedText {
    /// One distinct grapheme tuple of a palette text. 5 bytes, byte-aligned (the unit in two
    /// bytes): its UTF-8 length is its `step` except on a paragraph's last grapheme followed
    /// by hard-break bytes (``PreparedText/PaletteEntry/gapBit`` set), which ends where its
    /// paragraph does.
    struct PaletteEntry: Sendable, BitwiseCopyable, Equatable {
        private var unitLow: UInt8, unitHigh: UInt8
        /// The grapheme's flags and ``gapBit``.
        private var storedFlags: UInt8
        /// The local font.
        var font: UInt8
        /// Bytes from the grapheme's start to the next grapheme's start: its UTF-8 length,
        /// plus the hard-break characters between two paragraphs after a paragraph's last
        /// grapheme (then ``hasGap``).
        var step: UInt8

        /// Set in the stored flags of a paragraph's last grapheme whose step includes
        /// hard-break bytes (not a `GraphemeFlags` member: ``flags`` clears it).
        static let gapBit: UInt8 = 0x80

        /// The cluster's shaped advance in font units (``PreparedText/units``).
        var unit: Int16 {
            @inline(__always) get { Int16(bitPattern: UInt16(unitLow) | UInt16(unitHigh) << 8) }
        }
        var flags: GraphemeFlags {
            @inline(__always) get { GraphemeFlags(rawValue: storedFlags & ~Self.gapBit) }
        }
        /// Whether the step runs past the grapheme's end to the next paragraph.
        var hasGap: Bool {
            @inline(__always) get { storedFlags & Self.gapBit != 0 }
        }

        /// The entry as 40 bits (the hash key while a palette is built): unit, flags (with
        /// ``gapBit``), font, step.
        @inline(__always)
        var key: UInt64 {
            UInt64(unitLow) | UInt64(unitHigh) << 8 | UInt64(storedFlags) << 16 | UInt64(font) << 24 | UInt64(step) << 32
        }

        /// The entry whose ``key`` is the low 40 bits of `key`.
        @inline(__always)
        init(key: UInt64) {
            unitLow = UInt8(truncatingIfNeeded: key)
            unitHigh = UInt8(truncatingIfNeeded: key >> 8)
            storedFlags = UInt8(truncatingIfNeeded: key >> 16)
            font = UInt8(truncatingIfNeeded: key >> 24)
            step = UInt8(truncatingIfNeeded: key >> 32)
        }
    }

    /// log₂ of the graphemes between two checkpoints of a palette text (32: a random read
    /// sums at most 16 steps; 16 cost 10 B more per 150-character cell, see
    /// Documentation/Decisions.md "Grapheme palette").
    static let paletteShift = 5
    /// Graphemes between two checkpoints of a palette text.
    static let paletteSpan = 1 << paletteShift

    /// The number of checkpoints of a palette text of `graphemes` graphemes: one at every
    /// ``paletteSpan``-th grapheme and one at the end.
    @inline(__always)
    static func checkpointCount(graphemes: Int) -> Int { (graphemes + paletteSpan - 1) >> paletteShift + 1 }

    /// The per-grapheme columns of a text, palette or explicit, read by the views
    /// (``flags``, ``graphemeFonts``, ``units``, ``advances``, ``graphemeEnds``,
    /// ``graphemeStarts``): one branch per read on which form the text has.
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeColumns: @unchecked Sendable {
        let count: Int
        /// Per grapheme: its palette index, or (explicit columns) its flags.
        let bytes: UnsafePointer<UInt8>?
        /// The palette; nil for explicit columns.
        let palette: UnsafePointer<PaletteEntry>?
        /// A palette: its checkpoints, where grapheme `k · paletteSpan` starts (the last: the
        /// text's end); nil for explicit columns.
        let checkpoints: UnsafePointer<UInt16>?
        /// Explicit columns: the fonts (`fonts[g & fontMask]`, ``GraphemeFonts``).
        let fonts: UnsafePointer<UInt8>?
        let fontMask: Int
        /// Explicit columns: the ends (``PackedInt32``, narrow when `narrowEnds`).
        let ends: UnsafeRawPointer?
        /// Explicit columns: the units (narrow when `narrowUnits`).
        let units: UnsafeRawPointer?
        let paragraphs: UnsafePointer<Paragraph>?
        let paragraphCount: Int32
        let narrowEnds: Bool, narrowUnits: Bool

        /// Explicit columns: the ends.
        @inline(__always)
        private var endColumn: PackedInt32<UInt16> { PackedInt32(base: ends, count: count, isNarrow: narrowEnds) }
        /// Explicit columns: the units.
        @inline(__always)
        var unitColumn: PackedInt32<Int16> { PackedInt32(base: units, count: count, isNarrow: narrowUnits) }

        /// The palette entry of grapheme `g` (palette texts only).
        @inline(__always)
        func entry(_ g: Int) -> PaletteEntry {
            palette.unsafelyUnwrapped[Int(bytes.unsafelyUnwrapped[g])]
        }

        /// - Complexity: O(1): one or two loads.
        @inline(__always)
        func flags(_ g: Int) -> GraphemeFlags {
            assert(g >= 0 && g < count, "grapheme \(g) out of 0..<\(count)")
            let b = bytes.unsafelyUnwrapped[g]
            return palette == nil ? GraphemeFlags(rawValue: b) : palette.unsafelyUnwrapped[Int(b)].flags
        }

        /// - Complexity: O(1).
        @inline(__always)
        func font(_ g: Int) -> UInt8 {
            assert(g >= 0 && g < count, "grapheme \(g) out of 0..<\(count)")
            return palette == nil ? fonts.unsafelyUnwrapped[g & fontMask] : entry(g).font
        }

        /// - Complexity: O(1).
        @inline(__always)
        func unit(_ g: Int) -> Int32 {
            palette == nil ? unitColumn[g] : Int32(entry(g).unit)
        }

        /// Where grapheme `g` starts (UTF-8 offset).
        ///
        /// - Complexity: palette: O(``paletteSpan``/2) steps from the nearer checkpoint;
        ///   explicit: O(1) inside a paragraph, O(log paragraphs) at a paragraph's start.
        @inline(__always)
        func start(_ g: Int) -> Int32 {
            assert(g >= 0 && g < count, "grapheme \(g) out of 0..<\(count)")
            if palette != nil { return position(g) }
            if !GraphemeFlags(rawValue: bytes.unsafelyUnwrapped[g]).contains(.startsParagraph) { return endColumn[g - 1] }
            return paragraphStart(g)
        }

        /// Where grapheme `g` ends (UTF-8 offset).
        ///
        /// - Complexity: as ``start(_:)``, O(1) for explicit columns.
        @inline(__always)
        func end(_ g: Int) -> Int32 {
            assert(g >= 0 && g < count, "grapheme \(g) out of 0..<\(count)")
            if palette == nil { return endColumn[g] }
            let e = entry(g)
            return e.hasGap ? paragraphEnd(g) : position(g) &+ Int32(e.step)
        }

        /// The byte end of the paragraph whose last grapheme is `g`.
        ///
        /// - Complexity: O(log paragraphs).
        fileprivate func paragraphEnd(_ g: Int) -> Int32 {
            let paragraphs = paragraphs.unsafelyUnwrapped
            var lo = 0
            var hi = Int(paragraphCount) - 1
            while lo < hi {  // the first paragraph that ends after g
                let mid = (lo + hi) >> 1
                if Int(paragraphs[mid].graphemeEnd) <= g { lo = mid + 1 } else { hi = mid }
            }
            return paragraphs[lo].byteEnd
        }

        /// The byte start of the paragraph whose first grapheme is `g` (explicit columns).
        private func paragraphStart(_ g: Int) -> Int32 {
            let paragraphs = paragraphs.unsafelyUnwrapped
            var lo = 0
            var hi = Int(paragraphCount) - 1
            while lo < hi {  // the last paragraph whose first grapheme is ≤ g
                let mid = (lo + hi + 1) >> 1
                if Int(paragraphs[mid].graphemeStart) <= g { lo = mid } else { hi = mid - 1 }
            }
            return paragraphs[lo].byteStart
        }

        /// Palette: where grapheme `g` starts (`g` ≤ count), from the nearer checkpoint.
        @inline(__always)
        private func position(_ g: Int) -> Int32 {
            let idx = bytes.unsafelyUnwrapped, pal = palette.unsafelyUnwrapped, marks = checkpoints.unsafelyUnwrapped
            let lo = g & ~(PreparedText.paletteSpan - 1)
            let hi = Swift.min(lo &+ PreparedText.paletteSpan, count)
            var i: Int
            var p: Int32
            if g &- lo <= hi &- g {
                i = lo
                p = Int32(marks[lo &>> PreparedText.paletteShift])
                while i < g {
                    p &+= Int32(pal[Int(idx[i])].step)
                    i &+= 1
                }
            } else {
                i = hi
                p = Int32(marks[lo &>> PreparedText.paletteShift &+ 1])
                while i > g {
                    i &-= 1
                    p &-= Int32(pal[Int(idx[i])].step)
                }
            }
            return p
        }

        /// Palette: where grapheme `g` starts, for ``GraphemeCursor``.
        @inline(__always)
        fileprivate func paletteStart(_ g: Int) -> Int32 { position(g) }
    }

    /// Reads grapheme bounds one after another in O(1) each (a palette text's starts are
    /// summed on from the last grapheme read instead of from a checkpoint), for callers
    /// that walk graphemes in order: drawing, caret maps.
    ///
    /// - Thread safety: a value; its columns are an immutable view into the owning text.
    struct GraphemeCursor {
        let columns: GraphemeColumns
        /// The grapheme after the last one read, and where it starts (palette texts).
        private var next = -1
        private var nextStart: Int32 = 0
        /// The last grapheme read and its bounds.
        private var last = -1
        private var lastBounds: (start: Int32, end: Int32) = (0, 0)

        init(_ columns: GraphemeColumns) { self.columns = columns }

        /// Where grapheme `g` starts and ends (UTF-8 offsets).
        ///
        /// - Complexity: O(1) for the grapheme read last or the one after it; else as
        ///   ``GraphemeColumns/start(_:)``.
        @inline(__always)
        mutating func bounds(_ g: Int) -> (start: Int32, end: Int32) {
            if g == last { return lastBounds }
            guard columns.palette != nil else {
                (last, lastBounds) = (g, (columns.start(g), columns.end(g)))
                return lastBounds
            }
            let start = g == next ? nextStart : columns.paletteStart(g)
            let e = columns.entry(g)
            (last, lastBounds) = (g, (start, e.hasGap ? columns.paragraphEnd(g) : start &+ Int32(e.step)))
            (next, nextStart) = (g &+ 1, start &+ Int32(e.step))
            return lastBounds
        }
    }

    /// A per-grapheme view of a text's ``GraphemeColumns`` (flags, fonts, units, ends,
    /// starts): indexed by grapheme, each reading one column accessor.
    protocol GraphemeColumnView: RandomAccessCollection where Index == Int {
        var columns: GraphemeColumns { get }
    }

    /// Per grapheme, its flags (``GraphemeColumns``).
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeFlagsColumn: GraphemeColumnView, @unchecked Sendable {
        let columns: GraphemeColumns
        /// - Complexity: O(1): one or two loads.
        @inline(__always) subscript(g: Int) -> GraphemeFlags { columns.flags(g) }
    }

    /// Per grapheme, its cluster's shaped advance in font units (``GraphemeColumns``).
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeUnits: GraphemeColumnView, @unchecked Sendable {
        let columns: GraphemeColumns
        /// - Complexity: O(1).
        @inline(__always) subscript(g: Int) -> Int32 { columns.unit(g) }
    }

    /// Where each grapheme ends (UTF-8 offset; ``GraphemeColumns``).
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeEnds: GraphemeColumnView, @unchecked Sendable {
        let columns: GraphemeColumns
        /// - Complexity: O(1) for explicit columns, O(``PreparedText/paletteSpan``) for a palette.
        @inline(__always) subscript(g: Int) -> Int32 { columns.end(g) }
    }

    /// Grapheme starts derived from the ends (``graphemeStarts``).
    ///
    /// - Thread safety: an immutable view into the owning `PreparedText`.
    struct GraphemeStarts: GraphemeColumnView, @unchecked Sendable {
        let columns: GraphemeColumns
        /// - Complexity: O(1) inside a paragraph and O(log paragraphs) at its start for
        ///   explicit columns; O(``PreparedText/paletteSpan``) for a palette.
        @inline(__always) subscript(g: Int) -> Int32 { columns.start(g) }
    }

    /// The palette of a text's grapheme columns while it is built, in one scratch allocation
    /// freed by ``release()``: a hash table of the distinct entries (up to 512 slots of a
    /// 16-bit entry number, open addressing, at most half full; the only part zeroed), the entries' keys, each
    /// grapheme's index and the checkpoints.
    struct PaletteBuilder {
        /// The distinct entries (0 when the text keeps its explicit columns).
        private(set) var entryCount = 0
        private var scratch: UnsafeMutableRawPointer?
        private var graphemes = 0

        /// log₂ of ``slotCount``: how many of an entry key's hash bits pick its slot.
        private static let slotBits = 9
        /// The most hash-table slots (512), twice ``maximumEntries``.
        private static let slotCount = 1 << slotBits
        private static let maximumEntries = 256
        /// Byte offsets in the scratch: the keys, the checkpoints, the indexes.
        private static let keysAt = slotCount * 2
        private static let checkpointsAt = keysAt + maximumEntries * 8

        /// Builds the palette of `c`, or leaves `entryCount` 0 when the text cannot have one.
        ///
        /// - Complexity: O(graphemes): one hash probe per grapheme, up to 1 KB zeroed.
        init(_ c: Columns) {
            let n = c.graphemeEnds.count
            guard c.allowsPalette, n > 0, n == c.flags.count, n == c.units.count, n == c.graphemeFonts.count,
                  let last = c.graphemeEnds.last, last >= 0, last <= Int32(UInt16.max)
            else { return }
            let marks = PreparedText.checkpointCount(graphemes: n)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: Self.checkpointsAt + marks * 2 + n, alignment: 8)
            // At most half full: twice the entries there can be, up to 512.
            var slotCount = 32
            while slotCount < 2 * n && slotCount < Self.slotCount { slotCount <<= 1 }
            let slots = raw.bindMemory(to: UInt16.self, capacity: slotCount)
            slots.initialize(repeating: 0, count: slotCount)
            scratch = raw
            graphemes = n
            guard let count = Self.fill(
                c, slots: slots, mask: slotCount - 1, keys: (raw + Self.keysAt).bindMemory(to: UInt64.self, capacity: Self.maximumEntries),
                checkpoints: (raw + Self.checkpointsAt).bindMemory(to: UInt16.self, capacity: marks),
                indexes: (raw + Self.checkpointsAt + marks * 2).bindMemory(to: UInt8.self, capacity: n))
            else {
                release()
                return
            }
            entryCount = count
        }

        /// Hashes each grapheme's entry into `slots` and `keys`, writes its index and the
        /// checkpoints; nil when the text cannot have a palette.
        private static func fill(
            _ c: Columns, slots: UnsafeMutablePointer<UInt16>, mask: Int, keys: UnsafeMutablePointer<UInt64>,
            checkpoints: UnsafeMutablePointer<UInt16>, indexes: UnsafeMutablePointer<UInt8>
        ) -> Int? {
            let ends = c.graphemeEnds, units = c.units, flags = c.flags, fonts = c.graphemeFonts
            let paragraphs = c.paragraphs
            var count = 0, g = 0, k = 0
            var start: Int32 = 0
            while k < paragraphs.count {
                let p = paragraphs[k]
                k += 1
                guard p.graphemeStart < p.graphemeEnd else { continue }
                guard Int(p.graphemeStart) == g, Int(p.graphemeEnd) <= ends.count else { return nil }
                start = p.byteStart
                // Where the next paragraph's first grapheme starts (the last grapheme's step).
                var next = k
                while next < paragraphs.count && paragraphs[next].graphemeStart == paragraphs[next].graphemeEnd { next += 1 }
                let last = Int(p.graphemeEnd) - 1
                // A gap-marked last grapheme ends where its paragraph does (``PaletteEntry/hasGap``).
                guard ends[last] == p.byteEnd else { return nil }
                let nextStart = next < paragraphs.count ? paragraphs[next].byteStart : ends[last]
                // Out-of-range lengths, steps and units set bits here (checked once per paragraph).
                var outOfRange: Int32 = 0
                var first = UInt64(GraphemeFlags.startsParagraph.rawValue) << 16
                /// Interns `key` as grapheme `g`'s entry; false past 256 entries.
                @inline(__always)
                func intern(_ key: UInt64, _ g: Int) -> Bool {
                    var s = FibonacciHash.slot(key, bits: Self.slotBits) & mask
                    while true {
                        let v = Int(slots[s])
                        if v == 0 {
                            guard count < maximumEntries else { return false }
                            keys[count] = key
                            count += 1
                            slots[s] = UInt16(count)
                            indexes[g] = UInt8(count - 1)
                            return true
                        }
                        if keys[v - 1] == key {
                            indexes[g] = UInt8(v - 1)
                            return true
                        }
                        s = (s + 1) & mask
                    }
                }
                /// Grapheme `g`'s key but its length and step (`first`: the paragraph's).
                @inline(__always)
                func base(_ g: Int) -> UInt64 {
                    let unit = units[g]
                    outOfRange |= (unit &+ 0x8000) & ~0xFFFF
                    if g & (PreparedText.paletteSpan - 1) == 0 { checkpoints[g >> PreparedText.paletteShift] = UInt16(truncatingIfNeeded: start) }
                    return UInt64(UInt16(truncatingIfNeeded: unit)) | UInt64(flags[g].rawValue) << 16 | first | UInt64(fonts[g]) << 24
                }
                // Every grapheme but the last: its step is its length.
                while g < last {
                    let end = ends[g]
                    let length = end &- start
                    outOfRange |= length & ~0xFF
                    let key = base(g) | UInt64(UInt8(truncatingIfNeeded: length)) << 32
                    first = 0
                    guard intern(key, g) else { return nil }
                    start = end
                    g += 1
                }
                // The last: its step reaches the next paragraph's first grapheme.
                let length = ends[g] &- start, step = nextStart &- start
                outOfRange |= (length | step | (step &- length)) & ~0xFF
                let gap = step != length ? UInt64(PaletteEntry.gapBit) << 16 : 0
                let key = base(g) | gap | UInt64(UInt8(truncatingIfNeeded: step)) << 32
                guard intern(key, g) else { return nil }
                start = nextStart
                g += 1
                guard outOfRange == 0 else { return nil }
            }
            guard g == ends.count else { return nil }
            checkpoints[PreparedText.checkpointCount(graphemes: g) - 1] = UInt16(truncatingIfNeeded: start)
            return count
        }

        /// Writes the palette (`entryCount` entries), each grapheme's index and the
        /// checkpoints (``checkpointCount(graphemes:)``) into a text's storage.
        func write(
            entries: UnsafeMutableBufferPointer<PaletteEntry>, indexes: UnsafeMutableBufferPointer<UInt8>,
            checkpoints: UnsafeMutableBufferPointer<UInt16>
        ) {
            let marks = PreparedText.checkpointCount(graphemes: graphemes)
            precondition(entries.count == entryCount && indexes.count == graphemes && checkpoints.count == marks, "palette regions")
            let raw = scratch.unsafelyUnwrapped
            let keys = (raw + Self.keysAt).assumingMemoryBound(to: UInt64.self)
            for i in 0..<entryCount { entries[i] = PaletteEntry(key: keys[i]) }
            checkpoints.baseAddress.unsafelyUnwrapped.update(from: (raw + Self.checkpointsAt).assumingMemoryBound(to: UInt16.self), count: marks)
            indexes.baseAddress.unsafelyUnwrapped.update(
                from: (raw + Self.checkpointsAt + marks * 2).assumingMemoryBound(to: UInt8.self), count: graphemes)
        }

        /// Frees the scratch allocation.
        mutating func release() {
            scratch?.deallocate()
            scratch = nil
        }
    }
}

extension PreparedText.GraphemeColumnView {
    /// 0.
    var startIndex: Int { 0 }
    /// The text's grapheme count.
    var endIndex: Int { columns.count }
}
