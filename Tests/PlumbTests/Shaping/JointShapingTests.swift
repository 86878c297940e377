import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// Segments shaped together in one HarfBuzz run (`Shaper.shapeSegments`, what the preparer does
/// with the segments of a paragraph that miss the segment cache) get exactly the advances each
/// gets shaped alone: in text order (real neighbours: kerning, ligatures, marks across a cut)
/// and in reverse order (neighbours the text never had).
@Suite struct JointShapingTests {
    struct Face: Sendable {
        let path: String
        let index: Int
        let script: ScriptTag
        let pieces: [String]
    }

    static let latin = [
        "To", "AV", "Wa", "ffi", "fl", "Ty", "LT", "r.", "y,", "P.", "e\u{301}", "a\u{308}\u{304}", "é", "ß", " ", " ",
        "123", "-", "(", ")", "'", "\"", "…", "fj", "Yo", "Å", "\u{FB01}", "ǅ",
    ]
    static let cyrillic = ["Привет", "ТЬ", "Гд", "ё", "и\u{306}", "Ў", " ", ",", "1", "«", "»", "ДЛ"]
    static let greek = ["Ελληνικά", "ΤΥ", "ά", "ΐ", "α\u{301}", " ", ".", "ΑΥ", "ῷ"]
    /// Thai words, lone vowels and tone marks (a segment may start with a mark: a cut after
    /// a space cluster's mark, or after a piece), SARA AM, digits, ๆ.
    static let thai = [
        "ไม่", "สำ", "เร็จ", "ที่", "ซ็อก", "เก็ต", "ข้อ", "มูล", "\u{E31}", "\u{E33}", "\u{E48}", "กิ", "น้ำ", " ",
        "1", "ฯ", "ๆ", "ฤๅ", "เ", "ป่", "ฎุ", "ฐ", "ญ", "ปั๊", "\u{E4D}\u{E48}", "ก\u{E4D}\u{E32}", "ฬ", "ฝ้",
    ]
    static let hebrew = [
        "שלום", "עולם", "בְּ", "שָׁ", "\u{5B8}", "\u{5BC}", "וּ", "ײַ", " ", "1", ".", "־", "״", "(", ")", "ךָ", "אַ",
    ]
    static let arabic = [
        "مرحبا", "بالعالم", "لا", "لأ", "ـ", "\u{64E}", "\u{651}", "ب", "ي", "ه", "ة", " ", "،", "1", "٣", "(", ")",
        "فی", "ك", "\u{200D}", "\u{200C}", "ﻻ", "الله", "ئ",
    ]
    static let notoSans = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
    static let noto = "/usr/share/fonts/truetype/noto/"
    static let notoCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let faces = [
        Face(path: notoSans, index: 0, script: .latin, pieces: latin),
        Face(path: notoSans, index: 0, script: .cyrillic, pieces: cyrillic),
        Face(path: notoSans, index: 0, script: .greek, pieces: greek),
        Face(
            path: notoCJK, index: 2, script: .han,
            pieces: ["中", "文", "。", "、", "「", "」", "（", "）", "：", " ", "A", "1", "〜", "〇"]),
        Face(
            path: notoCJK, index: 2, script: .katakana,
            pieces: ["ケ", "ー", "ッ", "カ", "タ", "ヴ", "ァ", "パ", "゙", "・", "。", "（", "）"]),
        Face(path: noto + "NotoSansThai-Regular.ttf", index: 0, script: .thai, pieces: thai),
        Face(path: noto + "NotoSansHebrew-Regular.ttf", index: 0, script: .hebrew, pieces: hebrew),
        Face(path: noto + "NotoSansArabic-Regular.ttf", index: 0, script: .arabic, pieces: arabic),
    ]

