import Foundation
@testable import Plumb
import Testing

/// Hyphenation (issue 27, item 3): the breaker's rules worked by hand over the fake monospace
/// text (10 pt per character), then soft hyphens, dictionaries, profiles, drawing, bad input
/// and keys with real fonts and Debian's dictionaries.
@Suite struct HyphenationTests {
    /// The lines of monospace `text` at `width` with hyphenation `points`: each line's text,
    /// used width and hyphen.
    func lines(
        _ text: String, width: Double, _ points: [(after: Int, width: Double, kind: HyphenPoints.Kind)],
        factor: Double = 1
    ) -> [(text: String, used: Double, hyphen: Double)] {
        let p = monospaceText(text, hyphens: points)
        var breaker = LineBreaker(text: p, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: .max)
        breaker.hyphenationFactor = factor
        let broken = breaker.lines()
        return zip(broken, lineStrings(text, p, broken)).map { ($1, $0.usedWidth, $0.hyphenWidth) }
    }

    // MARK: The breaker's rules, by hand

    @Test func aLineEndingAtAPointShowsItsHyphenWhichMustFit() {
        // "aaaa bbbb" is 90 wide, with its 6-point hyphen 96.
        let point = [(after: 8, width: 6.0, kind: HyphenPoints.Kind.softHyphen)]
        let fits = lines("aaaa bbbbcccc", width: 96, point)
        #expect(fits.map(\.text) == ["aaaa bbbb", "cccc"])
        #expect(fits[0].used == 96 && fits[0].hyphen == 6)
        #expect(fits[1].hyphen == 0)
        // One point narrower the hyphen does not fit: the line ends at the space before.
        let short = lines("aaaa bbbbcccc", width: 95, point)
        #expect(short.map(\.text) == ["aaaa ", "bbbbcccc"])
        #expect(short.map(\.hyphen) == [0, 0])
    }

    @Test func aPieceThatFitsOnlyWithoutItsHyphenStaysWhenWhatFollowsFits() {
        // A 15-point hyphen after "aaaaa" (50 + 15 > 62), but "aaaaab " (60) fits: no hyphen.
        let point = [(after: 4, width: 15.0, kind: HyphenPoints.Kind.softHyphen)]
        let l = lines("aaaaab c", width: 62, point)
        #expect(l.map(\.text) == ["aaaaab ", "c"])
        #expect(l[0].used == 60 && l[0].hyphen == 0)
    }

    @Test func theFactorKeepsDictionaryPointsForLinesFilledTooLittle() {
        // Broken at the space, the first line fills 40 of 100 (0.4); at the dictionary point
        // after "bbbb" it holds "aaaa bbbb" and a 5-point hyphen (95).
        let point = [(after: 8, width: 5.0, kind: HyphenPoints.Kind.dictionary)]
        let text = "aaaa bbbbbbbb"
        #expect(lines(text, width: 100, point, factor: 1).map(\.text) == ["aaaa bbbb", "bbbb"])
        #expect(lines(text, width: 100, point, factor: 0.5).map(\.text) == ["aaaa bbbb", "bbbb"])
        #expect(lines(text, width: 100, point, factor: 0.3).map(\.text) == ["aaaa ", "bbbbbbbb"])
        // A soft hyphen is the author's: the factor does not limit it.
        let soft = [(after: 8, width: 5.0, kind: HyphenPoints.Kind.softHyphen)]
        #expect(lines(text, width: 100, soft, factor: 0.3).map(\.text) == ["aaaa bbbb", "bbbb"])
    }

    @Test func aCutPointShowsAHyphenOnlyWhereAnOverlongWordIsCut() {
        // Pango: after every letter. "abcde" + 5 fits 55; "abcdef" + 5 does not.
        let points = (0..<9).map { (after: $0, width: 5.0, kind: HyphenPoints.Kind.cut) }
        let l = lines("abcdefghij", width: 55, points)
        #expect(l.map(\.text) == ["abcde", "fghij"])
        #expect(l[0].used == 55 && l[0].hyphen == 5)
        #expect(l[1].used == 50 && l[1].hyphen == 0)
        // A cut point is no break opportunity: a word that fits is not cut.
        #expect(lines("abcdefghij xy", width: 100, points).map(\.text) == ["abcdefghij ", "xy"])
    }

