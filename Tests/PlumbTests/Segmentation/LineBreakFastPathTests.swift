import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// Line breaks without ICU's iterator for text of the fast path's Line_Break classes
/// (`plumb_breaker_line_breaks`) must be ICU's breaks exactly, with both rule sets the
/// preparer uses (`en`: the default; `en@lb=normal`: the chromium profile).
@Suite struct LineBreakFastPathTests {
    let iteratorSets = [BreakIterators(locale: "en")!, BreakIterators(locale: "en@lb=normal")!]

    /// One character of every class of the fast path's subset (several of the common ones),
    /// and characters outside it, so generated texts exercise every pair and the fallback.
    static let inSubset: [String] = [
        "a", "b", "Z", "é", "ß", "Ж", "я", "α", "ع", "#", "&", "*", "@", "=", "<", ">", "~", "_", "`",  // AL
        "0", "7", "٣",  // NU
        " ", " ", " ",  // SP
        "中", "文", "あ", "カ", "가", "각", "😀",  // ID, H2, H3
        ".", ",", ":", ";",  // IS
        "!", "?", "！",  // EX
        "}", "。", "、", "」", "）", "》",  // CL
        ")", "]",  // CP
        "(", "[", "{", "「", "（", "《",  // OP
        "\"", "'", "«", "»", "“", "”", "‘", "’",  // QU
        "%", "‰", "¢",  // PO
        "$", "+", "\\", "£",  // PR
        "-",  // HY
        "/",  // SY
        "：", "；", "・", "々", "ゝ", "ヽ", "〜", "゠", "‼",  // NS
        "ー", "ッ", "ァ", "ゃ",  // CJ
        "\u{A0}", "\u{202F}",  // GL
        "\u{301}", "\u{308}", "\u{93F}", "\u{64E}", "\u{FE0F}",  // CM
        "👍", "👦", "👪", "😀",  // EB, ID emoji
        "🏽", "🏻",  // EM
    ]
    static let outside: [String] = [
        "\t", "|", "–", "—", "…", "ש", "ก", "\u{200B}", "\u{200D}", "\u{2060}", "🇫", "\u{1100}", "\u{2028}",
    ]

    static let texts: Gen<String> = Gen.array(
        of: Gen.frequency([(30, Gen.element(of: inSubset)), (1, Gen.element(of: outside))]), count: 0...24
    ).map { $0.joined() }

    func same(_ text: String) -> Bool {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(buffer)
            return iteratorSets.allSatisfy { iterators in
                let fast = iterators.lineBreaks(bytes)
                let (offsets, hard) = (Array(fast.offsets), Array(fast.hard))
                let icu = iterators.lineBreaksThroughICU(bytes)
                return offsets == Array(icu.offsets) && hard == Array(icu.hard)
            }
        }
    }

    /// The ASCII table and the ranges read without ICU agree with ICU's properties (the table
    /// may leave a code point out, as it does ASCII controls, which are CM: ICU breaks those).
    @Test func tableAndRangesAreICUsClasses() {
        var mismatches: [UInt32] = []
        for c in UInt32(0)..<0x30000 where !(0xD800..<0xE000).contains(c) {
            let fast = BreakIterators.simpleLineClass(of: c, throughTable: true)
            let icu = BreakIterators.simpleLineClass(of: c, throughTable: false)
            if fast != icu && !(fast == 0 && (c < 0x20 || c == 0x7F)) { mismatches.append(c) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).map { String($0, radix: 16) })")
    }

    @Test func handPickedTextsBreakAsICUBreaksThem() {
        let texts = [
            "", "a", "hello world", "  leading", "trailing  ", "e.g. this", "3.14 and 2,5", "(a) [b] {c}",
            "( spaced )", "'quoted' \"both\"", "' (x", "50% off", "%s (%s)", "re-install --force", "a/b/c 1/2",
            "http://example.com/a-b", "中文。中文、「引用」", "한국어 텍스트", "日本語のテキスト", "x（全角）y",
            "end!Next?ok", "«Привет», — сказал", "a\tb", "x—y", "1,000.50$", "+1", "ab\u{A0}cd",
        ]
        for text in texts { #expect(same(text), "\(text.debugDescription)") }
    }

    @Test func corpusCellsBreakAsICUBreaksThem() throws {
        let texts = try corpusTexts()
        #expect(texts.count >= 4000)
        for text in texts { #expect(same(text), "\(text.debugDescription)") }
    }

    @Test func generatedTextsBreakAsICUBreaksThem() {
        if let failure = checkProperty("line-break fast path", Self.texts, iterations: 20000, { same($0) }) {
            Issue.record("\(failure)")
        }
    }
}

/// LB19a's scan is skipped for text without the lead bytes of quotation punctuation: every
/// Pi and Pf scalar (Swift's Unicode tables, which the scan itself reads) starts with one.
@Suite struct QuotationShortcutTests {
    @Test func everyInitialAndFinalQuoteStartsWithC2OrE2() {
        var found = 0
        for value in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(value) else { continue }
            let category = s.properties.generalCategory
            guard category == .initialPunctuation || category == .finalPunctuation else { continue }
            found += 1
            var utf8 = Array(String(s).utf8)
            #expect(utf8.withUnsafeMutableBufferPointer { TextPreparer.mayContainQuotationPunctuation(UnsafeBufferPointer($0)) },
                    "U+\(String(value, radix: 16))")
        }
        #expect(found >= 20)
        var ascii = Array("\"quoted\" 'text' 中文".utf8)
        #expect(!ascii.withUnsafeMutableBufferPointer { TextPreparer.mayContainQuotationPunctuation(UnsafeBufferPointer($0)) })
    }

    /// The scan reads eight bytes per step (branch `cold5`): a 0xC2 or 0xE2 at every offset
    /// of texts of 0–40 bytes is found, and texts without one (ASCII, CJK, Cyrillic) are not,
    /// as a byte-by-byte scan says.
    @Test func theWordScanFindsTheLeadBytesAtEveryOffset() {
        func scan(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { TextPreparer.mayContainQuotationPunctuation($0) }
        }
        for length in 0...40 {
            for fill in [Array("abcdefgh ".utf8), Array("中文日本".utf8), Array("Привет".utf8)] {
                var text = (0..<length).map { fill[$0 % fill.count] }
                #expect(scan(text) == text.contains { $0 == 0xC2 || $0 == 0xE2 }, "length \(length)")
                for offset in 0..<length {
                    for lead: UInt8 in [0xC2, 0xE2] {
                        let kept = text[offset]
                        text[offset] = lead
                        #expect(scan(text), "lead \(lead) at \(offset) of \(length)")
                        text[offset] = kept
                    }
                }
            }
        }
    }
}

/// The grapheme fast path's tables (`plumb_code_point_breaks_around`) agree with ICU's
/// Grapheme_Cluster_Break for every code point they or their ranges answer.
@Suite struct GraphemeTableTests {
    @Test func tablesAndRangesAreICUsProperty() {
        var mismatches: [UInt32] = []
        for c in UInt32(0)..<0x30000 where !(0xD800..<0xE000).contains(c) {
            if BreakIterators.graphemeBreaksAround(c, throughTable: true) != BreakIterators.graphemeBreaksAround(c, throughTable: false) {
                mismatches.append(c)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).map { String($0, radix: 16) })")
    }
}
