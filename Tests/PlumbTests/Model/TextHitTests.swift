@testable import Plumb
import PropertyTesting
import Testing

/// `hit(at:unit:)`: a tap says whether it is on a character, an inline box or the truncation
/// token. Replay a property failure with `PLUMB_PROPERTY_SEED=0x… swift test --filter
/// TextHitTests`.
@Suite struct TextHitTests {
    /// The README's bubble: a bold name, an avatar, a long message cut after two lines with
    /// a bold "… more".
    static func bubble(direction rtl: Bool = false) -> TextLayout {
        var message = AttributedText(rtl ? "אליס" : "Alice", TextAttributes(weight: 700))
        message.append(rtl ? " ענתה " : " replied ")
        message.append(InlineBox(width: 18, height: 18, baselineOffset: -3, id: "avatar"))
        message.append(rtl ? " נתראה בשמונה, ותביאי את הרשימה הארוכה של כל מה שדיברנו עליו" : " See you at 8, and bring the long list of everything we talked about")
        var chat = TextStyle(families: ["Noto Sans", "Noto Sans Hebrew"], size: 15)
        chat.maxLines = 2
        chat.lineBreakMode = .truncatingTail
        chat.truncationToken = AttributedText("… more", TextAttributes(weight: 700))
        return engine.layout(message, style: chat, width: 200)
    }

    /// The issue's case: a tap on "… more" gave the offset of the cut text's last character
    /// (46); it is the token.
    @Test func aTapOnTheTokenIsTheToken() throws {
        for rtl in [false, true] {
            let l = Self.bubble(direction: rtl)
            let token = try #require(l.truncationToken)
            #expect(l.hit(at: Point(x: token.rect.midX, y: token.rect.midY)) == .truncationToken)
            #expect(l.hit(at: Point(x: token.rect.x, y: token.rect.y)) == .truncationToken)  // its first point
            // Beside the line on the token's side: the token is nearest.
            let beside = rtl ? token.rect.x - 5 : token.rect.maxX + 50
            #expect(l.hit(at: Point(x: beside, y: token.rect.midY)) == .truncationToken)
            #expect(l.hit(at: Point(x: token.rect.midX, y: token.rect.maxY + 100)) == .truncationToken)  // below: last line
        }
        // What the offset query answers there (unchanged: the nearest visible character).
        let l = Self.bubble()
        let token = try #require(l.truncationToken)
        #expect(l.characterOffset(at: Point(x: token.rect.midX, y: token.rect.midY)) == 46)
    }

    @Test func aTapOnABoxIsTheBoxAndOnTextACharacter() throws {
        let l = Self.bubble()
        let avatar = try #require(l.inlineBoxes.first)
        #expect(l.hit(at: Point(x: avatar.rect.midX, y: avatar.rect.midY)) == .inlineBox(avatar))
        #expect(l.hit(at: Point(x: avatar.rect.midX, y: 0)) == .inlineBox(avatar))  // above the box, in its line
        #expect(l.hit(at: Point(x: 20, y: 10)) == .character(offset: 3))
        #expect(l.hit(at: Point(x: 20, y: 10), unit: .utf8) == .character(offset: 3))
        #expect(l.hit(at: Point(x: -40, y: 10)) == .character(offset: 0))  // beside the first line
        #expect(l.hit(at: Point(x: .nan, y: 10)) == nil && l.hit(at: Point(x: 3, y: .nan)) == nil)
        #expect(engine.layout("", style: style15(), width: 100).hit(at: Point(x: 0, y: 0)) == nil)
        // After the avatar's U+FFFC comes " See": the space is a character (UTF-16 offset 16).
        let see = try #require(l.rects(forCharacters: 16..<17).first)
        #expect(l.hit(at: Point(x: see.midX, y: see.midY)) == .character(offset: 16))
    }

    /// Over every character's rect, `hit` is that character (as `characterOffset` says), or
    /// its inline box; over the token's rect it is the token.
    @Test func everyCharacterAndBoxIsHitWhereItIsDrawn() {
        var truncating = style15(["Noto Sans", "Noto Sans CJK SC", "Noto Sans Hebrew", "Noto Sans Arabic"])
        truncating.maxLines = 2
        truncating.lineBreakMode = .truncatingMiddle
        truncating.truncationToken = AttributedText("… more")
        let gen = Gen.zip(RichTextPropertyTests.rich, Gen.element(of: [60.0, 150, 300]), Gen.element(of: [style15(), truncating]))
        if let failure = checkProperty("hit where drawn", gen, iterations: 60, { (text: AttributedText, width: Double, style: TextStyle) throws -> Void in
            let l = engine.layout(text, style: style, width: width)
            var offset = 0
            for character in l.text {
                let range = offset..<(offset + character.utf16.count)
                offset = range.upperBound
                for r in l.rects(forCharacters: range) where r.width > 0.01 {
                    let centre = Point(x: r.midX, y: r.midY)
                    switch l.hit(at: centre) {
                    case .character(let hit): try propertyAssert(hit == l.characterOffset(at: centre) && range.contains(hit), "\(range): \(hit)")
                    case .inlineBox(let box): try propertyAssert(range.contains(box.utf16Offset) && character == "\u{FFFC}", "\(range): box \(box)")
                    case .truncationToken, nil: throw PropertyViolation("\(range) at \(r): \(String(describing: l.hit(at: centre)))")
                    }
                }
            }
            if let token = l.truncationToken, token.rect.width > 0.01 {
                try propertyAssert(l.hit(at: Point(x: token.rect.midX, y: token.rect.midY)) == .truncationToken, "token \(token)")
            }
        }) {
            Issue.record("\(failure)")
        }
    }
}