    // MARK: Real fonts

    func dejaVu(_ profile: Compatibility = .standard, _ mode: Hyphenation? = nil) -> TextStyle {
        var s = profiled(profile, ["DejaVu Sans"], size: 16)
        s.hyphenation = mode
        return s
    }

    /// The width of `text` on one line.
    func width(_ text: String, _ style: TextStyle) -> Double {
        engine.layout(text, style: style, width: 10_000).lines[0].usedWidth
    }

    @Test func aSoftHyphenBreaksWithAVisibleHyphenInEveryProfileThatShowsOne() {
        let text = "extra\u{AD}ordinary"
        for profile in [Compatibility.standard, .chromium] {
            let s = dejaVu(profile)
            let l = engine.layout(text, style: s, width: 70)
            #expect(lineTexts(l) == ["extra\u{AD}", "ordinary"], "\(profile)")
            // The hyphen is DejaVu Sans's U+2010 at 16 pt: 0.361 em (hmtx 739 of 2048 units).
            let hyphen = 739.0 / 2048 * 16
            let expected = profile == .chromium ? (hyphen * 64).rounded(.up) / 64 : hyphen
            #expect(abs(l.lines[0].hyphenWidth - expected) < 1e-9, "\(profile)")
            #expect(abs(l.lines[0].usedWidth - (width("extra", s) + expected)) < 1e-3, "\(profile)")
            #expect(l.lines[1].hyphenWidth == 0)
        }
        // Pango's default (insert-hyphens off): the same break, no hyphen.
        let pango = engine.layout(text, style: dejaVu(.pango), width: 70)
        #expect(lineTexts(pango) == ["extra\u{AD}", "ordinary"])
        #expect(pango.lines[0].hyphenWidth == 0)
        #expect(abs(pango.lines[0].usedWidth - width("extra", dejaVu(.pango))) < 1e-3)
        // Pango with insert-hyphens on shows it.
        #expect(engine.layout(text, style: dejaVu(.pango, .manual), width: 70).lines[0].hyphenWidth > 5)
    }

    @Test func hyphensNoneRemovesTheSoftHyphensBreakUnderCSSAndTextKit() {
        let text = "extra\u{AD}ordinary words"
        for profile in [Compatibility.standard, .chromium] {
            let l = engine.layout(text, style: dejaVu(profile, Hyphenation.none), width: 130)
            #expect(lineTexts(l) == ["extra\u{AD}ordinary ", "words"], "\(profile)")
        }
        // Pango keeps the break (insert-hyphens only hides the hyphen).
        let pango = engine.layout(text, style: dejaVu(.pango, Hyphenation.none), width: 70)
        #expect(lineTexts(pango).first == "extra\u{AD}")
    }

    @Test func pangoShowsAHyphenWhereItCutsAnOverlongWord() {
        // "hyphenation" is wider than 70 pt: cut inside, with a hyphen under insert-hyphens.
        let off = engine.layout("hyphenation", style: dejaVu(.pango), width: 70)
        let on = engine.layout("hyphenation", style: dejaVu(.pango, .manual), width: 70)
        #expect(off.lines[0].hyphenWidth == 0)
        #expect(on.lines[0].hyphenWidth > 5)
        #expect(on.lines[0].usedWidth <= 70 + 1e-6)
        #expect(lineTexts(on).joined() == "hyphenation")
        // No hyphen after Han (Pango's break_inserts_hyphen).
        let han = engine.layout("汉字汉字汉字汉字", style: profiled(.pango, ["Noto Sans CJK SC"], size: 16), width: 40)
        #expect(han.lines.allSatisfy { $0.hyphenWidth == 0 })
    }

