import Dispatch
import Glibc
import Synchronization
import CHarfBuzz
@testable import Plumb
import Testing

/// Fonts: fontconfig cascade, face indexes, metrics, per-cluster fallback, emoji.
@Suite struct FontTests {
    func fontNames(_ text: String, _ families: [String] = ["Noto Sans", "Noto Sans CJK SC"]) -> [String] {
        let r = engine.compute(text, style: engine.resolve(style15(families)), width: 1000, scale: 2, extraWarnings: [])
        let p = r.prepared!
        return p.graphemeFonts.map { p.fonts[Int($0)].font.familyName }
    }

    @Test func cascadeResolvesWithTheRightFaceIndex() {
        let c = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"]))
        #expect(c.fonts.map(\.familyName) == ["Noto Sans", "Noto Sans CJK SC"])
        #expect(c.fonts[1].path.hasSuffix("NotoSansCJK-Regular.ttc"))
        #expect(c.fonts[1].faceIndex == 2)  // SC is face 2 of the collection
        #expect(c.warnings.isEmpty)
    }

    /// The BMP coverage bitmap answers exactly as the cmap does, on first and later asks and
    /// from several threads at once (fresh faces, so every answer is computed here).
    @Test func glyphCoverageCacheAgreesWithTheCmap() {
        let c = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC", "DejaVu Sans"]))
        for loaded in c.fonts {
            guard let font = Plumb.Font(id: 200_000 + loaded.id, path: loaded.path, faceIndex: loaded.faceIndex, familyName: loaded.familyName) else {
                Issue.record("cannot reload \(loaded)")
                continue
            }
            @Sendable func cmap(_ v: UInt32) -> Bool {
                var glyph: hb_codepoint_t = 0
                return hb_font_get_nominal_glyph(font.hbFont, v, &glyph) != 0 && glyph != 0
            }
            let points = Array(UInt32(0)..<0x10000).filter { !(0xD800...0xDFFF).contains($0) } + [0x1F600, 0x20000]
            let mismatches = Synchronization.Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for v in worker % 2 == 0 ? points : points.reversed() {
                    let scalar = Unicode.Scalar(v)!
                    if font.hasGlyph(for: scalar) != cmap(v) { mismatches.add(1, ordering: .relaxed) }
                }
            }
            #expect(mismatches.load(ordering: .relaxed) == 0, "\(font.familyName)")
            #expect(points.allSatisfy { font.hasGlyph(for: Unicode.Scalar($0)!) == cmap($0) }, "\(font.familyName), asked again")
            #expect(font.hasGlyph(for: "a") && font.hasGlyph(for: "a"))
        }
    }

    @Test func metricsComeFromHhea() {
        let c = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC", "DejaVu Sans"]))
        let m = c.fonts.map(\.metrics)
        #expect(m[0] == FontMetrics(ascender: 1069, descender: -293, lineGap: 0, upem: 1000))
        // CJK: hhea 1160 / −288, not OS/2 typo 880 / −120 (USE_TYPO_METRICS is off).
        #expect(m[1] == FontMetrics(ascender: 1160, descender: -288, lineGap: 0, upem: 1000))
        // DejaVu: hhea 1901 / −483, not typo 1556 / −492 / 410.
        #expect(m[2] == FontMetrics(ascender: 1901, descender: -483, lineGap: 0, upem: 2048))
    }

    @Test func typoMetricsWinWhenTheFontAsksForThem() throws {
        // Patch a copy of Noto Sans: distinct OS/2 typo metrics, a hhea line gap, and then
        // the USE_TYPO_METRICS bit. (No installed font sets the bit.)
        let original = try #require(engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans"])).fonts.first)
        var bytes = try #require(readFile(original.path))
        let os2 = try #require(tableOffset(bytes, "OS/2"))
        let hhea = try #require(tableOffset(bytes, "hhea"))
        put16(&bytes, hhea + 8, 100)  // hhea lineGap = 100
        put16(&bytes, os2 + 68, 900)  // sTypoAscender
        put16(&bytes, os2 + 70, -200)  // sTypoDescender
        put16(&bytes, os2 + 72, 50)  // sTypoLineGap
        let plain = try #require(loadPatched(bytes))
        #expect(plain.metrics == FontMetrics(ascender: 1069, descender: -293, lineGap: 100, upem: 1000))
        let fsSelection = Int(bytes[os2 + 62]) << 8 | Int(bytes[os2 + 63])
        put16(&bytes, os2 + 62, fsSelection | 1 << 7)
        let typo = try #require(loadPatched(bytes))
        #expect(typo.metrics == FontMetrics(ascender: 900, descender: -200, lineGap: 50, upem: 1000))
        #expect(typo.metrics.lineHeight(atSize: 10, includingLeading: true) == 11.5)
        #expect(typo.metrics.lineHeight(atSize: 10, includingLeading: false) == 11)
    }

    @Test func clustersFallBackPerClusterAndNeverSplit() {
        #expect(fontNames("a中") == ["Noto Sans", "Noto Sans CJK SC"])
        // Only Noto Sans in the cascade: CJK goes to the CJK SC preference, not JP or Lisu.
        #expect(fontNames("中《》", ["Noto Sans"]) == ["Noto Sans", "Noto Sans CJK SC", "Noto Sans CJK SC", "Noto Sans CJK SC"].suffix(3).map { $0 })
        // Thai and Arabic come from fontconfig's fallback list.
        #expect(fontNames("ก").first?.contains("Thai") == true)
        // Arabic: fontconfig's sort order (DejaVu Sans has Arabic and comes first, as in
        // Pango); the point is that a real font with the glyph is used, never .notdef.
        let arabic = engine.compute("عربي", style: engine.resolve(style15()), width: 1000, scale: 2, extraWarnings: [])
        #expect(arabic.prepared!.missingGlyphClusters == 0)
        #expect(!fontNames("ع").contains("Noto Sans"))
        // "é" as e + combining acute is one cluster in one font.
        #expect(fontNames("e\u{301}") == ["Noto Sans"])
    }

    @Test func emojiPreferTheColorFont() {
        #expect(fontNames("😀") == ["Noto Color Emoji"])
        #expect(fontNames("👨‍👩‍👧‍👦") == ["Noto Color Emoji"])  // one ZWJ cluster
        #expect(fontNames("👍🏽") == ["Noto Color Emoji"])
        #expect(fontNames("🇯🇵") == ["Noto Color Emoji"])
        #expect(fontNames("1\u{FE0F}\u{20E3}") == ["Noto Color Emoji"])  // keycap
        #expect(fontNames("\u{2764}\u{FE0F}") == ["Noto Color Emoji"])  // text default + VS16
        #expect(fontNames("1") == ["Noto Sans"])  // a digit stays text
        #expect(fontNames("\u{2764}\u{FE0E}") != ["Noto Color Emoji"])  // VS15 forces text
    }

    @Test func unknownFamilyFallsBackToDefaultSans() {
        let c = engine.fonts.cascade(for: FontDescriptor(families: ["Definitely Not A Font"]))
        #expect(!c.fonts.isEmpty)
        #expect(c.warnings.first == .unknownFontFamily("Definitely Not A Font"))
    }

    @Test func resolutionIsCachedAndStable() {
        let d = FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"])
        #expect(engine.fonts.cascade(for: d) === engine.fonts.cascade(for: d))
    }

    @Test func widthsAreHarfBuzzAdvances() {
        // "iiii" has no kerning: 4 × the nominal advance of "i", at 15 pt, read directly from
        // HarfBuzz without shaping.
        let font = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans"])).primary
        var glyph: hb_codepoint_t = 0
        #expect(hb_font_get_nominal_glyph(font.hbFont, 0x69, &glyph) != 0)
        let units = Double(hb_font_get_glyph_h_advance(font.hbFont, glyph))
        let l = engine.layout("iiii", style: style15(["Noto Sans"]), width: 1000)
        #expect(abs(l.lines[0].usedWidth - 4 * units * 15 / 1000) < 1e-9)
        var spaced = style15(["Noto Sans"])
        spaced.letterSpacing = 2
        let s = engine.layout("iiii", style: spaced, width: 1000)
        #expect(abs(s.lines[0].usedWidth - (4 * units * 15 / 1000 + 8)) < 1e-9)
    }

    @Test func tabsAdvanceToTabStops() {
        let a = engine.layout("a", style: style15(), width: 1000).lines[0].usedWidth
        let b = engine.layout("b", style: style15(), width: 1000).lines[0].usedWidth
        let l = engine.layout("a\tb", style: style15(), width: 1000)
        #expect(a < 28)
        #expect(abs(l.lines[0].usedWidth - (28 + b)) < 1e-9)
        var s = style15()
        s.tabInterval = 50
        #expect(abs(engine.layout("a\tb", style: s, width: 1000).lines[0].usedWidth - (50 + b)) < 1e-9)
    }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

