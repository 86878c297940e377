@testable import Plumb
import PropertyTesting
import Testing

/// `runs(onLine:)` on lines that mix directions: one entry per visual stretch of a run, left
/// to right, rects that never overlap and that cover what `rects(forCharacters:)` covers.
/// Replay a property failure with `PLUMB_PROPERTY_SEED=0x… swift test --filter VisualRunTests`.
@Suite struct VisualRunTests {
    static let style = TextStyle(families: ["Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic"], size: 15)

    /// Two rects overlap when their horizontal extents share more than rounding.
    static func overlap(_ a: Rect, _ b: Rect) -> Bool { min(a.maxX, b.maxX) - max(a.x, b.x) > 1e-6 }

    /// The issue's line: the plain run's "abc " and " אבג" are apart (the bold run's "דהו" is
    /// drawn between them), so each run is two entries; before, one rect per logical run made
    /// the two rects overlap by ~54 pt.
    @Test func aRunSplitByReorderingIsSeveralEntries() throws {
        var text = AttributedText("abc אבג ")
        text.append("דהו def", TextAttributes(weight: 700))
        let l = engine.layout(text, style: Self.style, width: 400)
        #expect(l.lines.count == 1 && l.lines[0].direction == .leftToRight)
        let runs = l.runs(onLine: 0)
        #expect(runs.map(\.run) == [0, 1, 0, 1])
        // "abc ", "דהו", " אבג" (the space is the plain run's, drawn at its right-to-left end), " def".
        #expect(runs.map { l.text.utf8Slice($0.utf8Range) } == ["abc ", "דהו", "אבג ", " def"])
        for (a, b) in zip(runs, runs.dropFirst()) {
            #expect(!Self.overlap(a.rect, b.rect) && abs(a.rect.maxX - b.rect.x) < 1e-9)
        }
        // Each entry is where `rects(forCharacters:)` puts its characters.
        for run in runs { #expect(l.rects(forCharacters: run.utf16Range) == [run.rect]) }
    }

    /// Mixed-direction runs: Latin words, Hebrew, Arabic, digits and punctuation, some bold,
    /// some larger, in either paragraph direction, wrapped at a few widths.
    static let lines: Gen<(AttributedText, Double)> = {
        let pieces: TextPieces = [.asciiWords, .spaces, .punctuation, .digits, .hebrew, .arabic]
        let attributes = Gen.zip(Gen.element(of: [Int?.none, 700]), Gen.element(of: [Double?.none, 20]))
            .map { TextAttributes(size: $1, weight: $0) }
        let text = Gen.array(of: Gen.zip(Gen<String>.text(maxClusters: 12, pieces: pieces), attributes), count: 1...5)
            .map { runs -> AttributedText in
                var t = AttributedText()
                for (s, a) in runs { t.append(s, a) }
                return t
            }
        return Gen.zip(text, Gen.element(of: [60.0, 150, 400]))
    }()

    @Test func runRectsNeverOverlapAndCoverTheLinesCharacters() {
        if let failure = checkProperty("visual runs", Self.lines, iterations: 100, { (text: AttributedText, width: Double) throws -> Void in
            let l = engine.layout(text, style: Self.style, width: width)
            for i in l.lines.indices {
                let runs = l.runs(onLine: i)
                for (a, b) in zip(runs, runs.dropFirst()) {
                    try propertyAssert(a.rect.x <= b.rect.x + 1e-9, "line \(i): not left to right: \(runs)")
                }
                for (k, a) in runs.enumerated() {
                    for b in runs[(k + 1)...] { try propertyAssert(!Self.overlap(a.rect, b.rect), "line \(i): \(a) overlaps \(b)") }
                    // An entry is one run's, and its range is exactly its characters.
                    let run = text.runs.isEmpty ? 0..<0 : text.runs[a.run].utf8Range
                    try propertyAssert(text.isPlain || (run.contains(a.utf8Range.lowerBound) && a.utf8Range.upperBound <= run.upperBound),
                                       "line \(i): \(a) outside run \(run)")
                }
                let shown = l.caretMap.lineClusters[i].reduce(0) { $0 + Int(l.caretMap.clusters[$1].utf8End - l.caretMap.clusters[$1].utf8Start) }
                try propertyAssert(runs.reduce(0) { $0 + $1.utf8Range.count } == shown, "line \(i): ranges \(runs) vs \(shown) bytes shown")
                // The union of the runs' rects is what the line's characters cover.
                let covered = l.rects(forCharacters: l.lines[i].utf16Range).map { ($0.x, $0.maxX) }
                let union = Self.merged(runs.map { ($0.rect.x, $0.rect.maxX) })
                try propertyAssert(union.count == covered.count
                                   && zip(union, covered).allSatisfy { abs($0.0 - $1.0) < 1e-6 && abs($0.1 - $1.1) < 1e-6 },
                                   "line \(i): union \(union) vs characters \(covered)")
            }
        }) {
            Issue.record("\(failure)")
        }
    }

    /// Horizontal extents merged where they touch, left to right.
    static func merged(_ spans: [(Double, Double)]) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for s in spans.sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, s.0 <= last.1 + 1e-9 { out[out.count - 1].1 = max(last.1, s.1) } else { out.append(s) }
        }
        return out
    }
}

extension String {
    /// The text of a UTF-8 range.
    fileprivate func utf8Slice(_ range: Range<Int>) -> String {
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(self[start..<utf8.index(start, offsetBy: range.count)])
    }
}
