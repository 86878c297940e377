@testable import Plumb
import PropertyTesting
import Testing

/// The chromium profile's cut adjustments (`PreparedText.cutAdjustments`) are stored sparsely:
/// only those that are not +0 (~5 %), with their graphemes; a text with none stores nothing,
/// and the line breaker reads a missing one as zero.
@Suite struct CutAdjustmentStorageTests {
    let cascade = engine.fonts.cascade(for: FontDescriptor(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15))

    func prepared(_ text: String) -> PreparedText {
        let preparer = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        return Array(text.utf8).withUnsafeBufferPointer {
            preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: .chromium)
        }
    }

    @Test func aTextWithoutAdjustmentsStoresNone() {
        // No kerning pair and no contextual form in "mini": every grapheme alone is as wide.
        #expect(prepared("mini mini").cutAdjustments.count == 0)
    }

    /// A text without adjustments pays nothing for the sparse column: no padding to its
    /// mask's 8-byte alignment (it cost 4 bytes in about half the texts, all profiles).
    /// Pinned sizes: change them only with a deliberate change of the storage format.
    @Test func aTextWithoutAdjustmentsPaysNoPadding() {
        let preparer = TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
        func storage(_ text: String) -> Int {
            Array(text.utf8).withUnsafeBufferPointer {
                preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: .standard)
            }.storageBytes
        }
        #expect(storage("mini mini") == 125)
        #expect(storage("a") == 69)
        #expect(storage("ab 中文 cd") == 188)
    }

    @Test func aTextWithOneStoresOnePerGrapheme() {
        // "To": T is kerned against o, so T alone is wider than as shaped before it.
        let text = prepared("To To")
        #expect(text.cutAdjustments.count == 5)
        #expect((0..<text.cutAdjustments.count).contains { text.cutAdjustments[$0] != 0 })
    }

    /// The sparse column reads back every value of the dense one, bit for bit: zeros, −0
    /// (stored: it is not +0), values at both ends, and graphemes that share a mask bit.
    @Test func theSparseColumnReadsBackTheDenseOne() {
        let columns = Gen.int(in: 0...9).array(count: 1...300)
        let failure = checkProperty("sparse cut adjustments", columns, iterations: 300) { codes in
            let dense: [Float] = codes.map { code in
                switch code {
                case 0: -0.0
                case 1: 0.375
                case 2: -1.25
                default: 0
                }
            }
            let stored = dense.withUnsafeBufferPointer { CutAdjustments.storedCount($0) }
            guard stored > 0 else { return dense.allSatisfy { $0.bitPattern == 0 } }
            var mask: UInt64 = 0
            var graphemes = [Int32](repeating: 0, count: stored), values = [Float](repeating: 0, count: stored)
            dense.withUnsafeBufferPointer { d in
                graphemes.withUnsafeMutableBufferPointer { g in
                    values.withUnsafeMutableBufferPointer { CutAdjustments.write(d, mask: &mask, graphemes: g, values: $0) }
                }
            }
            return graphemes.withUnsafeBufferPointer { g in
                values.withUnsafeBufferPointer { v in
                    let view = CutAdjustments(mask: mask, graphemes: g.baseAddress, values: v.baseAddress, stored: stored, count: dense.count)
                    return view.count == dense.count && (0..<dense.count).allSatisfy { view[$0].bitPattern == dense[$0].bitPattern }
                }
            }
        }
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
    }
}
