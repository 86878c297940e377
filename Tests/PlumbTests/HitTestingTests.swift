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