    @Test func dictionariesGiveTheirPointsInEachCharset() throws {
        // Debian's hyphen-* patterns: UTF-8 (en, fr, es), ISO 8859-1 (de), KOI8-R (ru).
        func hyphenated(_ word: String, _ language: String, left: Int = 0, right: Int = 0) throws -> String {
            let dictionary = try #require(HyphenationDictionaries.dictionary(for: language), "\(language)")
            let scalars = word.unicodeScalars.map(\.value)
            var points = [UInt8](repeating: 0, count: scalars.count)
            _ = scalars.withUnsafeBufferPointer { w in
                points.withUnsafeMutableBufferPointer { dictionary.points(of: w, leftMinimum: left, rightMinimum: right, into: $0) }
            }
            var out = ""
            for (s, p) in zip(word.unicodeScalars, points) { out.unicodeScalars.append(s); if p != 0 { out += "-" } }
            return out
        }
        #expect(try hyphenated("hyphenation", "en-US") == "hy-phen-ation")
        #expect(try hyphenated("extraordinary", "en") == "ex-tra-or-di-nary")
        #expect(try hyphenated("silbentrennung", "de") == "sil-ben-tren-nung")
        #expect(try hyphenated("größenverhältnisse", "de-DE") == "grö-ßen-ver-hält-nis-se")
        #expect(try hyphenated("переносы", "ru") == "пе-ре-но-сы")
        #expect(try hyphenated("anticonstitutionnellement", "fr") == "an-ti-cons-ti-tu-tion-nel-le-ment")
        // The minimums: 3 before and after.
        #expect(try hyphenated("extraordinary", "en", left: 3, right: 3) == "extra-or-di-nary")
        #expect(HyphenationDictionaries.dictionary(for: "xx-YY") == nil)
        #expect(HyphenationDictionaries.candidates(for: "es").first?.hasSuffix("hyph_es_ES.dic") == true)
    }

    @Test func autoHyphenatesFromTheLanguagesDictionary() {
        var s = dejaVu(.standard, .auto)
        s.language = "en-US"
        let l = engine.layout("hyphenation", style: s, width: 70)
        #expect(lineTexts(l) == ["hyphen", "ation"])
        #expect(l.lines[0].hyphenWidth > 5)
        #expect(l.measurement.warnings.isEmpty)
        // German in the chromium profile.
        var de = dejaVu(.chromium, .auto)
        de.language = "de"
        #expect(lineTexts(engine.layout("Silbentrennung", style: de, width: 80)) == ["Silben", "trennung"])
        // Blink hyphenates no capitalized English word; TextKit does.
        var en = dejaVu(.chromium, .auto)
        en.language = "en"
        #expect(engine.layout("Hyphenation", style: en, width: 70).lines.allSatisfy { $0.hyphenWidth == 0 })
        s.language = "en"
        #expect(lineTexts(engine.layout("Hyphenation", style: s, width: 70)) == ["Hyphen", "ation"])
    }

    @Test func eachRunHyphenatesInItsOwnLanguage() throws {
        // The style's Russian patterns cannot hyphenate Latin words; the runs' own can.
        var s = dejaVu(.standard, .auto)
        s.language = "ru"
        var text = AttributedText("Silbentrennung ", TextAttributes(language: "de"))
        text.append("hyphenation", TextAttributes(language: "en-US"))
        let l = engine.layout(text, style: s, width: 80)
        #expect(lineTexts(l) == ["Silben", "trennung ", "hyphen", "ation"])
        #expect(l.lines[0].hyphenWidth > 0 && l.lines[2].hyphenWidth > 0)
        // Without the runs' languages both words are cut where they overflow, no hyphen.
        let plain = engine.layout("Silbentrennung hyphenation", style: s, width: 80)
        #expect(plain.lines.allSatisfy { $0.hyphenWidth == 0 })
        #expect(lineTexts(plain) != lineTexts(l))
        // A run language without a dictionary says so (once), and hyphenates nothing.
        var klingon = AttributedText("Silbentrennung ", TextAttributes(language: "tlh"))
        klingon.append("Silbentrennung", TextAttributes(language: "tlh"))
        let warned = engine.measure(klingon, style: s, width: 80)
        #expect(warned.warnings.filter { $0.description.contains("no hyphenation dictionary for language \"tlh\"") }.count == 1)
        // The wire form.
        let data = try JSONEncoder().encode(text)
        #expect(try JSONDecoder().decode(AttributedText.self, from: data) == text)
        #expect(String(decoding: data, as: UTF8.self).contains(#""language":"de""#))
    }

