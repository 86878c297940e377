@testable import Plumb
import PropertyTesting
import Testing

/// `classifyClusters` makes every byte of a paragraph of ASCII without CR its own cluster,
/// without asking for grapheme boundaries: the scan must say exactly "ASCII, no CR", and ICU
/// must break after every such byte.
@Suite struct ASCIIClusterShortcutTests {
    static func naive(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } }

    static func scan(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { TextPreparer.isASCIIWithoutCR($0) } }

    /// A CR, a byte with the high bit or both at every position of every length to 40.
    @Test func scanFindsCROrHighByteAtEveryPosition() {
        for n in 0...40 {
            let plain = (0..<n).map { UInt8(0x20 + $0 % 90) }
            #expect(Self.scan(plain), "length \(n)")
            for i in 0..<n {
                for odd: UInt8 in [0x0D, 0x80, 0xC3, 0xFF, 0x8D, 0x0C, 0x0E, 0x1D] {
                    var bytes = plain
                    bytes[i] = odd
                    #expect(Self.scan(bytes) == Self.naive(bytes), "length \(n), \(odd) at \(i)")
                }
            }
        }
    }

    @Test func scanAgreesWithAByteLoop() {
        let gen = Gen.array(of: Gen.element(of: [UInt8](0...0x7F) + [0x0D, 0x0D, 0x80, 0xE4, 0xFF]), count: 0...70)
        let failure = checkProperty("ASCII without CR", gen, iterations: 2_000) { Self.scan($0) == Self.naive($0) }
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }

    /// ICU 72 breaks after every byte of such text: every pair of ASCII bytes other than CR,
    /// and generated texts of them.
    @Test func icuBreaksAfterEveryASCIIByteButCR() {
        let iterators = BreakIterators(locale: "en")!
        let bytes = (UInt8(0)...0x7F).filter { $0 != 0x0D }
        for a in bytes {
            for b in bytes {
                let text = [a, b, a]
                let breaks = text.withUnsafeBufferPointer { Array(iterators.graphemeBreaksThroughICU($0)) }
                #expect(breaks == [1, 2, 3], "\(a) \(b)")
            }
        }
        let gen = Gen.array(of: Gen.element(of: bytes), count: 1...60)
        let failure = checkProperty("ICU breaks ASCII", gen, iterations: 300) { text in
            text.withUnsafeBufferPointer { Array(iterators.graphemeBreaksThroughICU($0)) } == Array(1...Int32(text.count))
        }
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
    }
}
