import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// Runs of one-grapheme words stored as one word (`Word.breaksAfterEveryGrapheme`,
/// `TextPreparer.mergeOneGraphemeWords`) break exactly as the words did one by one: the same
/// lines, bit for bit, for every profile, wrap policy and line limit, through the line
/// breaker and through whole layouts (truncation and rich text included). Seeded;
/// `PLUMB_PROPERTY_SEED` replays a failure.
@Suite struct WordRunTests {
    /// Ideographs, kana (ー and small kana: no break before them; ケー kerns), Hangul, Latin
    /// words, spaces, CJK punctuation, tabs, a mandatory break, paragraph breaks, emoji.
    static let pieces: [String] = [
        "中", "文", "字", "国", "日", "本", "語", "的", "あ", "い", "カ", "ケ", "ー", "ッ", "ゃ", "の", "한", "국", "어",
        "가", "각", "word", "ab", "Hello", "x", "、", "。", "「", "」", "，", "！", " ", "  ", "(", ")", "😀", "1",
    ]
    static let rare: [String] = ["\t", "\n", "\u{0B}", "\u{A0}", "\u{3000}"]

    static let texts: Gen<String> = Gen.array(
        of: Gen.frequency([(30, Gen.element(of: pieces)), (1, Gen.element(of: rare))]), count: 0...60
    ).map { $0.joined() }

    static let widths: [Double] = [0.5, 14, 15, 30, 45, 47.5, 100, 150, 160.25, 320, .infinity]

    let merging = TextMeasurer(configuration: .init(), fonts: engine.fonts, mergesWordRuns: true)
    let oneByOne = TextMeasurer(configuration: .init(), fonts: engine.fonts, mergesWordRuns: false)
    /// Per test (a preparer is used by one thread at a time): merging, then not.
    let preparers = [true, false].map { merges in
        ["en", "en@lb=normal"].map {
            TextPreparer(iterators: BreakIterators(locale: $0)!, segmentCache: SegmentCache(budgetBytes: 1 << 22), mergesWordRuns: merges)
        }
    }
    /// Every profile's conventions, with the break rules its engine uses.
    static let conventions: [(LayoutConventions, Int)] = [(.standard, 0), (.pango, 0), (.chromium, 1)]
    static let cascades = [["Noto Sans", "Noto Sans CJK SC"], ["Noto Sans CJK JP", "Noto Sans"], ["DejaVu Sans"]].map {
        engine.fonts.cascade(for: FontDescriptor(families: $0, size: 15))
    }

    /// A line as its bits (`BrokenLine`'s `==` would take −0 for 0).
    static func bits(_ l: BrokenLine) -> [UInt64] {
        [UInt64(l.graphemeStart), UInt64(l.graphemeEnd), l.usedWidth.bitPattern, l.hangingWidth.bitPattern, l.fontMask,
         UInt64(l.paragraph), l.endsParagraph ? 1 : 0, l.endsInsideWord ? 1 : 0]
    }

    /// `text` in style runs (`runs`: byte ends and a size and cascade each), prepared with and
    /// without merging under `conventions`, broken at every width, policy and line limit.
    func sameLines(_ text: String, runs: [(end: Int, size: Double, cascade: Int)], _ conventions: LayoutConventions, rules: Int)
        -> Bool
    {
        let utf8 = Array(text.utf8)
        let prepared = preparers.map { set in
            utf8.withUnsafeBufferPointer { bytes in
                let preparationRuns = runs.map {
                    PreparationRun(byteEnd: $0.end, cascade: Self.cascades[$0.cascade], size: $0.size, letterSpacing: 0)
                }
                return set[rules].prepare(bytes, runs: preparationRuns, ellipsis: preparationRuns[0], conventions: conventions)
            }
        }
        guard prepared[0].words.count <= prepared[1].words.count else { return false }
        return Self.breakAlike(prepared, widths: Self.widths, limits: [1, 2, Int.max])
    }

    /// Whether `texts` break into the same lines, bit for bit, at every width, wrap policy and
    /// line limit given.
    static func breakAlike(_ texts: [PreparedText], widths: [Double], limits: [Int]) -> Bool {
        for width in widths {
            for policy in [WrapPolicy.words, .characters, .none] {
                for limit in limits {
                    let lines = texts.map {
                        LineBreaker(text: $0, maxWidth: width, policy: policy, tabInterval: 28, lineLimit: limit).lines().map(Self.bits)
                    }
                    if lines.contains(where: { $0 != lines[0] }) { return false }
                }
            }
        }
        return true
    }

