@testable import Plumb
import Testing

/// Direction (UAX #9): paragraph base direction, alignment of lines in the box, and the order
/// in which a line's runs are drawn. Heights never depend on any of it.
@Suite struct BidiTests {
    static let hebrew = ["Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic"]

    func direction(_ s: String) -> TextDirection? {
        var t = s
        return t.withUTF8 { Bidi.firstStrongDirection($0) }
    }

    @Test func paragraphDirectionIsTheFirstStrongCharacterOutsideIsolates() {
        #expect(direction("abc שלום") == .leftToRight)
        #expect(direction("שלום abc") == .rightToLeft)
        #expect(direction("مرحبا") == .rightToLeft)  // AL
        #expect(direction("123, (שלום)") == .rightToLeft)  // digits and punctuation are weak/neutral
        #expect(direction("\u{2067}abc\u{2069} שלום") == .rightToLeft)  // RLI abc PDI: skipped
        #expect(direction("\u{2068}\u{2068}א\u{2069}\u{2069}b") == .leftToRight)  // nested isolates
        #expect(direction("123 !?") == nil)
        #expect(direction("") == nil)
    }

    @Test func visualRunsOrderALineLeftToRight() {
        var text = "abc שלום 12 def"
        let runs = text.withUTF8 { Bidi.visualRuns($0, paragraph: .leftToRight) }
        let bytes = Array("abc שלום 12 def".utf8)
        let pieces = runs.map { (String(decoding: bytes[$0.bytes], as: UTF8.self), $0.direction) }
        // The Hebrew word, the space and the number after it form one right-to-left stretch
        // (levels 1, 1, 2): the number is drawn left of the word, the space between them.
        #expect(pieces.map(\.0) == ["abc ", "12", "שלום ", " def"])
        #expect(pieces.map(\.1) == [.leftToRight, .leftToRight, .rightToLeft, .leftToRight])
        var rtl = "שלום abc"
        let r = rtl.withUTF8 { Bidi.visualRuns($0, paragraph: .rightToLeft) }
        #expect(r.map(\.direction) == [.leftToRight, .rightToLeft])
        #expect(r.first?.bytes == 9..<12)  // "abc" leftmost
    }

    func style(_ alignment: TextAlignment = .natural) -> TextStyle {
        var s = TextStyle(families: Self.hebrew, size: 15)
        s.alignment = alignment
        return s
    }

    @Test func naturalAlignmentPutsRightToLeftParagraphsOnTheRight() {
        let text = "שלום עולם, זה טקסט בעברית\nEnglish paragraph\n123"
        let layout = engine.layout(text, style: style(), width: 200)
        #expect(layout.lines.map(\.direction) == [.rightToLeft, .leftToRight, .leftToRight])
        let hebrew = layout.lines[0]
        #expect(abs(hebrew.rect.maxX - 200) < 1e-9)
        #expect(hebrew.rect.x > 0)
        #expect(layout.lines[1].rect.x == 0 && layout.lines[2].rect.x == 0)
        // Hanging whitespace of a right-to-left line lies to its left.
        let wrapped = engine.layout("שלום עולם זה טקסט ארוך בעברית", style: style(), width: 90)
        let first = wrapped.lines[0]
        #expect(first.hangingWidth > 0 && first.direction == .rightToLeft)
        let cover = wrapped.lineCoverRects[0]
        #expect(abs(cover.x - (first.rect.x - first.hangingWidth)) < 1e-9 && abs(cover.maxX - first.rect.maxX) < 1e-9)
    }

    @Test func alignmentMovesLinesAndNeverChangesAHeight() {
        let text = "Align me in the box, please, over several lines of text"
        let left = engine.layout(text, style: style(.left), width: 150)
        for a in TextAlignment.allCases {
            let l = engine.layout(text, style: style(a), width: 150)
            #expect(l.measurement == left.measurement, "\(a)")
            #expect(l.lines.map(\.utf8Range) == left.lines.map(\.utf8Range), "\(a)")
            #expect(l.lines.map(\.rect.y) == left.lines.map(\.rect.y), "\(a)")
            for line in l.lines {
                let free = 150 - line.usedWidth
                let expected: Double = switch a {
                case .left, .natural, .justified: 0
                case .right: free
                case .center: free / 2
                }
                #expect(abs(line.rect.x - expected) < 1e-9, "\(a)")
            }
            #expect(engine.resolve(style(a)).layoutFingerprint == engine.resolve(style(.left)).layoutFingerprint)
        }
        // Unconstrained width: the box is the widest line.
        let free = engine.layout("wide line\nnarrow", style: style(.right), width: .infinity)
        #expect(free.lines[0].rect.x == 0)
        #expect(abs(free.lines[1].rect.maxX - free.lines[0].rect.maxX) < 1e-9)
    }
}
