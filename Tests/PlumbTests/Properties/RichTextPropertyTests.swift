@testable import Plumb
import PropertyTesting
import Testing

/// Properties of attributed text over generated runs: mixed scripts, sizes, weights, families,
/// baseline offsets and inline boxes (seeded; `PLUMB_PROPERTY_SEED` replays a failure).
@Suite struct RichTextPropertyTests {
    static let attributes: Gen<TextAttributes> = Gen.zip(
        Gen.element(of: [Int?.none, 400, 700]), Gen.element(of: [Double?.none, 11, 15, 22.5]),
        Gen.element(of: [[String]?.none, ["Noto Sans CJK SC"], ["DejaVu Sans"]]),
        Gen.element(of: [0.0, 0, 3, -2])
    ).map { TextAttributes(families: $2, size: $1, weight: $0, baselineOffset: $3) }

    static let box: Gen<InlineBox> = Gen.zip(Gen.double(in: 0...40), Gen.double(in: 0...40), Gen.double(in: -10...10))
        .map { InlineBox(width: $0.rounded(), height: $1.rounded(), baselineOffset: $2.rounded(), id: "b") }

    enum Piece: Sendable { case text(String, TextAttributes), box(InlineBox) }

    static let rich: Gen<AttributedText> = Gen.array(
        of: Gen.frequency([
            (4, Gen.zip(Gen<String>.text(maxClusters: 12), attributes).map { Piece.text($0, $1) }),
            (1, box.map { Piece.box($0) }),
        ]), count: 1...6
    ).map { pieces in
        var text = AttributedText()
        for piece in pieces {
            switch piece {
            case .text(let s, let a): text.append(s, a)
            case .box(let b): text.append(b)
            }
        }
        return text
    }

    static let cases = Gen.zip(rich, Gen.element(of: [40.0, 120, 300]), Gen.element(of: [Compatibility.standard, .pango, .chromium]))

    let other = TextMeasurer()

    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 60, _ body: @escaping (T) -> Bool) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) { Issue.record("\(failure)") }
    }

    func style(_ profile: Compatibility) -> TextStyle {
        var s = style15()
        s.compatibility = profile
        return s
    }

    @Test func heightsAreFiniteNonNegativeOnTheGridAndCachedEqualsUncached() {
        check("rich: sane and cache-transparent", Self.cases) { text, width, profile in
            let s = style(profile)
            let first = engine.measure(text, style: s, width: width)
            let again = engine.measure(text, style: s, width: width)
            let fresh = other.layout(text, style: s, width: width)
            for v in [first.width, first.height] where !(v.isFinite && v >= 0 && (v * 2).rounded() == v * 2) { return false }
            return first == again && first == fresh.measurement && fresh.lines.count == first.lineCount
        }
    }

    @Test func boxesSitInsideTheirLines() {
        check("rich: box rects inside their line", Self.cases) { text, width, profile in
            let l = engine.layout(text, style: style(profile), width: width)
            for placement in l.inlineBoxes {
                let line = l.lines[placement.line].rect
                guard placement.rect.y >= line.y - 1e-9, placement.rect.maxY <= line.maxY + 1e-9 else { return false }
            }
            // Every box of a text that is not truncated is placed.
            return l.measurement.isTruncated || l.inlineBoxes.count == text.inlineBoxes.count
        }
    }

    @Test func theCentreOfACharactersRectIsThatCharacter() {
        check("rich: hit testing round-trips", Self.cases) { text, width, profile in
            let l = engine.layout(text, style: style(profile), width: width)
            var offset = 0
            for character in text.string {
                let length = character.utf16.count
                defer { offset += length }
                guard let r = l.rects(forCharacters: offset..<(offset + length)).first, r.width > 0.01 else { continue }
                guard let hit = l.characterOffset(at: Point(x: r.midX, y: r.midY)),
                    hit >= offset && hit < offset + length
                else { return false }
            }
            return true
        }
    }
}

import Foundation

extension RichTextPropertyTests {
    @Test func attributedTextRoundTripsThroughJSON() {
        check("rich: Codable round trip", Self.rich) { text in
            guard let data = try? JSONEncoder().encode(text),
                let back = try? JSONDecoder().decode(AttributedText.self, from: data)
            else { return false }
            return back == text
        }
        // The CLI's shape: a string, or runs with an attachment.
        let json = #"[{"text":"Alice ","weight":700},{"attachment":{"width":18,"height":18,"baselineOffset":-3,"id":"avatar"}},{"text":"同意","size":17,"families":"Noto Sans CJK SC"}]"#
        let decoded = try? JSONDecoder().decode(AttributedText.self, from: Data(json.utf8))
        #expect(decoded?.runs.count == 3 && decoded?.inlineBoxes.first?.box.id == "avatar")
        #expect(decoded?.runs[2].attributes.families == ["Noto Sans CJK SC"])
        #expect((try? JSONDecoder().decode(AttributedText.self, from: Data(#""… more""#.utf8))) == AttributedText("… more"))
    }
}

extension RichTextPropertyTests {
    @Test func layoutsWithBoxesAndTokensRoundTripThroughJSON() throws {
        var style = style15()
        style.maxLines = 1
        style.lineBreakMode = .truncatingTail
        style.truncationToken = AttributedText("… more")
        var text = AttributedText("hi ")
        text.append(InlineBox(width: 20, height: 20, baselineOffset: -4, id: "avatar"))
        text.append(" and a long message that will not fit on one line at all")
        let layout = engine.layout(text, style: style, width: 200)
        #expect(!layout.inlineBoxes.isEmpty && layout.truncationToken != nil)
        let back = try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
        #expect(back.inlineBoxes == layout.inlineBoxes)
        #expect(back.truncationToken == layout.truncationToken)
        #expect(back.lines == layout.lines)
    }
}
