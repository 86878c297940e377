import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// The `Codable` conformances: the JSON Lines shape of `plumb measure`, round trips through
/// Foundation's coders, and the CLI's validation (unknown enum values are errors). Replay a
/// property failure with `PLUMB_PROPERTY_SEED=0x… swift test --filter CodableTests`.
@Suite struct CodableTests {
    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 100, _ body: @escaping (T) throws -> Void) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) { Issue.record("\(failure)") }
    }

    func roundTrip<T: Codable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        let encoder = JSONEncoder()
        encoder.userInfo = userInfo
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        return try decoder.decode(T.self, from: encoder.encode(value))
    }

    func decode<T: Decodable>(_ type: T.Type, _ json: String, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        return try decoder.decode(type, from: Data(json.utf8))
    }

    /// Every field of a style, any value a user could set (finite numbers: JSON has no NaN).
    static let styles: Gen<TextStyle> = {
        let font = Gen.zip(
            Gen.element(of: [["Noto Sans"], ["Noto Sans", "Noto Sans CJK SC"], [], ["Noto Serif", "Noto Color Emoji", "DejaVu Sans"]]),
            Gen.edgyDouble(in: 0...200), Gen.int(in: -10...1100), Gen.bool
        ).map { FontDescriptor(families: $0, size: $1.isFinite ? $1 : 0, weight: $2, italic: $3) }
        let number = Gen.double(in: -50...500)
        let paragraph = Gen.zip(Gen.zip(number, number, number, number), Gen.zip(number, number, number, number))
        let enums = Gen.zip(Gen.element(of: LineBreakMode.allCases), Gen.element(of: Compatibility.allCases),
                            Gen.element(of: TextAlignment.allCases), Gen.int(in: 0...15))
        let limits = Gen.zip(Gen.int(in: -3...20), Gen.double(in: 0...1000).optional)
        return Gen.zip(font, paragraph, enums, limits).map { font, paragraph, enums, limits in
            var s = TextStyle(font: font)
            ((s.lineSpacing, s.minimumLineHeight, s.maximumLineHeight, s.lineHeightMultiple),
             (s.paragraphSpacing, s.paragraphSpacingBefore, s.letterSpacing, s.tabInterval)) = paragraph
            s.lineBreakMode = enums.0
            s.compatibility = enums.1
            s.alignment = enums.2
            s.options = DrawingOptions(rawValue: UInt8(enums.3))
            (s.maxLines, s.heightLimit) = limits
            return s
        }
    }()

    @Test func stylesAndCellsRoundTrip() {
        check("style round trip", Self.styles) { style in
            try propertyAssert(try self.roundTrip(style) == style, "style \(style)")
            try propertyAssert(try self.roundTrip(style.font) == style.font, "font \(style.font)")
            try propertyAssert(try self.roundTrip(style.options) == style.options, "options \(style.options)")
        }
        let cells = Gen.zip(Gen<String>.text(maxClusters: 30), Self.styles, Gen.double(in: -10...2000))
            .map { Cell(text: $0, style: $1, width: $2) }
        check("cell round trip", cells) { cell in
            try propertyAssert(try self.roundTrip(cell) == cell, "cell \(cell)")
        }
    }

    static let warnings: Gen<MeasureWarning> = {
        let number = Gen.frequency([(4, Gen.double(in: -1e6...1e6)), (1, Gen.element(of: [Double.infinity, -.infinity, 0, -0.0]))])
        let name = Gen.element(of: ["lineSpacing", "Noto Sans", "", "é \"quoted\" 😀"])
        let count = Gen.int(in: 0...Int(Int32.max))
        return Gen.zip(Gen.int(in: 0...11), Gen.zip(number, number), Gen.zip(name, name), Gen.zip(count, count))
            .map { code, numbers, names, counts -> MeasureWarning in
                switch code {
                case 0: .unmeasurableWidth(numbers.0)
                case 1: .invalidFontSize(numbers.0, replacement: numbers.1)
                case 2: .invalidScale(numbers.0, replacement: numbers.1)
                case 3: .invalidSpacing(field: names.0, value: numbers.0)
                case 4: .unknownFontFamily(names.0)
                case 5: .cascadeFellBackToDefault(names.1)
                case 6: .invalidTextRepaired
                case 7: .heightLimitBelowFirstLine(numbers.1)
                case 8: .missingGlyphs(count: counts.0)
                case 9: .invalidValue(field: names.0, description: names.1)
                case 10: .noFontsAvailable
                default: .textTooLong(bytes: counts.0, limit: counts.1)
                }
            }
    }()

    @Test func measurementsAndWarningsRoundTrip() throws {
        let measurements = Gen.zip(Gen.double(in: 0...5000), Gen.double(in: 0...5000), Gen.int(in: 0...500),
                                   Gen.zip(Gen.bool, Gen.array(of: Self.warnings, count: 0...3)))
            .map { TextMeasurement(size: Size(width: $0, height: $1), lineCount: $2, isTruncated: $3.0, warnings: $3.1) }
        check("measurement round trip", measurements) { m in
            try propertyAssert(try self.roundTrip(m) == m, "measurement \(m)")
        }
        // Every case is generated (the property's generator covers codes 0…11).
        #expect(MeasureWarning.codes.count == 12)
        // A NaN value (the most common warning: a NaN width) encodes with default settings.
        let nan = try roundTrip(MeasureWarning.unmeasurableWidth(.nan))
        guard case .unmeasurableWidth(let w) = nan else { Issue.record("decoded \(nan)"); return }
        #expect(w.isNaN)
        let json = String(decoding: try JSONEncoder().encode(MeasureWarning.invalidScale(.nan, replacement: 2)), as: UTF8.self)
        #expect(json.contains(#""value":"NaN""#) && json.contains(#""code":"invalidScale""#) && json.contains(#""message":"scale nan is invalid; used 2.0""#))
    }

    /// Real layouts (astral emoji, combining marks, right-to-left text, truncation at every
    /// placement) survive encode → decode, lines and string indexes included.
    @Test func layoutsRoundTrip() {
        let gen = Gen.zip(Gen<String>.text(maxClusters: 40), Gen.element(of: LineBreakMode.allCases),
                          Gen.int(in: 0...3), Gen.double(in: 40...300))
        check("layout round trip", gen, iterations: 80) { text, mode, maxLines, width in
            var style = style15()
            style.lineBreakMode = mode
            style.maxLines = maxLines
            let layout = engine.layout(text, style: style, width: width.rounded())
            let back = try self.roundTrip(layout)
            try propertyAssert(back.text == layout.text && back.measurement == layout.measurement
                                   && back.exactHeight == layout.exactHeight && back.scale == layout.scale,
                               "layout fields of \(text.debugDescription)")
            try propertyAssert(back.lines == layout.lines, "lines of \(text.debugDescription): \(back.lines) vs \(layout.lines)")
        }
        // A truncated line, so the truncation ranges are exercised for sure.
        var style = style15()
        style.maxLines = 1
        style.lineBreakMode = .truncatingMiddle
        let truncated = engine.layout("The quick brown fox jumps over the lazy dog 🦊 again", style: style, width: 120)
        #expect(truncated.lines.first?.truncation != nil)
        #expect((try? roundTrip(truncated).lines) == truncated.lines)
    }

    @Test func aLoneLineNeedsItsText() throws {
        let layout = engine.layout("ab 😀 cd e\u{301}f", style: style15(), width: 40)
        let line = try #require(layout.lines.last)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(line) }
        let withText: [CodingUserInfoKey: any Sendable] = [LayoutLine.textUserInfoKey: layout.text]
        #expect(try roundTrip(line, userInfo: withText) == line)
        let encoder = JSONEncoder()
        encoder.userInfo = withText
        let data = try encoder.encode(line)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LayoutLine.self, from: data) }
        // Offsets past the text are an error, not a trap.
        #expect(throws: DecodingError.self) {
            try decode(LayoutLine.self, #"{"start":0,"end":99,"rect":[0,0,1,1],"baseline":1,"usedWidth":1,"hangingWidth":0,"naturalHeight":1,"gapAfter":0,"endsParagraph":true}"#,
                       userInfo: [LayoutLine.textUserInfoKey: "short"])
        }
    }

    /// The JSON field names are the CLI's: every style field the README lists for an input
    /// line is a key of an encoded `Cell` (plus `scale`, a batch parameter), and nothing else.
    @Test func fieldNamesAreTheCLIs() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let sentence = try #require(readme.components(separatedBy: "any style field (").dropFirst().first?
            .components(separatedBy: ")").first)
        let listed = Set(sentence.matches(of: /`(\w+)`/).map { String($0.output.1) })
        var style = TextStyle()
        style.heightLimit = 100
        style.tabSize = .length(20)
        style.language = "en"
        style.hyphenation = .auto
        (style.lastLineAlignment, style.whiteSpace, style.wordBreak) = (.justified, .pre, .breakAll)
        (style.overflowWrap, style.lineBreak, style.textWrap, style.lineClamp) = (.breakWord, .loose, .wrap, 1)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Cell(text: "a", style: style, width: 1))) as? [String: Any]
        let keys = Set(try #require(object).keys)
        #expect(keys.subtracting(["text"]) == listed.subtracting(["scale"]))
        let output = try JSONSerialization.jsonObject(with: JSONEncoder().encode(
            TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: [.unmeasurableWidth(0)]))) as? [String: Any]
        #expect(Set(try #require(output).keys) == ["height", "width", "lines", "truncated", "fallback", "warnings"])
    }

    /// The README's command-line example, decoded with Foundation: its input lines (with the
    /// command's `--size 15 --width 200` as decoding defaults) measure to its output lines.
    @Test func theReadmeExamplesDecode() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The plain cells (the rich-cell example's runs and boxes are the CLI's, not `Cell`'s).
        let objects = readme.matches(of: /\{"id":[^'\n]*\}/).map { String($0.output) }
            .filter { !$0.contains(#""runs""#) && !$0.contains(#""boxes""#) }
        let inputs = objects.filter { $0.contains(#""text""#) }, outputs = objects.filter { $0.contains(#""height""#) }
        #expect(inputs.count == 2 && outputs.count == 2)
        var defaults = TextStyle()
        defaults.font.size = 15
        let userInfo: [CodingUserInfoKey: any Sendable] = [TextStyle.decodingDefaultsKey: defaults, Cell.decodingDefaultWidthKey: 200.0]
        struct Starts: Decodable { var lineStarts: [Int] }
        for (input, output) in zip(inputs, outputs) {
            let cell = try decode(Cell.self, input, userInfo: userInfo)
            let expected = try decode(TextMeasurement.self, output)
            let layout = engine.layout(cell.text, style: cell.style, width: cell.width)
            #expect(layout.measurement == expected, "\(input)")
            #expect(layout.lines.map(\.scalarRange.lowerBound) == (try decode(Starts.self, output)).lineStarts)
        }
        // The shipped example file: every line is a cell; spot-check the fields.
        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("Documentation/examples/cells.jsonl"), encoding: .utf8)
        let cells = try file.split(separator: "\n").map { try decode(Cell.self, String($0)) }
        #expect(cells.count == 7)
        #expect(cells[1].style.lineSpacing == 6 && cells[1].width == 320)
        #expect(cells[4].style.lineBreakMode == .truncatingTail && cells[4].style.maxLines == 2)
        #expect(cells[0].width == Cell.defaultWidth && cells[0].style == TextStyle())
    }

    /// Decoding validates as `plumb measure` does.
    @Test func decodingValidatesLikeTheCLI() throws {
        func message(_ json: String) -> String? {
            do {
                _ = try decode(Cell.self, json)
                return nil
            } catch let DecodingError.dataCorrupted(context) {
                return context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        #expect(message(#"{"text":"a","lineBreakMode":"wrap"}"#)
            == "unknown lineBreakMode 'wrap' (one of wordWrapping, charWrapping, clipping, truncatingHead, truncatingMiddle, truncatingTail)")
        #expect(message(#"{"text":"a","compatibility":"webkit"}"#) == "unknown compatibility 'webkit' (one of standard, pango, chromium)")
        #expect(message(#"{"text":"a","alignment":"justify"}"#)?.hasPrefix("unknown alignment 'justify'") == true)
        #expect(throws: DecodingError.self) { try decode(Cell.self, #"{"width":3}"#) }             // no text
        #expect(throws: DecodingError.self) { try decode(Cell.self, #"{"text":"a","maxLines":1.5}"#) }
        #expect(throws: DecodingError.self) { try decode(Cell.self, #"{"text":"a","size":"big"}"#) }
        #expect(throws: DecodingError.self) { try decode(Cell.self, #"{"text":"a","families":[1]}"#) }
        #expect(throws: DecodingError.self) { try decode(MeasureWarning.self, #"{"code":"tooBlue"}"#) }
        // The --families flag's comma-separated form is accepted too; unknown fields are ignored.
        let cell = try decode(Cell.self, #"{"id":7,"text":"a","families":"Noto Sans, Noto Sans CJK SC","usesFontLeading":false,"heightLimit":null,"bogus":1}"#)
        #expect(cell.style.font.families == ["Noto Sans", "Noto Sans CJK SC"])
        #expect(cell.style.options == [.usesLineFragmentOrigin])
        #expect(cell.style.heightLimit == nil)
    }
}