func tableOffset(_ b: [UInt8], _ tag: String) -> Int? {
    let numTables = Int(b[4]) << 8 | Int(b[5])
    let t = Array(tag.utf8)
    for i in 0..<numTables {
        let rec = 12 + 16 * i
        if Array(b[rec..<rec + 4]) == t {
            return Int(b[rec + 8]) << 24 | Int(b[rec + 9]) << 16 | Int(b[rec + 10]) << 8 | Int(b[rec + 11])
        }
    }
    return nil
}

func put16(_ b: inout [UInt8], _ at: Int, _ v: Int) {
    let u = UInt16(truncatingIfNeeded: v)
    b[at] = UInt8(u >> 8)
    b[at + 1] = UInt8(u & 0xFF)
}

private nonisolated(unsafe) var patchCounter = 0
func loadPatched(_ bytes: [UInt8]) -> Plumb.Font? {
    patchCounter += 1
    let path = "/tmp/plumb-test-font-\(getpid())-\(patchCounter).ttf"
    guard let f = fopen(path, "wb") else { return nil }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
    fclose(f)
    defer { unlink(path) }
    return Plumb.Font(id: 100_000 + patchCounter, path: path, faceIndex: 0, familyName: "Patched")
}

/// The cluster classifier's spelled-out Unicode tables agree with the standard library's
/// properties for every scalar.
@Suite struct ClusterClassifierTests {
    @Test func defaultIgnorableListMatchesTheUnicodeProperty() {
        var wrong: [String] = []
        for v in UInt32(0xA0)...0x10FFFF {
            guard let s = Unicode.Scalar(v), !(0x7F..<0xA0).contains(v) else { continue }
            if ClusterClassifier.isIgnorableForCoverage(s) != s.properties.isDefaultIgnorableCodePoint, wrong.count < 5 {
                wrong.append(String(v, radix: 16))
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func noEmojiPresentationCharacterInTheSkippedRanges() {
        for v in UInt32(0)...0x1F003 where v < 0x231A || v >= 0x2B56 {
            guard let s = Unicode.Scalar(v) else { continue }
            #expect(!s.properties.isEmojiPresentation, "U+\(String(v, radix: 16))")
        }
    }
}
