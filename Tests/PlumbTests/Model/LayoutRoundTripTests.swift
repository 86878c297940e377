import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// A `TextLayout` sent through `JSONEncoder`/`JSONDecoder` answers every query as the
/// original: hit testing, rects, runs, line look-ups (plain and attributed layouts, truncated
/// ones included). Replay a failure with `PLUMB_PROPERTY_SEED=0x… swift test --filter
/// LayoutRoundTripTests`.
@Suite struct LayoutRoundTripTests {
    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 60, _ body: @escaping (T) throws -> Void) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) { Issue.record("\(failure)") }
    }

    static func roundTrip(_ layout: TextLayout) throws -> TextLayout {
        try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
    }

    /// Truncating styles with a token, so that heads, tails and tokens are exercised.
    static func style(_ mode: LineBreakMode, maxLines: Int, token: Bool) -> TextStyle {
        var s = style15(["Noto Sans", "Noto Sans CJK SC", "Noto Sans Hebrew", "Noto Sans Arabic"])
        s.lineBreakMode = mode
        s.maxLines = maxLines
        if token { s.truncationToken = AttributedText("… more", TextAttributes(weight: 700)) }
        return s
    }

    static let styles = Gen.zip(Gen.element(of: LineBreakMode.allCases), Gen.int(in: 0...3), Gen.bool)
        .map { style($0, maxLines: $1, token: $2) }

    /// Every query of `a` and `b` gives the same answer: line look-ups and covers, the text
    /// of each line, each line's runs, the rects of every character and of every line's range,
    /// and the character under points on a grid over the box and around it.
    static func answerAlike(_ a: TextLayout, _ b: TextLayout) throws {
        try propertyAssert(a.lastLineRect == b.lastLineRect && a.lineCoverRects == b.lineCoverRects, "covers")
        for i in a.lines.indices {
            try propertyAssert(a.text(ofLine: i) == b.text(ofLine: i), "text of line \(i)")
            try propertyAssert(a.runs(onLine: i) == b.runs(onLine: i), "runs on line \(i): \(a.runs(onLine: i)) vs \(b.runs(onLine: i))")
            let range = a.lines[i].utf16Range
            try propertyAssert(a.rects(forCharacters: range) == b.rects(forCharacters: range), "rects of line \(i)")
        }
        var offset = 0
        for character in a.text {
            let r = offset..<(offset + character.utf16.count)
            try propertyAssert(a.rects(forCharacters: r) == b.rects(forCharacters: r), "rects of \(r)")
            offset = r.upperBound
        }
        let height = max(a.exactHeight, 1), width = max(a.size.width, 1)
        for y in stride(from: -5, through: height + 5, by: height / 7) {
            try propertyAssert(a.lineIndex(atY: y) == b.lineIndex(atY: y), "line at y \(y)")
            for x in stride(from: -5, through: width + 5, by: width / 11) {
                for unit in TextOffsetUnit.allCases {
                    let p = Point(x: x, y: y)
                    try propertyAssert(a.characterOffset(at: p, unit: unit) == b.characterOffset(at: p, unit: unit),
                                       "offset at \(p) in \(unit)")
                    try propertyAssert(a.hit(at: p, unit: unit) == b.hit(at: p, unit: unit), "hit at \(p) in \(unit)")
                }
            }
        }
    }

    @Test func plainLayoutsAnswerAlikeAfterDecoding() {
        let gen = Gen.zip(Gen<String>.text(maxClusters: 40), Self.styles, Gen.double(in: 40...300))
        check("plain layout round trip answers alike", gen) { text, style, width in
            let layout = engine.layout(text, style: style, width: width.rounded())
            let back = try Self.roundTrip(layout)
            try propertyAssert(back == layout && back.hashValue == layout.hashValue, "decoded == original")
            try Self.answerAlike(layout, back)
        }
    }

    @Test func attributedLayoutsAnswerAlikeAfterDecoding() {
        let gen = Gen.zip(RichTextPropertyTests.rich, Self.styles, Gen.double(in: 40...300))
        check("rich layout round trip answers alike", gen) { text, style, width in
            let layout = engine.layout(text, style: style, width: width.rounded())
            let back = try Self.roundTrip(layout)
            try propertyAssert(back == layout && back.hashValue == layout.hashValue, "decoded == original")
            try Self.answerAlike(layout, back)
        }
    }

    /// The issue's case: a truncated rich layout whose decoded copy answered `nil` and `[]`.
    @Test func aTruncatedRichLayoutHitTestsAfterDecoding() throws {
        var text = AttributedText("Alice", TextAttributes(weight: 700))
        text.append(" replied ")
        text.append(InlineBox(width: 18, height: 18, baselineOffset: -3, id: "avatar"))
        text.append(" See you at 8, and bring the long list of everything we talked about")
        let layout = engine.layout(text, style: Self.style(.truncatingTail, maxLines: 2, token: true), width: 200)
        #expect(layout.measurement.isTruncated && layout.truncationToken != nil)
        let back = try Self.roundTrip(layout)
        #expect(back.characterOffset(at: Point(x: 20, y: 10)) == layout.characterOffset(at: Point(x: 20, y: 10)))
        #expect(back.characterOffset(at: Point(x: 20, y: 10)) != nil)
        #expect(back.rects(forCharacters: 0..<5) == layout.rects(forCharacters: 0..<5) && !back.rects(forCharacters: 0..<5).isEmpty)
        #expect(back.runs(onLine: 0) == layout.runs(onLine: 0) && back.runs(onLine: 0).count == 4)
        try Self.answerAlike(layout, back)
        #expect(back == layout)
    }

    /// Clusters or run ends that do not fit the text are decoding errors, not traps later in a
    /// query: offsets past the text or inside a scalar, a cluster count per line that is not
    /// the line count, descending run ends.
    @Test func clustersThatDoNotFitTheTextAreErrors() throws {
        var text = AttributedText("é ", TextAttributes(weight: 700))
        text.append("and more")
        let layout = engine.layout(text, style: style15(), width: 300)
        let json = try #require(String(data: JSONEncoder().encode(layout), encoding: .utf8))
        #expect(json.contains(#""clusters":[[[0,2,"#) && json.contains(#""runEnds":[3,11]"#))
        for (bad, good) in [(#"[[[0,1,"#, #"[[[0,2,"#), (#"[[[0,99,"#, #"[[[0,2,"#), (#""clusters":[[],["#, #""clusters":[["#),
                            (#""runEnds":[11,3]"#, #""runEnds":[3,11]"#)] {
            let broken = json.replacingOccurrences(of: good, with: bad)
            #expect(broken != json)
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(TextLayout.self, from: Data(broken.utf8)) }
        }
    }
}
