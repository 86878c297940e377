import Foundation
@testable import Plumb
import Testing

/// The wire schema (`CellField`) is the one list of fields: `Codable` reads and writes every
/// field it gives a value, and nothing else.
@Suite struct WireSchemaTests {
    /// A JSON value for `field` that differs from its default in `defaults` (the encoded
    /// `Cell` of a default style).
    static func sample(_ field: CellField, defaults: [String: Any]) -> Any {
        switch field {
        case .fontFeatures: return "\"liga\" 0, \"tnum\""
        case .fontVariantNumeric: return "tabular-nums"
        case .fontVariations: return "\"wght\" 450"
        default: break
        }
        switch field.kind {
        case .any: return 5
        case .string: return "x"
        case .runs: return "… more"
        case .number: return 7.25
        case .integer: return 3
        case .boolean: return !((defaults[field.rawValue] as? Bool) ?? false)
        case .stringList: return ["DejaVu Sans"]
        case .choice(let names): return names.first { $0 != defaults[field.rawValue] as? String }!
        case .tabStops: return [["location": 30.5, "alignment": "right"]]
        case .numberOrLength: return "28px"
        }
    }

    /// Every field `Cell(from:)` owns decodes and encodes back to the value given: a field
    /// the schema lists but `Codable` skipped would come back as its default.
    @Test func codableReadsAndWritesEverySchemaField() throws {
        let defaults = try #require(JSONSerialization.jsonObject(
            with: JSONEncoder().encode(Cell(text: "a", style: TextStyle(), width: 375))) as? [String: Any])
        for field in CellField.allCases where field.owner != .line && field != .text && field != .runs {
            let value = Self.sample(field, defaults: defaults)
            let line = try JSONSerialization.data(withJSONObject: ["text": "a", field.rawValue: value])
            let cell = try JSONDecoder().decode(Cell.self, from: line)
            let encoded = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(cell)) as? [String: Any])
            if field == .fontVariantNumeric {
                // Input only: its features are written as `fontFeatures`.
                #expect(encoded[CellField.fontFeatures.rawValue] as? String == "\"tnum\"")
                continue
            }
            let back = try #require(encoded[field.rawValue], "\(field) is not encoded")
            let json = { (v: Any) in try JSONSerialization.data(withJSONObject: [v], options: .sortedKeys) }  // an object (tab stops) in one key order
            #expect(try json(back) == json(value), "\(field): \(back) after decoding \(value)")
        }
    }

    /// An encoded cell holds exactly the schema's cell, font, paragraph and option fields
    /// (the content as `text` or `runs`), and nothing the schema does not name.
    @Test func encodedCellsHoldOnlySchemaFields() throws {
        var style = TextStyle()
        style.heightLimit = 40
        style.truncationToken = AttributedText("…")
        style.tabSize = .spaces(4)
        style.language = "de"
        style.hyphenation = Hyphenation.none
        (style.lastLineAlignment, style.whiteSpace, style.wordBreak) = (.center, .preLine, .keepAll)
        (style.overflowWrap, style.lineBreak, style.textWrap, style.lineClamp) = (.anywhere, .strict, .balance, 2)
        for cell in [Cell(text: "a", style: style, width: 9), Cell(text: AttributedText("a", TextAttributes(weight: 700)), style: style, width: 9)] {
            let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(cell)) as? [String: Any])
            let expected = Set(CellField.allCases.filter { $0.owner != .line }.map(\.rawValue))
                .subtracting([cell.attributedText == nil ? "runs" : "text", CellField.fontVariantNumeric.rawValue])
            #expect(Set(object.keys) == expected)
        }
    }
}