    /// Byte ends of up to three style runs of `text`, at character boundaries.
    static func runs(_ text: String, cuts: [Int], sizes: [Double], cascades: [Int]) -> [(end: Int, size: Double, cascade: Int)] {
        let characters = Array(text)
        var ends = Set(cuts.map { characters.isEmpty ? 0 : $0 % (characters.count + 1) }).filter { $0 > 0 && $0 < characters.count }
            .map { String(characters[..<$0]).utf8.count }
        ends.sort()
        ends.append(text.utf8.count)
        return ends.enumerated().map { (i, end) in (end, sizes[i % sizes.count], cascades[i % cascades.count]) }
    }

    @Test func aCJKTextStoresFewerWordsAndBreaksTheSame() {
        let text = "中文字国日本語的あいカケー한국어 word 中文、字国。"
        let utf8 = Array(text.utf8)
        let counts = self.preparers.map { set in
            utf8.withUnsafeBufferPointer { set[0].prepare($0, cascade: Self.cascades[0], size: 15, letterSpacing: 0).words.count }
        }
        #expect(counts[0] < counts[1] - 10, "\(counts)")
        for (c, rules) in Self.conventions {
            #expect(self.sameLines(text, runs: [(utf8.count, 15, 0)], c, rules: rules))
        }
    }

    @Test func generatedTextsOfOneRunBreakAsTheirWordsOneByOne() {
        let cases = Gen.zip(Self.texts, Gen.element(of: [0, 1, 2]), Gen.element(of: [0, 1, 2]))
        if let failure = checkProperty("runs of one-grapheme words: one run", cases, iterations: 150, { text, profile, cascade in
            let (c, rules) = Self.conventions[profile]
            return self.sameLines(text, runs: [(text.utf8.count, 15, cascade)], c, rules: rules)
        }) {
            Issue.record("\(failure)")
        }
    }

    /// Several style runs: Blink's arithmetic measures a line item by item (`RunEnd`).
    @Test func generatedTextsOfSeveralRunsBreakAsTheirWordsOneByOne() {
        let cases = Gen.zip(
            Self.texts, Gen.array(of: Gen.int(in: 0...60), count: 1...3),
            Gen.array(of: Gen.element(of: [11.0, 15, 22.5]), count: 1...3), Gen.element(of: [0, 1, 2]))
        if let failure = checkProperty("runs of one-grapheme words: style runs", cases, iterations: 150, { text, cuts, sizes, profile in
            let (c, rules) = Self.conventions[profile]
            return self.sameLines(text, runs: Self.runs(text, cuts: cuts, sizes: sizes, cascades: [0, 1]), c, rules: rules)
        }) {
            Issue.record("\(failure)")
        }
    }

    /// A hand-built text of words of 1–3 graphemes (advance 10.3, or 25.7 where `wide`) with the given cut
    /// adjustments (chromium: the fonts at hand kern no pair inside a run of ideographs, so
    /// generated text does not reach this), its one-grapheme words merged into runs or not.
    static func handBuilt(
        wordLengths: [Int], cuts: [Float], wide: [Bool], merged: Bool, lineFit: LayoutConventions.LineFitArithmetic
    ) -> PreparedText {
        let n = wordLengths.reduce(0, +)
        let fonts = (0..<n).map { UInt8(wide[$0 % wide.count] ? 1 : 0) }
        let advances = fonts.map { $0 == 1 ? 25.7 : 10.3 }
        var words: [PreparedText.Word] = []
        var end = 0.0, g = 0
        var previousIsOne = false
        for length in wordLengths {
            var width = 0.0
            for k in g..<(g + length) { width += advances[k] }
            end += width
            g += length
            let mask = (g - length..<g).reduce(UInt64(0)) { $0 | PreparedText.fontBit(fonts[$1]) }
            let w = PreparedText.Word(graphemeEnd: Int32(g), hangingWidth: 0, fontMask: mask, hasTab: false, mandatoryBreakAfter: false, end: end)
            // A run's graphemes share a local font (`TextPreparer.mergeOneGraphemeWords`).
            if merged && length == 1 && previousIsOne && fonts[g - 1] == fonts[g - 2] {
                words[words.count - 1] = w
                words[words.count - 1].breaksAfterEveryGrapheme = true
            } else {
                words.append(w)
            }
            previousIsOne = length == 1
        }
        var next = Int32(words.count)
        for k in words.indices.reversed() {
            words[k].nextMaskChange = next
            if k > 0 && words[k - 1].fontMask != words[k].fontMask { next = Int32(k) }
        }
        let font = engine.fonts.cascade(for: FontDescriptor()).primary
        let use = PreparedText.FontUse(font: font, ascender: 8, descender: -2, lineGap: 1)
        return PreparedText(
            fonts: [use, use],
            graphemeStarts: (0..<n).map { Int32($0) }, graphemeEnds: (0..<n).map { Int32($0 + 1) },
            advances: advances, cutAdjustments: (0..<n).map { cuts[$0 % cuts.count] },
            flags: Array(repeating: [], count: n), graphemeFonts: fonts, words: words,
            paragraphs: [.init(byteStart: 0, byteEnd: Int32(n), graphemeStart: 0, graphemeEnd: Int32(n), wordStart: 0,
                               wordEnd: Int32(words.count), isSimple: true)],
            ellipsisFont: 0, ellipsisWidth: 10, utf8Count: n, missingGlyphClusters: 0, lineFit: lineFit)
    }

