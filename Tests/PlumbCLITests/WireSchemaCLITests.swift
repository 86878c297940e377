import Foundation
import Plumb
import Testing

/// `plumb measure`'s fast parser and the library's `Codable` conformances read the same
/// fields (`CellField`, the one schema) the same way.
@Suite struct WireSchemaCLITests {
    /// A JSON value for a field of this type.
    static func sample(_ kind: CellField.Kind) -> Any {
        switch kind {
        case .any: return 5
        case .string: return "a\tb c d e f g"
        case .runs: return [["text": "a b c ", "weight": 700], ["text": "d e f g"]]
        case .number: return 7.25
        case .integer: return 3
        case .boolean: return true
        case .stringList: return ["DejaVu Sans", "Noto Sans CJK SC"]
        case .choice(let names): return names.last!
        case .tabStops: return [["location": 30, "alignment": "right"], ["location": 61.5]]
        case .numberOrLength: return 3
        }
    }

    /// One line per schema field, that field set: the CLI accepts every one without an
    /// "unknown field" warning or an error, and answers it as the library measures the
    /// `Cell` that `JSONDecoder` makes of the same line.
    @Test func everySchemaFieldIsReadAlikeByTheCLIAndCodable() throws {
        var lines: [[String: Any]] = []
        for field in CellField.allCases {
            var line: [String: Any] = ["id": lines.count, "text": "a\tb c d e f g", "width": 40]
            if field == .runs { line["text"] = nil }
            switch field {
            case .id: line[field.rawValue] = lines.count
            case .fontFeatures: line[field.rawValue] = "'liga' 0, 'tnum'"
            case .fontVariantNumeric: line[field.rawValue] = "tabular-nums"
            case .fontVariations: line[field.rawValue] = "'wght' 450"
            case .fontStretch: line[field.rawValue] = 87.5
            default: line[field.rawValue] = Self.sample(field.kind)
            }
            lines.append(line)
        }
        let input = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
        let run = try CLITests.run(["measure", "--exact-numbers", "--width", "40"], input: Data(input.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = run.lines
        #expect(outputs.count == lines.count)
        let engine = TextMeasurer()
        for (field, (line, output)) in zip(CellField.allCases, zip(lines, outputs)) {
            #expect(!output.contains("unknown field") && !output.contains("\"error\""), "\(field): \(output)")
            let data = try JSONSerialization.data(withJSONObject: line)
            let cell = try JSONDecoder().decode(Cell.self, from: data)
            let scale = line["scale"] as? Double ?? 2
            let m = engine.measure(cell, scale: scale)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            #expect(answer["height"] as? Double == m.height, "\(field): CLI \(output) vs library \(m)")
            #expect(answer["lines"] as? Int == m.lineCount, "\(field)")
        }
    }
}
