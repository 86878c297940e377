@testable import Plumb
import Testing

/// Greedy breaking rules over a fake monospace measurer (10 pt per character).
@Suite struct LineBreakerTests {
    func lines(_ text: String, width: Double, policy: WrapPolicy = .words, limit: Int = .max) -> [String] {
        let p = monospaceText(text)
        let brokenLines = LineBreaker(text: p, maxWidth: width, policy: policy, tabInterval: 28, lineLimit: limit).lines()
        return lineStrings(text, p, brokenLines)
    }

    @Test func wrapsGreedilyAtSpaces() {
        #expect(lines("aaa bbb ccc", width: 70) == ["aaa bbb ", "ccc"])
        #expect(lines("aaa bbb ccc", width: 69.99) == ["aaa ", "bbb ", "ccc"])
        #expect(lines("aaa bbb ccc", width: 110) == ["aaa bbb ccc"])
    }

    @Test func trailingSpacesHangAndNeverWrap() {
        // "aaa" fits in 30 exactly; the spaces after it hang past the edge.
        #expect(lines("aaa     bbb", width: 30) == ["aaa     ", "bbb"])
        let p = monospaceText("aaa   ")
        let box = LineBreaker(text: p, maxWidth: 30, policy: .words, tabInterval: 28, lineLimit: .max).lines()
        #expect(box.count == 1)
        #expect(box[0].usedWidth == 30)
        #expect(box[0].hangingWidth == 30)
    }

    @Test func overlongWordMovesToItsOwnLineThenBreaksAtClusters() {
        #expect(lines("ab cdefghijkl", width: 50) == ["ab ", "cdefg", "hijkl"])
        #expect(lines("abcdefghijkl mn", width: 50) == ["abcde", "fghij", "kl mn"])
    }

    @Test func everyLineHoldsAtLeastOneCluster() {
        #expect(lines("abc", width: 1) == ["a", "b", "c"])
    }

    @Test func charWrappingBreaksAnywhere() {
        #expect(lines("aaa bbb ccc", width: 50, policy: .characters) == ["aaa b", "bb cc", "c"])
    }

    @Test func noWrapPolicyKeepsParagraphsWhole() {
        #expect(lines("aaa bbb\nccc", width: 10, policy: .none) == ["aaa bbb", "ccc"])
    }

    @Test func emptyParagraphsAreEmptyLines() {
        #expect(lines("a\n\nb\n", width: 100) == ["a", "", "b", ""])
    }

    @Test func tabsAdvanceToTheNextStop() {
        // "a" = 10, tab → 28, "b" → 38; second tab → 56.
        let p = monospaceText("a\tb\tc")
        let brokenLines = LineBreaker(text: p, maxWidth: 1000, policy: .words, tabInterval: 28, lineLimit: .max).lines()
        #expect(brokenLines.count == 1)
        #expect(brokenLines[0].usedWidth == 66)
    }

    @Test func lineLimitStopsEarly() {
        #expect(lines("a b c d e", width: 10, limit: 2) == ["a ", "b "])
    }

    @Test func hyphenIsABreakOpportunity() {
        #expect(lines("well-known", width: 60) == ["well-", "known"])
    }
}