    @Test func runsWithCutAdjustmentsBreakAsTheirWordsOneByOne() {
        let cases = Gen.zip(
            Gen.array(of: Gen.frequency([(3, Gen.element(of: [1])), (1, Gen.element(of: [2, 3]))]), count: 1...30),
            Gen.array(of: Gen.element(of: [Float(0), 0, 0.75, -1.5, 2.25, 4.5]), count: 1...7),
            Gen.array(of: Gen.frequency([(4, Gen.element(of: [false])), (1, Gen.element(of: [true]))]), count: 1...5),
            Gen.element(of: [LayoutConventions.LineFitArithmetic.layoutUnits(unit: 1.0 / 64), .exact(tolerance: 1e-6)]))
        if let failure = checkProperty("runs of one-grapheme words: cut adjustments", cases, iterations: 200, { lengths, cuts, wide, fit in
            let texts = [true, false].map { Self.handBuilt(wordLengths: lengths, cuts: cuts, wide: wide, merged: $0, lineFit: fit) }
            return Self.breakAlike(texts, widths: [5.0, 10, 19.99, 20, 24, 29.5, 31, 45, 60.25, 100], limits: [1, 3, Int.max])
        }) {
            Issue.record("\(failure)")
        }
    }

    /// Whole layouts through the public API (plain and attributed text, every profile, wrap
    /// mode and line count), as JSON.
    @Test func layoutsAreTheSameThroughTheEngine() throws {
        let modes: [LineBreakMode] = [.wordWrapping, .charWrapping, .clipping, .truncatingTail, .truncatingMiddle]
        let cases = Gen.zip(
            Gen.zip(Self.texts, Gen.element(of: [Compatibility.standard, .pango, .chromium]), Gen.element(of: modes)),
            Gen.zip(Gen.element(of: [0, 1, 2]), Gen.element(of: [31.0, 47.5, 150, 320]), Gen.array(of: Gen.int(in: 0...60), count: 0...2)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let failure = checkProperty("runs of one-grapheme words: layouts", cases, iterations: 120, { first, second in
            let (text, profile, mode) = first
            let (maxLines, width, cuts) = second
            var style = profiled(profile)
            style.lineBreakMode = mode
            style.maxLines = maxLines
            let plain = [self.merging, self.oneByOne].map { try? encoder.encode($0.layout(text, style: style, width: width)) }
            var rich = AttributedText()
            let utf8 = Array(text.utf8)
            var from = 0
            for (i, end) in Self.runs(text, cuts: cuts, sizes: [15], cascades: [0]).map(\.end).enumerated() {
                rich.append(String(decoding: utf8[from..<end], as: UTF8.self), TextAttributes(size: i % 2 == 0 ? nil : 11))
                from = end
            }
            let attributed = [self.merging, self.oneByOne].map { try? encoder.encode($0.layout(rich, style: style, width: width)) }
            return plain[0] != nil && plain[0] == plain[1] && attributed[0] != nil && attributed[0] == attributed[1]
        }) {
            Issue.record("\(failure)")
        }
    }
}
