@testable import Plumb
import Testing

/// The chromium profile's cut adjustments (`PreparedText.cutAdjustments`) are stored only for
/// a text that has one that is not +0: ~95 % of them are zero, and the line breaker reads a
/// missing column as zeros.
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

    @Test func aTextWithOneStoresOnePerGrapheme() {
        // "To": T is kerned against o, so T alone is wider than as shaped before it.
        let text = prepared("To To")
        #expect(text.cutAdjustments.count == 5)
        #expect((0..<text.cutAdjustments.count).contains { text.cutAdjustments[$0] != 0 })
    }
}
