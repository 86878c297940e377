@testable import Plumb
import PropertyTesting
import Testing

/// The chromium profile's alone check reads an ASCII cluster's nominal advance from a table
/// per font (`TextPreparer.ASCIINominals`, branch `cold6`) instead of the hashed memo: the
/// tables must give what the memo path gives, also when more fonts than ways take turns.
@Suite struct ASCIINominalTests {
    /// A way taken over by another font forgets the first font's entries: four fonts under
    /// ids that share one way (8 apart) take turns; every entry read is unknown or the
    /// font's own `Shaper.nominalAdvance` (it fails without the refill: the faces' advances
    /// differ).
    @Test func aWayTakenOverForgetsTheOtherFont() throws {
        let families = ["Noto Sans", "Noto Serif", "DejaVu Sans", "Noto Sans CJK SC"]
        let fonts = families.map { engine.fonts.cascade(for: FontDescriptor(families: [$0], size: 15)).primary }
        let preparer = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        var bad: [String] = []
        for _ in 0..<3 {
            for (k, font) in fonts.enumerated() {
                let table = preparer.scratch.asciiNominals.table(forFontID: 1_000_003 + 8 * k)
                for byte in UInt8(0x20)..<0x7F {
                    let expected = Shaper.nominalAdvance(of: CollectionOfOne(Unicode.Scalar(byte)), font: font)
                    if table[Int(byte)] != .min && table[Int(byte)] != expected { bad.append("\(families[k]) \(byte)") }
                    table[Int(byte)] = expected
                }
            }
        }
        let badCount = bad.count
        #expect(badCount == 0, "\(bad.prefix(5))")
    }

    /// Texts prepared with the tables (chromium) equal those prepared through the memo path
    /// (`usesASCIINominals` false): the corpus' cells and generated ASCII-heavy texts with
    /// kerning pairs, ligatures and a fallback font, in several cascades and sizes.
    @Test func preparedTextsEqualTheMemoPath() throws {
        let cascades = [
            engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)),
            engine.fonts.cascade(for: FontDescriptor(families: ["Noto Serif"], size: 13)),
            engine.fonts.cascade(for: FontDescriptor(families: ["DejaVu Sans"], size: 17)),
        ]
        func preparer(tables: Bool) -> TextPreparer {
            let p = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 22))
            p.usesASCIINominals = tables
            return p
        }
        let withTables = preparer(tables: true), reference = preparer(tables: false)
        func difference(_ text: String) -> String? {
            let utf8 = Array(text.utf8)
            for (k, cascade) in cascades.enumerated() {
                let size = [15.0, 13, 17][k]
                let (a, b) = utf8.withUnsafeBufferPointer {
                    (withTables.prepare($0, cascade: cascade, size: size, letterSpacing: 0, conventions: .chromium),
                     reference.prepare($0, cascade: cascade, size: size, letterSpacing: 0, conventions: .chromium))
                }
                if let d = GraphemePaletteTests.difference(a, b) { return "cascade \(k): \(d)" }
                let cuts = (a.cutAdjustments.count, b.cutAdjustments.count)
                if cuts.0 != cuts.1 { return "cascade \(k): cut adjustment counts" }
                for g in 0..<cuts.0 where a.cutAdjustments[g].bitPattern != b.cutAdjustments[g].bitPattern {
                    return "cascade \(k): cut adjustment of \(g)"
                }
            }
            return nil
        }
        let corpus = try corpusTexts()
        var failures: [String] = []
        for text in corpus.prefix(600) { if let d = difference(text) { failures.append("\(text): \(d)") } }
        let failureCount = failures.count
        #expect(failureCount == 0, "\(failures.prefix(3))")
        let pieces = ["To", "AV", "Wa", "fi", "ffl", "Ty", "r.", " ", "  ", "-", "é", "中", "😀", "\t", "y,", "LT", "\u{0301}"]
        let texts = Gen.array(of: Gen.element(of: pieces), count: 1...24).map { $0.joined() }
        if let failure = checkProperty("ASCII nominal tables equal the memo path", texts, iterations: 200, { difference($0) == nil }) {
            Issue.record("\(failure)")
        }
    }
}
