@testable import Plumb
import PropertyTesting
import Testing

/// `Paragraphs.next` skips eight bytes at a time that cannot start a hard break (branch
/// `cold5`); the paragraphs must be those of a byte-by-byte scan, for breaks at every offset
/// of a word (LF, CR, CR LF, NEL, LS, PS, and their lead bytes 0xC2 / 0xE2 in other
/// characters: é, ’, —), in texts of every length.
@Suite struct ParagraphScanTests {
    /// The byte-by-byte reference (the scan before the shortcut).
    static func reference(_ text: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0, i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            var length = 0
            if b == 0x0A { length = 1 } else if b == 0x0D { length = i + 1 < n && text[i + 1] == 0x0A ? 2 : 1 }
            else if b == 0xC2, i + 1 < n, text[i + 1] == 0x85 { length = 2 }
            else if b == 0xE2, i + 2 < n, text[i + 1] == 0x80, text[i + 2] == 0xA8 || text[i + 2] == 0xA9 { length = 3 }
            if length > 0 {
                result.append(start..<i)
                i += length
                start = i
            } else {
                i += 1
            }
        }
        result.append(start..<n)
        return result
    }

    static let pieces = ["a", "bcdefgh", " ", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "é", "’", "—", "中", "\u{A0}", "\u{2027}", "©"]

    static let texts: Gen<[UInt8]> = Gen.array(of: Gen.element(of: Array(pieces.indices)), count: 0...40)
        .map { picks in Array(picks.map { pieces[$0] }.joined().utf8) }

    @Test func paragraphsAreThoseOfAByteByByteScan() {
        if let failure = checkProperty("paragraph scan", Self.texts, iterations: 2_000, { text in
            text.withUnsafeBufferPointer { Paragraphs.ranges(in: $0) } == Self.reference(text)
        }) {
            Issue.record("\(failure)")
        }
    }
}
