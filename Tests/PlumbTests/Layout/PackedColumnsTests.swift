@testable import Plumb
import Testing

/// The compact storage of prepared texts (issue 16 §4) reads back exactly what was stored:
/// 16-bit columns when the values fit and 32-bit ones when not, and words whose font masks
/// are shared through a table of distinct tails or, past 256 of them, stored one per word.
struct PackedColumnsTests {
    /// Round trip through `PackedInt32` at both widths, at the edges of the narrow range.
    @Test func sixteenBitColumnsNarrowOnlyWhenEveryValueFits() {
        func roundTrip<N: FixedWidthInteger & BitwiseCopyable>(_ values: [Int32], as _: N.Type) -> (narrow: Bool, back: [Int32]) {
            values.withUnsafeBufferPointer { v in
                let narrow = PackedInt32<N>.fitsNarrow(v)
                let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 * max(1, v.count), alignment: 16)
                defer { raw.deallocate() }
                for (i, value) in v.enumerated() {
                    if narrow {
                        raw.storeBytes(of: N(truncatingIfNeeded: value), toByteOffset: i * MemoryLayout<N>.stride, as: N.self)
                    } else {
                        raw.storeBytes(of: value, toByteOffset: i * 4, as: Int32.self)
                    }
                }
                let column = PackedInt32<N>(base: UnsafeRawPointer(raw), count: v.count, isNarrow: narrow)
                return (narrow, Array(column))
            }
        }
        let ends: [Int32] = [1, 2, 300, 65_535]
        #expect(roundTrip(ends, as: UInt16.self) == (true, ends))
        #expect(roundTrip(ends + [65_536], as: UInt16.self) == (false, ends + [65_536]))
        let units: [Int32] = [-32_768, 0, 1_229, 32_767]
        #expect(roundTrip(units, as: Int16.self) == (true, units))
        #expect(roundTrip(units + [40_000], as: Int16.self) == (false, units + [40_000]))
        #expect(roundTrip([-32_769], as: Int16.self) == (false, [-32_769]))
    }

    /// A hand-built text of one paragraph: `graphemes` (default `words.count`) graphemes of
    /// one byte and advance 10 each, in the default cascade's primary font, the words as given.
    static func oneParagraph(of words: [PreparedText.Word], graphemes: Int? = nil) -> PreparedText {
        let n = graphemes ?? words.count
        let font = engine.fonts.cascade(for: FontDescriptor()).primary
        let use = PreparedText.FontUse(font: font, ascender: 8, descender: -2, lineGap: 1)
        return PreparedText(
            fonts: [use], graphemeStarts: (0..<n).map { Int32($0) }, graphemeEnds: (0..<n).map { Int32($0 + 1) },
            advances: Array(repeating: 10, count: n), flags: Array(repeating: [.breakAfter], count: n),
            graphemeFonts: Array(repeating: 0, count: n), words: words,
            paragraphs: [.init(byteStart: 0, byteEnd: Int32(n), graphemeStart: 0, graphemeEnd: Int32(n),
                               wordStart: 0, wordEnd: Int32(n))],
            ellipsisFont: 0, ellipsisWidth: 10, utf8Count: n, missingGlyphClusters: 0)
    }

    /// The `nextMaskChange` word `k` reads back: the stored jump is capped (at 15 words narrow,
    /// 2²⁰ − 1 wide) and at least 1, which changes no line's mask.
    static func storedNext(_ w: PreparedText.Word, _ k: Int, narrow: Bool) -> Int32 {
        Int32(k) + Int32(max(1, min(Int(w.nextMaskChange) - k, narrow ? 15 : 0xF_FFFF)))
    }

    /// Words read back with their own hanging widths, masks, ends and flags, whether their
    /// masks fit the one-byte index (3, 64 — the stack table —, 65 and 256 distinct) or not
    /// (257 and 300 distinct).
    @Test(arguments: [3, 64, 65, 256, 257, 300]) func wordsReadBackAsStored(distinctTails: Int) {
        let n = 300
        var words: [PreparedText.Word] = []
        for k in 0..<n {
            var w = PreparedText.Word(
                graphemeEnd: Int32(k + 1), hangingWidth: Double(k % distinctTails) * 0.125,
                fontMask: UInt64(k % distinctTails + 1), hasTab: k % 7 == 0,
                mandatoryBreakAfter: k % 11 == 0, end: Double(k + 1) * 10)
            w.nextMaskChange = Int32(n)
            words.append(w)
        }
        let text = Self.oneParagraph(of: words)
        #expect(text.words.count == n)
        // Up to 256 distinct tails are a table (16 B each) and a byte per word, not 16 B per word.
        let perWord = 16 * n
        if distinctTails <= 256 {
            var distinct = words
            for k in 0..<n { distinct[k].fontMask = UInt64(k + 1) }
            #expect(text.storageBytes + perWord - 16 * distinctTails - n <= Self.oneParagraph(of: distinct).storageBytes)
        }
        for k in 0..<n {
            let a = words[k], b = text.words[k]
            #expect(a.graphemeEnd == b.graphemeEnd && a.end == b.end && a.hangingWidth == b.hangingWidth
                && a.fontMask == b.fontMask && a.hasTab == b.hasTab && a.mandatoryBreakAfter == b.mandatoryBreakAfter
                && Self.storedNext(a, k, narrow: true) == b.nextMaskChange, "word \(k)")
        }
    }

    /// A word's end is stored as its visible end and put back by adding its hanging width;
    /// where that sum rounds to another double (a tie: 118.42906923326062 − 4.997999222368016
    /// + 4.997999222368016 is one ulp less), the text stores every end. Grapheme ends and bits
    /// take 32 bits only while every grapheme end fits 16 bits; the jump to the next mask change
    /// is capped (at 15 words narrow) and the flag of a run of one-grapheme words reads back,
    /// at both widths.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func wordEndsAndWideWordsReadBackBitForBit(tie: Bool, wide: Bool) {
        let n = 12
        let (e, h) = (118.42906923326062, 4.997999222368016)
        #expect((e - h) + h != e, "the pair rounds away from the end")
        var words: [PreparedText.Word] = []
        let step = wide ? 6_000 : 1  // the last grapheme end over 65,535
        for k in 0..<n {
            let end = tie && k == 5 ? e : Double(k + 1) * 10
            var w = PreparedText.Word(
                graphemeEnd: Int32((k + 1) * step), hangingWidth: tie && k == 5 ? h : Double(k % 2) * 2.5,
                fontMask: 1, hasTab: false, mandatoryBreakAfter: k == 3, end: end)
            w.nextMaskChange = k < 6 ? 6 : k == 6 ? 7 + 20 : Int32(n)
            w.breaksAfterEveryGrapheme = k % 3 == 0
            words.append(w)
        }
        let text = Self.oneParagraph(of: words, graphemes: n * step)
        #expect((text.words.ends != nil) == tie)
        #expect(text.words.isNarrow == !wide)
        for k in 0..<n {
            let a = words[k], b = text.words[k]
            #expect(a.end.bitPattern == b.end.bitPattern && a.visibleEnd.bitPattern == b.visibleEnd.bitPattern
                && a.hangingWidth == b.hangingWidth && a.hasHangingWidth == b.hasHangingWidth
                && a.graphemeEnd == b.graphemeEnd && Self.storedNext(a, k, narrow: !wide) == b.nextMaskChange
                && a.mandatoryBreakAfter == b.mandatoryBreakAfter && a.hasTab == b.hasTab
                && a.breaksAfterEveryGrapheme == b.breaksAfterEveryGrapheme, "word \(k)")
        }
    }

    /// A line's fonts are OR-ed over jumps capped at 15 words: a line of 40 Latin words and
    /// an ideograph (the mask changes after the cap) has both fonts, at every width.
    /// A paragraph record is 28 bytes (its uniform font mask is its first word's, not
    /// stored), and a paragraph of two fonts is not marked uniform: its lines OR their words'
    /// masks.
    @Test func paragraphsAreTwentyEightBytes() {
        #expect(MemoryLayout<PreparedText.Paragraph>.stride == 28)
        let preparer = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        let cascade = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15))
        let texts = ["plain words only", "words and 中文"]
        let uniform = texts.map { t in
            let p = Array(t.utf8).withUnsafeBufferPointer { preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0) }
            // The columns are views into `p`'s storage: read them while `p` lives.
            return withExtendedLifetime(p) { p.paragraphs[0].hasUniformMask }
        }
        #expect(uniform == [true, false])
    }

    @Test func lineMasksSurviveCappedJumps() {
        let text = String(repeating: "ab ", count: 40) + "中" + String(repeating: " cd", count: 20)
        let utf8 = Array(text.utf8)
        let preparer = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        let cascade = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15))
        let p = utf8.withUnsafeBufferPointer { preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0) }
        #expect(p.words.isNarrow && !p.paragraphs[0].hasUniformMask)
        for width in [Double.infinity, 2_000, 300, 90] {
            for line in LineBreaker(text: p, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: .max).lines() {
                var expected: UInt64 = 0
                for g in Int(line.graphemeStart)..<Int(line.graphemeEnd) { expected |= PreparedText.fontBit(p.graphemeFonts[g]) }
                #expect(line.fontMask == expected, "width \(width), line \(line.graphemeStart)")
            }
        }
    }
}
