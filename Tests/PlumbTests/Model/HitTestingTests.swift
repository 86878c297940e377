@testable import Plumb
import PropertyTesting
import Testing

/// Character hit testing: the offset at a point and the rects of a range, in UTF-16, UTF-8
/// and scalars.
@Suite struct HitTestingTests {
    let style = style15()

    @Test func offsetsComeInThreeUnits() throws {
        let l = engine.layout("a😀b", style: style, width: 300)
        let rects = l.rects(forCharacters: 3..<4, unit: .utf16)  // "b"
        let b = try #require(rects.first)
        let center = Point(x: b.x + b.width / 2, y: b.y + b.height / 2)
        #expect(l.characterOffset(at: center, unit: .utf16) == 3)
        #expect(l.characterOffset(at: center, unit: .scalars) == 2)
        #expect(l.characterOffset(at: center, unit: .utf8) == 5)
        #expect(l.rects(forCharacters: 2..<3, unit: .scalars) == rects)
        #expect(l.rects(forCharacters: 5..<6, unit: .utf8) == rects)
    }

    @Test func pointsBesideALineTakeItsNearestCharacter() {
        let l = engine.layout("hello world", style: style, width: 300)
        #expect(l.characterOffset(at: Point(x: -50, y: 5)) == 0)
        #expect(l.characterOffset(at: Point(x: 1_000, y: 5)) == 10)
        #expect(l.characterOffset(at: Point(x: 5, y: 500)) == 0)  // below the text: its last line
    }

    @Test func rightToLeftLinesAreMirrored() {
        let l = engine.layout("שלום", style: style, width: 300)
        let line = l.lines[0].rect
        // The first letter is at the line's right end.
        #expect(l.characterOffset(at: Point(x: line.maxX - 1, y: line.midY), unit: .scalars) == 0)
        #expect(l.characterOffset(at: Point(x: line.x + 1, y: line.midY), unit: .scalars) == 3)
    }

    /// A line that mixes directions is hit-tested where it is drawn: in a Hebrew paragraph
    /// "hello" reads left to right in the middle, left of "שלום" (the extents followed the
    /// paragraph direction before: "o" left of "h").
    @Test func aMixedDirectionLineIsHitTestedInVisualOrder() throws {
        let text = "שלום hello עולם"
        let s = TextStyle(families: ["Noto Sans Hebrew", "DejaVu Sans"], size: 15)
        let l = engine.layout(text, style: s, width: 400)
        #expect(l.lines.count == 1 && l.lines[0].direction == .rightToLeft)
        func rect(_ scalars: Range<Int>) throws -> Rect {
            let rects = l.rects(forCharacters: scalars, unit: .scalars)
            #expect(rects.count == 1)
            return try #require(rects.first)
        }
        let h = try rect(5..<6), o = try rect(9..<10), shalom = try rect(0..<4), olam = try rect(11..<15)
        #expect(h.maxX <= o.x + 1e-9)  // "hello" left to right
        #expect(o.maxX <= shalom.x + 1e-9 && olam.maxX <= h.x + 1e-9)  // עולם | hello | שלום
        #expect(abs(shalom.maxX - l.lines[0].rect.maxX) < 1e-9 && abs(olam.x - l.lines[0].rect.x) < 1e-9)
        // The centre of every character's rect is that character.
        for k in 0..<15 {
            let r = try rect(k..<(k + 1))
            #expect(l.characterOffset(at: Point(x: r.midX, y: r.midY), unit: .scalars) == k)
        }
        // A range across the direction change is two rects on the line: "ם" (the left end of
        // שלום) and "he" (the left end of "hello") are not next to each other.
        #expect(l.rects(forCharacters: 3..<7, unit: .scalars).count == 2)
        // Drawing agrees: "h" is drawn where its rect is.
        let d = engine.drawing(text, style: s, width: 400)
        let latin = engine.drawing("hello", style: TextStyle(families: ["DejaVu Sans"], size: 15), width: 400).lines[0]
        let drawnH = try #require(d.lines[0].first { $0.glyph == latin[0].glyph && $0.face == latin[0].face })
        #expect(abs(drawnH.x - h.x) < 1e-6)
    }