    @Test func onlyDefaultShaperScriptsAreShapedTogether() {
        for face in Self.faces { #expect(Shaper.batchesSegments(of: face.script)) }
        for tag in [ScriptTag.neutral, ScriptTag("Deva"), .hangul, ScriptTag("Beng"), ScriptTag("Khmr"), ScriptTag("Mymr")] {
            #expect(!Shaper.batchesSegments(of: tag))
        }
    }

    struct Case: Sendable {
        let face: Int
        let pieces: [Int]
        let cuts: [Bool]
    }

    static let cases: Gen<Case> = Gen.zip(
        Gen.element(of: Array(faces.indices)), Gen.array(of: Gen.element(of: Array(0..<32)), count: 1...30),
        Gen.array(of: Gen.element(of: [false, false, true]), count: 0...60)
    ).map { Case(face: $0.0, pieces: $0.1, cuts: $0.2) }

    let shaper = Shaper()
    let iterators = BreakIterators(locale: "en")!

    /// Whether both orders of `c`'s segments shape together as they shape alone.
    func agrees(_ c: Case, fonts: [Font]) -> Bool {
        let face = Self.faces[c.face]
        let text = c.pieces.map { face.pieces[$0 % face.pieces.count] }.joined()
        let utf8 = Array(text.utf8)
        let clusterEnds = utf8.withUnsafeBufferPointer { Array(iterators.graphemeBreaks($0)) }
        // Segments: runs of clusters, cut after cluster i when cuts[i].
        var segments: [[UInt8]] = []
        var segmentEnds: [[Int32]] = []
        var start: Int32 = 0
        var ends: [Int32] = []
        for (i, end) in clusterEnds.enumerated() {
            ends.append(end - start)
            if i == clusterEnds.count - 1 || (i < c.cuts.count && c.cuts[i]) {
                segments.append(Array(utf8[Int(start)..<Int(end)]))
                segmentEnds.append(ends)
                start = end
                ends = []
            }
        }
        let script = face.script
        let font = fonts[c.face]
        let alone = zip(segments, segmentEnds).map { bytes, ends -> [Int32] in
            var out = [Int32](repeating: 0, count: ends.count)
            bytes.withUnsafeBufferPointer { b in
                ends.withUnsafeBufferPointer { e in
                    out.withUnsafeMutableBufferPointer {
                        _ = shaper.shape(b, graphemeEnds: e, font: font, script: script, advances: $0)
                    }
                }
            }
            return out
        }
        for order in [Array(segments.indices), Array(segments.indices.reversed())] {
            var bytes: [UInt8] = []
            var allEnds: [Int32] = []
            var starts: [Int32] = []
            for k in order {
                starts.append(Int32(allEnds.count))
                allEnds += segmentEnds[k].map { $0 + Int32(bytes.count) }
                bytes += segments[k]
            }
            var joint = [Int32](repeating: -1, count: allEnds.count)
            bytes.withUnsafeBufferPointer { b in
                allEnds.withUnsafeBufferPointer { e in
                    starts.withUnsafeBufferPointer { s in
                        joint.withUnsafeMutableBufferPointer {
                            _ = shaper.shapeSegments(b, graphemeEnds: e, segmentStarts: s, font: font, script: script, advances: $0)
                        }
                    }
                }
            }
            if joint != order.flatMap({ alone[$0] }) { return false }
        }
        return true
    }

    @Test func segmentsShapedTogetherMatchSegmentsShapedAlone() throws {
        let fonts = try Self.faces.map { face in
            try #require(Font(id: Font.nextID(), path: face.path, faceIndex: face.index, familyName: face.path))
        }
        if let failure = checkProperty("joint shaping", Self.cases, iterations: 600, { agrees($0, fonts: fonts) }) {
            Issue.record("\(failure)")
        }
    }

    /// Kerned neighbours cut apart are the case the unsafe-to-break check exists for: "To"
    /// kerns in Noto Sans, so a joint run must not hand its kerned "T" to the segment "T".
    @Test func aKernedPairCutApartIsShapedAgainAlone() throws {
        let face = Self.faces[0]
        let font = try #require(Font(id: Font.nextID(), path: face.path, faceIndex: 0, familyName: "Noto Sans"))
        let bytes = Array("To".utf8)
        var joint = [Int32](repeating: 0, count: 2)
        let reshaped = bytes.withUnsafeBufferPointer { b in
            [Int32(1), 2].withUnsafeBufferPointer { e in
                [Int32(0), 1].withUnsafeBufferPointer { s in
                    joint.withUnsafeMutableBufferPointer {
                        shaper.shapeSegments(b, graphemeEnds: e, segmentStarts: s, font: font, script: .latin, advances: $0)
                    }
                }
            }
        }
        #expect(reshaped == 2)
        #expect(joint[0] == Shaper.nominalAdvance(of: CollectionOfOne("T"), font: font))
    }

    /// The preparer with missed segments shaped together (joint runs of a paragraph's misses,
    /// the RTL and Thai shapers included) prepares the graphemes a preparer shaping each
    /// segment as it meets it does: the corpus' cells with Thai, Hebrew or Arabic and
    /// generated texts of the pieces above, in every profile.
    @Test func thePreparersJointRunsEqualSegmentsShapedOneByOne() throws {
        let cascade = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15))
        let profiles = [LayoutConventions.standard, .pango, .chromium]
        func preparer(together: Bool) -> TextPreparer {
            let p = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 22))
            p.shapesMissedSegmentsTogether = together
            return p
        }
        let joint = profiles.map { _ in preparer(together: true) }
        let oneByOne = profiles.map { _ in preparer(together: false) }
        /// The first difference for `text` in any profile, nil if none.
        func difference(_ text: String) -> String? {
            let utf8 = Array(text.utf8)
            for (k, conventions) in profiles.enumerated() {
                let (a, b) = utf8.withUnsafeBufferPointer {
                    (joint[k].prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: conventions),
                     oneByOne[k].prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: conventions))
                }
                if let d = GraphemePaletteTests.difference(a, b) { return "profile \(k): \(d)" }
            }
            return nil
        }
        let corpus = try corpusTexts().filter { t in
            t.unicodeScalars.contains { (0x590...0x6FF).contains($0.value) || (0xE00...0xE7F).contains($0.value) }
        }
        #expect(corpus.count > 100)
        for text in corpus {
            if let d = difference(text) { Issue.record("\(text): \(d)") }
        }
        let texts: Gen<String> = Gen.zip(
            Gen.element(of: [Self.thai, Self.hebrew, Self.arabic, Self.latin]),
            Gen.array(of: Gen.element(of: Array(0..<32)), count: 1...40),
            Gen.array(of: Gen.element(of: ["", " ", " ", "\u{A0}", ", "]), count: 0...40)
        ).map { pieces, picks, gaps in
            picks.enumerated().map { i, p in pieces[p % pieces.count] + (i < gaps.count ? gaps[i] : "") }.joined()
        }
        if let failure = checkProperty("preparer joint runs", texts, iterations: 300, { difference($0) == nil }) {
            Issue.record("\(failure)")
        }
    }
}
