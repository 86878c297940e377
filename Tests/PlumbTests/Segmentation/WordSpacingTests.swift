@testable import Plumb
import Testing

/// CSS `word-spacing` (`TextStyle.wordSpacing`, issue 27 item 5): added to each space and
/// no-break space but one starting the text, in every read of an advance. The numbers are
/// worked from the same text without word spacing.
@Suite struct WordSpacingTests {
    static func width(_ text: String, spacing: Double, compatibility: Compatibility = .standard) -> Double {
        var s = style15()
        s.wordSpacing = spacing
        s.compatibility = compatibility
        return engine.layout(text, style: s, width: .infinity).lines[0].usedWidth
    }

    @Test func eachSeparatorButALeadingOneWidens() {
        for profile in Compatibility.allCases {
            // Two spaces and a no-break space: three times the spacing.
            let text = "a b\u{00A0}c d"
            #expect(abs(Self.width(text, spacing: 5, compatibility: profile) - Self.width(text, spacing: 0, compatibility: profile) - 15) < 1e-9,
                    "\(profile)")
            // A negative spacing narrows.
            #expect(abs(Self.width(text, spacing: 0, compatibility: profile) - Self.width(text, spacing: -1, compatibility: profile) - 3) < 1e-9)
        }
        // The text's first character is no word separator for CSS (Blink adds none there);
        // `pre-wrap` keeps it.
        var s = style15()
        s.whiteSpace = .preWrap
        let plain = engine.layout(" ab", style: s, width: .infinity).lines[0].usedWidth
        s.wordSpacing = 4
        #expect(engine.layout(" ab", style: s, width: .infinity).lines[0].usedWidth == plain)
        // Letters and ideographs do not widen.
        #expect(Self.width("abc中文", spacing: 9) == Self.width("abc中文", spacing: 0))
    }

    /// Breaking sees the wider spaces: "aaa aaa" fits a width between its natural width and
    /// that width plus the spacing only without it.
    @Test func linesBreakWithTheWiderSpaces() {
        let natural = Self.width("aaa aaa", spacing: 0)
        var s = style15()
        let box = natural + 3
        #expect(engine.measure("aaa aaa", style: s, width: box).lineCount == 1)
        s.wordSpacing = 6
        #expect(engine.measure("aaa aaa", style: s, width: box).lineCount == 2)
    }

    /// The caret map and the drawing read the same advances: the rect of the character after
    /// a widened space moves by the spacing; rich text gets it too.
    @Test func geometryAndRichTextFollow() throws {
        var s = style15()
        let before = try #require(engine.layout("ab cd", style: s, width: .infinity).rects(forCharacters: 3..<4).first)
        s.wordSpacing = 7
        let after = try #require(engine.layout("ab cd", style: s, width: .infinity).rects(forCharacters: 3..<4).first)
        #expect(abs(after.x - before.x - 7) < 1e-9)
        var bold = TextAttributes()
        bold.weight = 700
        var runs = AttributedText("ab ", bold)
        runs.append("cd")
        let rich0 = engine.layout(runs, style: style15(), width: .infinity).lines[0].usedWidth
        let rich7 = engine.layout(runs, style: s, width: .infinity).lines[0].usedWidth
        #expect(abs(rich7 - rich0 - 7) < 1e-9)
    }

    @Test func aNonFiniteSpacingIsAWarningAndZero() {
        var s = style15()
        s.wordSpacing = .nan
        let m = engine.measure("a b", style: s, width: 200)
        #expect(m.warnings.contains(.invalidSpacing(field: "wordSpacing", value: .nan)) || m.warnings.contains { "\($0)".contains("wordSpacing") })
        #expect(m.size == engine.measure("a b", style: style15(), width: 200).size)
    }
}
