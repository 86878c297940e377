import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// ICU line breaking (UAX #14 with CJK rules) as the layout sees it.
@Suite struct SegmentationTests {
    @Test func paragraphsSplitAtEveryHardBreak() {
        let text = Array("a\nb\r\nc\rd\u{85}e\u{2028}f\u{2029}g".utf8)
        let ranges = text.withUnsafeBufferPointer { Paragraphs.ranges(in: $0) }
        #expect(ranges.count == 7)
        #expect(ranges.allSatisfy { $0.count == 1 })
    }

    @Test func chineseBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
        // Each Han character is 15 pt; 。may not start a line (kinsoku), so it stays with 文.
        let l = engine.layout("中文。中", style: style15(), width: 30)
        #expect(lineTexts(l) == ["中", "文。", "中"])
        let plain = engine.layout("中文中文", style: style15(), width: 30)
        #expect(lineTexts(plain) == ["中文", "中文"])
    }

    @Test func noBreakAtNoBreakSpaceAndBreakAtZeroWidthSpace() {
        // Width fits "aaa" but not "aaa bbb"; NBSP glues the words, ZWSP lets them part.
        let w = max(engine.measure("aaa", style: style15(), width: 1000).width,
                    engine.measure("bbb", style: style15(), width: 1000).width) + 2
        #expect(lineTexts(engine.layout("aaa bbb", style: style15(), width: w)) == ["aaa ", "bbb"])
        // NBSP glues: the only way to fit is a forced break inside the "word".
        #expect(lineTexts(engine.layout("aaa\u{00A0}bbb", style: style15(), width: w)) == ["aaa\u{00A0}", "bbb"])
        #expect(engine.layout("aaa\u{00A0}bbb", style: style15(), width: w * 3).lineCount == 1)
        #expect(lineTexts(engine.layout("aaa\u{200B}bbb", style: style15(), width: w)) == ["aaa\u{200B}", "bbb"])
    }

    @Test func urlsAndLongWordsBreakAtClustersOnlyWhenAlone() {
        let l = engine.layout("see https://example.com/a/very/long/path/that/does/not/fit", style: style15(), width: 120)
        // UAX #14 allows a break after "//", so "see https://" may share a line.
        #expect(lineTexts(l).first?.hasPrefix("see ") == true)
        #expect(lineTexts(l).joined() == "see https://example.com/a/very/long/path/that/does/not/fit")
        #expect(l.lines.allSatisfy { $0.usedWidth <= 120 + 1e-6 })
    }

    @Test func emojiSequencesAreNeverSplit() {
        let family = "👨‍👩‍👧‍👦"
        let l = engine.layout(String(repeating: family, count: 6), style: style15(), width: 40)
        for i in 0..<l.lineCount {
            #expect(l.text(ofLine: i).allSatisfy { $0 == Character(family) })
        }
    }
}

/// Grapheme clusters without ICU's iterator for text of code points UAX #29 breaks around
/// (`plumb_breaker_grapheme_breaks`' fast path) must be ICU's clusters exactly.
@Suite struct GraphemeFastPathTests {
    let iterators = BreakIterators(locale: "en")!

    func same(_ text: String) -> Bool {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(buffer)
            let fast = Array(iterators.graphemeBreaks(bytes))
            return fast == Array(iterators.graphemeBreaksThroughICU(bytes))
        }
    }

    @Test func handPickedTextsSplitAsICUSplitsThem() {
        let texts = [
            "a", "abc def", "a\r\nb", "\r\n", "\r\r\n\n", "a\tb\u{7}c", "中文。中", "カタカナー", "한국어 텍스트",
            "가\u{11A8}", "\u{1100}\u{1161}", "e\u{301}", "a\u{200D}b", "👍🏽", "🇫🇷🇩🇪", "1\u{FE0F}\u{20E3}",
            "ก้า", "नमस्ते", "مرحبا بالعالم", "שָׁלוֹם", "Ελληνικά", "Привет", "\u{600}1", "x\u{E0100}",
            "\u{FFFD}\u{301}", "\u{1F469}\u{200D}\u{1F4BB}",
        ]
        for text in texts { #expect(same(text), "\(text.debugDescription)") }
    }

    /// The windowed walk a long paragraph takes (`graphemeBreaks(_:from:limit:)`, fast path
    /// included) gives ICU's clusters too, also when a window would end between CR and LF.
    @Test func windowsSplitAsICUSplitsThem() {
        let texts = ["ab\r\ncd\r\n\r\nef", "a\r\n", "\r\n\r\n\r", "中文\r\n。中e\u{301}x", "한국어\r\n텍스트", "👍🏽a\r\nb"]
        for text in texts {
            for limit in [1, 2, 3, 5, 64] {
                var utf8 = Array(text.utf8)
                let (walked, reference) = utf8.withUnsafeMutableBufferPointer { buffer -> ([Int32], [Int32]) in
                    let bytes = UnsafeBufferPointer(buffer)
                    var out: [Int32] = []
                    var from: Int32 = 0
                    while Int(from) < bytes.count {
                        let window = Array(iterators.graphemeBreaks(bytes, from: from, limit: limit))
                        out += window
                        from = window.last ?? Int32(bytes.count)
                    }
                    return (out, Array(iterators.graphemeBreaksThroughICU(bytes)))
                }
                #expect(walked == reference, "\(text.debugDescription) in windows of \(limit)")
            }
        }
    }

    @Test func corpusCellsSplitAsICUSplitsThem() throws {
        let texts = try corpusTexts()
        #expect(texts.count >= 4000)
        for text in texts { #expect(same(text), "\(text.debugDescription)") }
    }

    @Test func generatedTextsSplitAsICUSplitsThem() {
        if let failure = checkProperty("grapheme fast path", Gen<String>.text(maxClusters: 40), iterations: 400, { same($0) }) {
            Issue.record("\(failure)")
        }
    }
}

/// Script tags written as literals on the hot path are the tags `Font.tag` makes.
@Suite struct ScriptTagTests {
    @Test func literalTagsAreTheirNames() {
        let named: [(ScriptTag, StaticString)] = [
            (.common, "Zyyy"), (.inherited, "Zinh"), (.unknown, "Zzzz"), (.latin, "Latn"), (.cyrillic, "Cyrl"),
            (.greek, "Grek"), (.armenian, "Armn"), (.georgian, "Geor"), (.han, "Hani"), (.hiragana, "Hira"),
            (.katakana, "Kana"), (.hangul, "Hang"), (.bopomofo, "Bopo"), (.thai, "Thai"), (.hebrew, "Hebr"),
            (.arabic, "Arab"),
        ]
        for (tag, name) in named { #expect(tag.rawValue == Font.tag(name), "\(name)") }
        #expect(ScriptTag.neutral.rawValue == 0)
    }
}
