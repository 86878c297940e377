@testable import Plumb
import Testing

/// A preparer remembers the last "…" it shaped by font and shaping language (issue 16 §2,
/// branch `cold3`): texts in alternating cascades and profiles get the ellipsis a fresh
/// preparer gives each.
@Suite struct EllipsisMemoTests {
    func prepared(_ text: String, _ cascade: ResolvedCascade, _ conventions: LayoutConventions, by preparer: TextPreparer) -> PreparedText {
        let utf8 = Array(text.utf8)
        return utf8.withUnsafeBufferPointer {
            preparer.prepare($0, cascade: cascade, size: 15, letterSpacing: 0, conventions: conventions)
        }
    }

    func freshPreparer() -> TextPreparer {
        TextPreparer(iterators: BreakIterators(locale: "en")!, segmentCache: SegmentCache(budgetBytes: 1 << 20))
    }

    @Test func alternatingFontsAndLanguagesGetTheirOwnEllipsis() {
        let cascades = [
            ["Noto Sans", "Noto Sans CJK SC"], ["Noto Sans CJK SC", "Noto Sans"], ["Noto Serif", "Noto Sans"],
            ["Noto Sans Mono"], ["DejaVu Sans"],
        ].map { engine.fonts.cascade(for: FontDescriptor(families: $0, size: 15)) }
        let shared = freshPreparer()
        var widths: Set<Double> = []
        for round in 0..<3 {
            for cascade in cascades {
                for conventions in [LayoutConventions.standard, .chromium, .pango] {
                    let text = round == 1 ? "中文 text" : "text"
                    let memo = prepared(text, cascade, conventions, by: shared)
                    let fresh = prepared(text, cascade, conventions, by: freshPreparer())
                    #expect(memo.ellipsisWidth == fresh.ellipsisWidth)
                    #expect(memo.ellipsisFont == fresh.ellipsisFont)
                    widths.insert(memo.ellipsisWidth)
                }
            }
        }
        // The cascades' "…" differ, so a memo that ignored the font would fail above.
        #expect(widths.count > 1)
    }
}