    /// A box inside a left-to-right run of a Hebrew line sits where that run is drawn: after
    /// "see " reading left to right, not mirrored from the paragraph's right end.
    @Test func aBoxInAMixedDirectionLineSitsInItsRun() throws {
        var rich = AttributedText("שלום see ")
        rich.append(InlineBox(width: 20, height: 12, id: "icon"))
        rich.append(" now עולם")
        let s = TextStyle(families: ["Noto Sans Hebrew", "DejaVu Sans"], size: 15)
        let l = engine.layout(rich, style: s, width: 400)
        let box = try #require(l.inlineBoxes.first)
        let see = try #require(l.rects(forCharacters: 5..<9, unit: .scalars).first)  // "see "
        let now = try #require(l.rects(forCharacters: 10..<14, unit: .scalars).first)  // " now"
        #expect(abs(box.rect.x - see.maxX) < 1e-9 && abs(box.rect.maxX - now.x) < 1e-9)
        let hit = try #require(l.rects(forCharacters: 9..<10, unit: .scalars).first)
        #expect(abs(hit.x - box.rect.x) < 1e-9 && abs(hit.width - box.rect.width) < 1e-9)
    }

    @Test func aRangeOverTwoLinesHasARectPerLine() {
        let l = engine.layout("first line second line", style: style, width: 80)
        #expect(l.lines.count >= 2)
        let rects = l.rects(forCharacters: 0..<22)
        #expect(rects.count == l.lines.count)
        for (r, line) in zip(rects, l.lines) { #expect(r.y == line.rect.y && r.height == line.rect.height) }
    }

    @Test func theCentreOfACharactersRectIsThatCharacter() {
        let gen = Gen.zip(Gen<String>.text(maxClusters: 30), Gen.element(of: [60.0, 150, 400]))
        let style = self.style
        if let failure = checkProperty("hit test round trip", gen, iterations: 60, { (text: String, width: Double) -> Bool in
            let l = engine.layout(text, style: style, width: width)
            var offset = 0
            for character in text {
                let length = character.utf16.count
                defer { offset += length }
                guard let r = l.rects(forCharacters: offset..<(offset + length)).first, r.width > 0.01 else { continue }
                let centre = Point(x: r.x + r.width / 2, y: r.y + r.height / 2)
                guard let hit = l.characterOffset(at: centre) else { return false }
                // The hit is this character, or a cluster inside it (Plumb cuts clusters that
                // are too long; ICU and Swift may group marks differently).
                if hit < offset || hit >= offset + length { return false }
            }
            return true
        }) {
            Issue.record("\(failure)")
        }
    }

    @Test func boxesAndRunsHitTestToo() throws {
        var rich = AttributedText("tap ")
        rich.append("@alice", TextAttributes(weight: 700))
        rich.append(InlineBox(width: 20, height: 20, id: "badge"))
        let l = engine.layout(rich, style: style, width: 300)
        let mention = try #require(l.rects(forCharacters: 4..<10).first)
        #expect(l.characterOffset(at: Point(x: mention.midX, y: mention.midY)).map { (4..<10).contains($0) } == true)
        let box = try #require(l.inlineBoxes.first)
        #expect(l.characterOffset(at: Point(x: box.rect.midX, y: box.rect.midY)) == box.utf16Offset)
    }
}

extension HitTestingTests {
    @Test func eachLinesRunsHaveRects() throws {
        var rich = AttributedText("Alice ", TextAttributes(weight: 700))
        rich.append("replied to ")
        rich.append("@bob", TextAttributes(color: "#1d9bf0"))
        rich.append(" with a message long enough to wrap onto the next line")
        let l = engine.layout(rich, style: style, width: 200)
        #expect(l.lines.count >= 2)
        let first = l.runs(onLine: 0)
        #expect(first.map(\.run).prefix(4) == [0, 1, 2, 3])
        // The runs tile the line left to right.
        for (a, b) in zip(first, first.dropFirst()) { #expect(abs(a.rect.maxX - b.rect.x) < 1e-9) }
        let mention = try #require(first.first { $0.run == 2 })
        #expect(mention.utf16Range == 17..<21)
        #expect(l.rects(forCharacters: 17..<21) == [mention.rect])
        // The last run continues on the next line.
        #expect(l.runs(onLine: 1).first?.run == 3)
        // Plain text: one run per line.
        #expect(engine.layout("plain text", style: style, width: 200).runs(onLine: 0).map(\.run) == [0])
    }
}
