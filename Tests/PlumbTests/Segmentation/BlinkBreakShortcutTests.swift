@testable import Plumb
import Testing

/// `TextPreparer.addBlinkBreaks` skips a cluster without a break after it unless
/// `ASCIIClusters.mayBreakAfter(lead:nextLead:)` says a rule could add one there: that must
/// hold for every pair the Blink rules break (fails if the shortcut forgets `-`, `?`, an
/// opening bracket or the maqaf).
@Suite struct BlinkBreakShortcutTests {
    @Test func everyBlinkASCIIBreakIsLetThrough() {
        var breaking = 0
        for before in [nil] + (UInt8(0x20)...0x7E).map({ Optional($0) }) {
            for c in UInt8(0x21)...0x7E {
                for next in UInt8(0x21)...0x7E where TextPreparer.chromiumASCIIBreak(before, c, next) {
                    breaking += 1
                    #expect(ASCIIClusters.mayBreakAfter(lead: c, nextLead: next), "\(c) | \(next) after \(String(describing: before))")
                }
            }
        }
        #expect(breaking > 0)
    }

    /// LB21a (Hebrew letter, hyphen or maqaf | Hebrew letter) acts after `-` and after U+05BE,
    /// whose UTF-8 starts with 0xD6.
    @Test func hebrewHyphensAreLetThrough() {
        #expect(Array("\u{05BE}".utf8).first == 0xD6)
        let hebrewLead = Array("\u{05D0}".utf8)[0]
        #expect(ASCIIClusters.mayBreakAfter(lead: 0xD6, nextLead: hebrewLead))
        #expect(ASCIIClusters.mayBreakAfter(lead: UInt8(ascii: "-"), nextLead: hebrewLead))
        // Through the engine: ChromiumProfileTests.hebrewMaqafBreaksBeforeAHebrewLetterAsInUnicode15_1.
    }
}
