import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// The simple-paragraph breaker's shortcuts for the exact arithmetic give the lines of the
/// probe order Blink's arithmetic keeps, bit for bit: the guess probed before the line's first
/// word and the first line's guess from the last word's visible end
/// (`LineBreaker.searchesGuessFirst`), which hold because the visible ends never decrease in
/// a paragraph; and a line's fonts OR-ed from the packed words (`Words.fontMask`) are the
/// words' masks OR-ed. Seeded; `PLUMB_PROPERTY_SEED` replays a failure.
@Suite struct LineSearchTests {
    /// WordRunTests' pieces, with zero-width and combining characters, no-break spaces and
    /// long words (words whose content is narrower than their spaces, or empty).
    static let pieces = WordRunTests.pieces + [
        "\u{200B}", "\u{2060}", "e\u{301}", "\u{301}", "\u{A0}", "extraordinarily", "  ", "ﬁ", "ــ", "مرحبا", "🇫🇷",
    ]
    static let texts: Gen<String> = Gen.array(
        of: Gen.frequency([(30, Gen.element(of: pieces)), (1, Gen.element(of: ["\n", "\t"]))]), count: 0...60
    ).map { $0.joined() }
    static let widths: [Double] = [0.5, 7, 14, 15, 29.99, 30, 45, 47.5, 61.3, 100, 150, 160.25, 233.7, 320, .infinity]

    let preparers = ["en", "en@lb=normal"].map {
        TextPreparer(iterators: BreakIterators(locale: $0)!, segmentCache: SegmentCache(budgetBytes: 1 << 22))
    }

    func prepared(_ text: String, _ conventions: LayoutConventions, rules: Int, cascade: Int, size: Double) -> PreparedText {
        Array(text.utf8).withUnsafeBufferPointer {
            preparers[rules].prepare($0, cascade: WordRunTests.cascades[cascade], size: size, letterSpacing: 0, conventions: conventions)
        }
    }

    /// The lines of `text` with and without the guess-first search, at every width and line limit.
    static func searchesAlike(_ text: PreparedText) -> Bool {
        for width in widths {
            for limit in [1, 2, Int.max] {
                let lines = [true, false].map {
                    LineBreaker(text: text, maxWidth: width, policy: .words, tabInterval: 28, lineLimit: limit, searchesGuessFirst: $0)
                        .lines().map(WordRunTests.bits)
                }
                if lines[0] != lines[1] { return false }
            }
        }
        return true
    }

    /// Every paragraph's visible ends never decrease (what makes the fit test monotone).
    static func visibleEndsNeverDecrease(_ text: PreparedText) -> Bool {
        let words = text.words
        return text.paragraphs.allSatisfy { p in
            var k = Int(p.wordStart) + 1
            while k < Int(p.wordEnd) {
                if words[k].visibleEnd < words[k - 1].visibleEnd { return false }
                k += 1
            }
            return true
        }
    }

    /// `Words.fontMask(from:through:stoppingAt:)`, stopping at the text's every font or not,
    /// against the masks OR-ed word by word along `nextMaskChange`, for every pair of words
    /// of each paragraph.
    static func masksAlike(_ text: PreparedText) -> Bool {
        let words = text.words
        let all = PreparedText.allFontsMask(count: text.fontLines.count)
        for p in text.paragraphs where p.wordStart < p.wordEnd {
            for w in Int(p.wordStart)..<Int(p.wordEnd) {
                for lo in w..<Int(p.wordEnd) {
                    var mask: UInt64 = 0
                    var k = w
                    while k <= lo {
                        mask |= words[k].fontMask
                        k = Int(words[k].nextMaskChange)
                    }
                    if words.fontMask(from: w, through: lo) != mask { return false }
                    if words.fontMask(from: w, through: lo, stoppingAt: all) != mask { return false }
                }
            }
        }
        return true
    }

    @Test func guessFirstSearchBreaksAsTheFirstWordFirstSearch() {
        let cases = Gen.zip(
            Self.texts, Gen.element(of: [0, 1, 2]), Gen.element(of: [0, 1, 2]), Gen.element(of: [11.0, 15, 22.5, 13.37]))
        if let failure = checkProperty("guess-first line search", cases, iterations: 200, { text, profile, cascade, size in
            let (c, rules) = WordRunTests.conventions[profile]
            let t = self.prepared(text, c, rules: rules, cascade: cascade, size: size)
            return Self.visibleEndsNeverDecrease(t) && Self.searchesAlike(t) && Self.masksAlike(t)
        }) {
            Issue.record("\(failure)")
        }
    }

    /// Words of several fonts, wide and narrow packing: the packed-word mask loop follows the
    /// stored jumps (capped at 15 narrow) as the words' `nextMaskChange` does.
    @Test func packedMasksAreTheWordsMasks() {
        let cases = Gen.array(of: Gen.frequency([(3, Gen.element(of: [1])), (1, Gen.element(of: [2, 3]))]), count: 1...60)
        let wide = Gen.array(of: Gen.frequency([(4, Gen.element(of: [false])), (1, Gen.element(of: [true]))]), count: 1...5)
        if let failure = checkProperty("packed word masks", Gen.zip(cases, wide), iterations: 200, { lengths, wide in
            [true, false].allSatisfy { merged in
                Self.masksAlike(
                    WordRunTests.handBuilt(
                        wordLengths: lengths, cuts: [0], wide: wide, merged: merged, lineFit: .exact(tolerance: 1e-6)))
            }
        }) {
            Issue.record("\(failure)")
        }
    }
}