    @Test func theDrawnHyphenEndsTheLine() throws {
        let s = dejaVu()
        let text = "extra\u{AD}ordinary"
        let l = engine.layout(text, style: s, width: 70)
        let glyphs = engine.drawing(text, style: s, width: 70).lines[0]
        let last = try #require(glyphs.last)
        // The last glyph is the hyphen, where the line's used width less the hyphen ends.
        #expect(abs(last.x - (l.lines[0].usedWidth - l.lines[0].hyphenWidth)) < 1e-6)
        let hyphenOnly = engine.drawing("\u{2010}", style: s, width: 100).lines[0]
        #expect(last.glyph == hyphenOnly.first?.glyph)
        // Blink's hyphen of a soft hyphen before a space sits right after the word, not after
        // the hanging space.
        let css = dejaVu(.chromium)
        let spaced = "abcd\u{AD} efgh"
        let cssLayout = engine.layout(spaced, style: css, width: 60)
        #expect(cssLayout.lines[0].hyphenWidth > 0 && cssLayout.lines[0].hangingWidth > 0)
        let cssLast = try #require(engine.drawing(spaced, style: css, width: 60).lines[0].last)
        #expect(abs(cssLast.x - (cssLayout.lines[0].usedWidth - cssLayout.lines[0].hyphenWidth)) < 1e-6)
    }

    @Test func badHyphenationInputWarnsAndFallsBack() {
        var s = dejaVu(.standard, .auto)
        s.language = "tlh"
        var m = engine.measure("hyphenation", style: s, width: 70)
        #expect(m.warnings.contains { $0.description.contains("no hyphenation dictionary") })
        s.language = nil
        m = engine.measure("hyphenation", style: s, width: 70)
        #expect(m.warnings.contains { $0.description.contains("auto needs a language") })
        var pango = dejaVu(.pango, .auto)
        pango.language = "en"
        #expect(engine.measure("a", style: pango, width: 70).warnings.contains { $0.description.contains("no hyphenation dictionaries") })
        var factor = dejaVu()
        for bad in [Double.nan, -1, 7, .infinity] {
            factor.hyphenationFactor = bad
            let r = engine.measure("extra\u{AD}ordinary", style: factor, width: 70)
            #expect(r.warnings.contains { $0.description.contains("hyphenationFactor") }, "\(bad)")
            #expect(r.size.height.isFinite && r.size.height > 0)
        }
    }

