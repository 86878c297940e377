@testable import Plumb
import PropertyTesting
import Testing

/// The grapheme palette (issue 16 §4): a prepared text whose graphemes have few distinct
/// (unit, flags, font, length) tuples stores one byte per grapheme and derives its grapheme
/// boundaries from checkpoints; every view reads what the explicit columns hold, and a text
/// the palette cannot hold keeps them. Replay a property failure with the seed it prints:
/// `PLUMB_PROPERTY_SEED=0x… swift test --filter GraphemePaletteTests`.
@Suite struct GraphemePaletteTests {
    func prepared(_ text: String, _ style: TextStyle = style15()) -> PreparedText {
        preparedOrNil(text, style)!
    }

    /// The prepared text of `text` (nil for an empty text, which has none).
    func preparedOrNil(_ text: String, _ style: TextStyle) -> PreparedText? {
        engine.compute(text, style: engine.resolve(style), width: 200, scale: 2, extraWarnings: []).prepared
    }

    /// `p` built again from its views' values, as a palette when allowed and possible;
    /// `units` replaces its units.
    static func rebuilt(_ p: PreparedText, allowsPalette: Bool, units newUnits: [Int32]? = nil) -> PreparedText {
        let ends = Array(p.graphemeEnds), units = newUnits ?? Array(p.units), fonts = Array(p.graphemeFonts)
        let flags = p.flags.map { $0.subtracting(.startsParagraph) }
        let cuts = Array(p.cutAdjustments), words = Array(p.words), paragraphs = Array(p.paragraphs)
        let runEnds = Array(p.runEnds)
        return ends.withUnsafeBufferPointer { ends in
            units.withUnsafeBufferPointer { units in
                cuts.withUnsafeBufferPointer { cuts in
                    flags.withUnsafeBufferPointer { flags in
                        fonts.withUnsafeBufferPointer { fonts in
                            words.withUnsafeBufferPointer { words in
                                paragraphs.withUnsafeBufferPointer { paragraphs in
                                    runEnds.withUnsafeBufferPointer { runEnds in
                                        PreparedText(
                                            fontTable: p.fontTable,
                                            columns: .init(
                                                graphemeEnds: ends, units: units, cutAdjustments: cuts, flags: flags,
                                                graphemeFonts: fonts, words: words, paragraphs: paragraphs, runEnds: runEnds,
                                                allowsPalette: allowsPalette),
                                            ellipsisFont: p.ellipsisFont, ellipsisWidth: p.ellipsisWidth,
                                            ellipsisMask: p.ellipsisMask, token: p.token, ellipsisByGroup: p.ellipsisByGroup,
                                            pangoBaselines: p.pangoBaselines, utf8Count: p.utf8Count,
                                            missingGlyphClusters: p.missingGlyphClusters, trailingSpaces: p.trailingSpaces,
                                            lineFit: p.lineFit)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The first difference between the grapheme views of `a` and `b` (nil when none),
    /// a cursor's reads in order from several starts (checkpoints' neighbours) included.
    static func difference(_ a: PreparedText, _ b: PreparedText) -> String? {
        guard a.graphemeEnds.count == b.graphemeEnds.count else { return "counts \(a.graphemeEnds.count) ≠ \(b.graphemeEnds.count)" }
        let n = a.graphemeEnds.count
        for g in 0..<n {
            if a.flags[g] != b.flags[g] { return "flags of \(g): \(a.flags[g]) ≠ \(b.flags[g])" }
            if a.graphemeFonts[g] != b.graphemeFonts[g] { return "font of \(g)" }
            if a.units[g] != b.units[g] { return "unit of \(g): \(a.units[g]) ≠ \(b.units[g])" }
            if a.graphemeStarts[g] != b.graphemeStarts[g] { return "start of \(g): \(a.graphemeStarts[g]) ≠ \(b.graphemeStarts[g])" }
            if a.graphemeEnds[g] != b.graphemeEnds[g] { return "end of \(g): \(a.graphemeEnds[g]) ≠ \(b.graphemeEnds[g])" }
            if a.advances[g].bitPattern != b.advances[g].bitPattern { return "advance of \(g)" }
        }
        for lo in Set([0, 1, n / 3, n / 2, max(0, n - 17), 15, 16, 17]) where lo <= n {
            for hi in Set([n, lo, lo + 1, lo + 16, lo + 33]) where hi >= lo && hi <= n {
                var (x, y) = (PreparedText.GraphemeCursor(a.graphemeColumns), PreparedText.GraphemeCursor(b.graphemeColumns))
                for g in lo..<hi {
                    let expected = (a.graphemeStarts[g], a.graphemeEnds[g])
                    // In order, and the same grapheme twice.
                    if x.bounds(g) != expected || y.bounds(g) != expected || x.bounds(g) != expected {
                        return "cursor bounds of \(g) from \(lo)"
                    }
                }
            }
        }
        return nil
    }

    /// A cell of two paragraphs (CRLF and an empty paragraph between) stores a palette that
    /// reads as its explicit columns do, in fewer bytes, and lays out the same lines.
    @Test(arguments: [Compatibility.standard, .pango, .chromium])
    func aCellsPaletteReadsAsItsColumns(_ profile: Compatibility) {
        var style = style15()
        style.compatibility = profile
        let text = "Réunion à 15 h — ne pas oublier les 日本語 documents ✈️ et le café.\r\n\nDeuxième paragraphe,\tavec une tabulation."
        let p = prepared(text, style)
        let explicit = Self.rebuilt(p, allowsPalette: false)
        #expect(p.hasGraphemePalette)
        #expect(!explicit.hasGraphemePalette)
        #expect(Self.difference(p, explicit) == nil)
        #expect(p.storageBytes < explicit.storageBytes)
        for width in [60.0, 150, 400] {
            let a = LineBreaker(text: p, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: .max).lines()
            let b = LineBreaker(text: explicit, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: .max).lines()
            #expect(a == b)
        }
    }

    /// Up to 256 distinct tuples take the palette; one more keeps the explicit columns, and
    /// both read back the units given.
    @Test(arguments: [(250, true), (400, false)])
    func overTwoHundredFiftySixTuplesKeepsTheColumns(distinctUnits: Int, palette: Bool) {
        let p = prepared(String(repeating: "x", count: 400))
        let units = (0..<400).map { Int32($0 % distinctUnits) }
        let q = Self.rebuilt(p, allowsPalette: true, units: units)
        #expect(q.hasGraphemePalette == palette)
        #expect(Array(q.units) == units)
        #expect(Array(q.graphemeEnds) == Array(p.graphemeEnds))
        #expect(Self.difference(q, Self.rebuilt(q, allowsPalette: false)) == nil)
    }

    /// A unit outside 16 bits keeps the explicit columns (32-bit units).
    /// A palette entry is 5 bytes, byte-aligned; the hard-break bytes after a paragraph's
    /// last grapheme are in its step, not in its end (CR LF, LF LF, a paragraph separator).
    @Test func entriesAreFiveBytesAndGapsAreNotInEnds() {
        #expect(MemoryLayout<PreparedText.PaletteEntry>.stride == 5)
        let text = "ab\r\ncd\n\nef\u{2029}gh"
        let p = prepared(text)
        #expect(p.hasGraphemePalette)
        let utf8 = Array(text.utf8)
        let ends = (0..<p.graphemeEnds.count).map { Int(p.graphemeEnds[$0]) }
        let starts = (0..<p.graphemeEnds.count).map { Int(p.graphemeStarts[$0]) }
        let letters = zip(starts, ends).map { String(decoding: utf8[$0.0..<$0.1], as: UTF8.self) }
        #expect(letters == ["a", "b", "c", "d", "e", "f", "g", "h"])
    }

    @Test func aWideUnitKeepsTheColumns() {
        let p = prepared("abc")
        let q = Self.rebuilt(p, allowsPalette: true, units: [1, 40_000, -3])
        #expect(!q.hasGraphemePalette)
        #expect(Array(q.units) == [1, 40_000, -3])
    }

    /// A cluster of over 255 bytes keeps the explicit columns; one of 255 fits.
    @Test(arguments: [(255, true), (256, false)])
    func aLongClusterKeepsTheColumns(length: Int, palette: Bool) {
        let font = engine.fonts.cascade(for: FontDescriptor()).primary
        let use = PreparedText.FontUse(font: font, ascender: 8, descender: -2, lineGap: 1)
        let ends: [Int32] = [1, Int32(1 + length), Int32(2 + length)]
        let words = ends.indices.map {
            PreparedText.Word(graphemeEnd: Int32($0 + 1), hangingWidth: 0, fontMask: 1, hasTab: false, mandatoryBreakAfter: false,
                              end: Double($0 + 1) * 10, nextMaskChange: 3)
        }
        let p = PreparedText(
            fonts: [use], graphemeStarts: [0] + ends.dropLast(), graphemeEnds: ends, advances: [10, 10, 10],
            flags: [.breakAfter, .breakAfter, []], graphemeFonts: [0, 0, 0], words: words,
            paragraphs: [.init(byteStart: 0, byteEnd: ends[2], graphemeStart: 0, graphemeEnd: 3, wordStart: 0, wordEnd: 3)],
            ellipsisFont: 0, ellipsisWidth: 10, utf8Count: Int(ends[2]), missingGlyphClusters: 0)
        #expect(p.hasGraphemePalette == palette)
        #expect(Array(p.graphemeEnds) == ends)
        #expect(Array(p.graphemeStarts) == [0] + ends.dropLast())
    }

    /// More than 255 bytes of hard breaks between two paragraphs keep the explicit columns;
    /// fewer take the palette, and both read the paragraphs' starts back.
    @Test(arguments: [(200, true), (300, false)])
    func aLongGapBetweenParagraphsKeepsTheColumns(newlines: Int, palette: Bool) {
        let p = prepared("ab" + String(repeating: "\n", count: newlines) + "cd\r\nef")
        #expect(p.hasGraphemePalette == palette)
        #expect(Array(p.graphemeStarts) == [0, 1, Int32(2 + newlines), Int32(3 + newlines), Int32(6 + newlines), Int32(7 + newlines)])
        #expect(Self.difference(p, Self.rebuilt(p, allowsPalette: !palette)) == nil)
    }

    /// A text over 64 KiB keeps the explicit columns (32-bit ends).
    @Test func aTextOverSixtyFourKiBKeepsTheColumns() {
        let p = prepared(String(repeating: "ab ", count: 22_000))
        #expect(!p.hasGraphemePalette)
        #expect(p.graphemeEnds.last == 66_000)
        let q = prepared(String(repeating: "ab ", count: 21_000))
        #expect(q.hasGraphemePalette)
        #expect(q.graphemeEnds.last == 63_000)
        #expect(Self.difference(q, Self.rebuilt(q, allowsPalette: false)) == nil)
    }

    /// For generated texts (every script, emoji, hard breaks, tabs, combining marks) under
    /// each profile, the palette's views equal the explicit columns'.
    @Test func paletteViewsEqualTheExplicitColumns() {
        let gen = Gen.zip(Gen<String>.text(maxClusters: 80), Gen.element(of: Compatibility.allCases),
                          Gen.element(of: LayoutPropertyTests.families))
        let failure = checkProperty("palette views equal the explicit columns", gen, iterations: 150) { (value: (String, Compatibility, [String])) throws -> Void in
            let (text, profile, families) = value
            var style = style15(families)
            style.compatibility = profile
            guard let p = preparedOrNil(text, style) else { return }
            let explicit = Self.rebuilt(p, allowsPalette: false)
            if explicit.hasGraphemePalette { throw PaletteMismatch(description: "palette not allowed") }
            if let d = Self.difference(p, explicit) { throw PaletteMismatch(description: d) }
            if let d = Self.difference(Self.rebuilt(explicit, allowsPalette: true), explicit) { throw PaletteMismatch(description: d) }
        }
        if let failure { Issue.record("\(failure)") }
    }

    struct PaletteMismatch: Error, CustomStringConvertible {
        var description: String
    }
}