    @Test func aFactorAboveZeroTurnsAutoOnAndEveryModeIsInTheKey() throws {
        let measurer = TextMeasurer(fonts: engine.fonts)
        var s = dejaVu()
        s.language = "en-US"
        let text = "hyphenation hyphenation"
        let manual = measurer.layout(text, style: s, width: 70)
        s.hyphenationFactor = 1
        let factor = measurer.layout(text, style: s, width: 70)
        s.hyphenationFactor = 0
        s.hyphenation = Hyphenation.none
        let none = measurer.layout(text, style: s, width: 70)
        #expect(lineTexts(manual) != lineTexts(factor))
        #expect(lineTexts(factor).first == "hyphen")
        #expect(none.lines.allSatisfy { $0.hyphenWidth == 0 })
        // The wire names.
        let decoded = try JSONDecoder().decode(
            TextStyle.self, from: Data(#"{"language":"de","hyphenation":"auto","hyphenationFactor":0.5}"#.utf8))
        #expect(decoded.language == "de" && decoded.hyphenation == .auto && decoded.hyphenationFactor == 0.5)
        #expect(try JSONDecoder().decode(TextStyle.self, from: JSONEncoder().encode(decoded)) == decoded)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TextStyle.self, from: Data(#"{"hyphenation":"sometimes"}"#.utf8))
        }
    }
}

/// Each engine's soft-hyphen habits, as its oracle measured them (`Tests/Conformance/
/// hyphens_pango.py`, `hyphens_chromium.py`; the numbers are Pango's and Chromium's).
@Suite struct SoftHyphenHabitTests {
    func starts(_ text: String, _ profile: Compatibility, _ families: [String], _ size: Double, _ width: Double,
                _ mode: Hyphenation? = nil) -> [Int] {
        var s = profiled(profile, families, size: size)
        s.hyphenation = mode
        return engine.layout(text, style: s, width: width).lines.map(\.scalarRange.lowerBound)
    }

    @Test func aHyphenThatDoesNotFitCutsTheWordInstead() {
        // Pango cuts "cha‐" (47.54) rather than let "chan‐" (62.38) overflow 60; Blink cuts
        // without a hyphen, past the soft hyphen ("tim\u{AD}e").
        #expect(starts("chan\u{AD}ged", .pango, ["Noto Sans", "Noto Sans CJK SC"], 24, 60, .manual) == [0, 3])
        #expect(starts("tim\u{AD}eout", .chromium, ["Noto Sans CJK SC"], 16, 40) == [0, 5])
    }

    @Test func pangoShowsNoHyphenAfterHanOrAtAWordBoundary() {
        // 阶段 + U+00AD: no hyphen (Noto Sans CJK SC's U+2010 is a full em), so 更 fits too.
        #expect(starts("阶段\u{AD}更新", .pango, ["Noto Sans CJK SC"], 15.25, 45, .manual) == [0, 3])
        var s = profiled(.pango, ["DejaVu Sans"], size: 24)
        s.hyphenation = .manual
        let l = engine.layout("(\u{AD}effect", style: s, width: 40)
        #expect(l.lines[0].hyphenWidth == 0)
    }

    @Test func kerningHoldsAcrossASoftHyphenInsideTheLine() {
        // Pango: "A\u{AD}V" is as wide as "AV" (26.084 in DejaVu Sans 20).
        let s = profiled(.pango, ["DejaVu Sans"], size: 20)
        let shy = engine.layout("A\u{AD}V", style: s, width: 500).lines[0].usedWidth
        let plain = engine.layout("AV", style: s, width: 500).lines[0].usedWidth
        #expect(abs(shy - plain) < 1e-9)
    }

    @Test func blinksSoftHyphenHabits() {
        // hyphens: none still shows a hyphen where a cut follows U+00AD, and a cut never falls
        // right before one: "inv" | "a\u{AD}lid".
        #expect(starts("inva\u{AD}lid", .chromium, ["DejaVu Sans", "Noto Sans CJK SC"], 24, 55, Hyphenation.none) == [0, 3])
        // Its cut goes on past a soft hyphen whose hyphen does not fit ("tim\u{AD}e", 16 px of
        // Noto Sans CJK SC's U+2010 would not); Pango's stops at the first.
        #expect(starts("tim\u{AD}eout", .chromium, ["Noto Sans CJK SC"], 16, 40, Hyphenation.none) == [0, 5])
        // The hyphen after Han comes from the style's first font (Noto Sans, 5.48 px wide).
        #expect(starts("等待標\u{AD}頭", .chromium, ["Noto Sans", "Noto Sans CJK SC"], 17, 60) == [0, 4])
        // A soft hyphen before a space needs room for its hyphen: "d‐" does not stay.
        #expect(starts("abcd\u{AD} efgh", .chromium, ["DejaVu Sans"], 15, 40) == [0, 3, 6])
    }
}
