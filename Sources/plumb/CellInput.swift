import CLIKit
import Plumb

/// One JSON Lines input line after parsing: the cell it asks for, or what is wrong with it.
struct CellInput {
    var line: Int
    var id: JSONValue
    var text: String
    var request: CellRequest
    var warnings: [String]
    var error: String?
}

/// Reads JSON Lines cells: `measure` and `render` share it, so a line asks both for the same
/// layout (fields, types, defaults from the command line, errors and warnings).
struct CellParser {
    /// The request of a line that sets no field (the command-line options).
    let defaults: CellRequest
    var parser = JSONParser()

    init(defaults: CellRequest) { self.defaults = defaults }

    /// Parses one line into a cell request or an error for that line.
    mutating func parse(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> CellInput {
        var input = CellInput(line: number, id: .null, text: "", request: defaults, warnings: [], error: nil)
        let value: JSONValue
        do {
            value = try parser.parse(bytes)
        } catch {
            input.error = bytes.isEmpty ? "empty line" : "invalid JSON: \(error.message)"
            return input
        }
        guard let object = value.objectValue else {
            input.error = "expected a JSON object, not \(value.kindName)"
            return input
        }
        if let id = object["id"] { input.id = id }
        // The parser's count is for this line alone (it restarts at every `parse`).
        if parser.replacedSurrogateCount > 0 {
            input.warnings.append(MeasureWarning.invalidTextRepaired.description)
        }
        for (key, field) in object.pairs {
            switch key {
            case "id": continue
            case "text":
                guard let text = field.stringValue else {
                    input.error = "field 'text' must be a string, not \(field.kindName)"
                    return input
                }
                input.text = text
            default:
                guard let spec = StyleFields.byJSONName[key] else {
                    input.warnings.append("unknown field '\(key)' ignored")
                    continue
                }
                switch StyleFields.value(field, for: spec) {
                case .failure(let e):
                    input.error = e.message
                    return input
                case .success(let v):
                    if let problem = spec.apply(&input.request, v) {
                        input.error = problem
                        return input
                    }
                }
            }
        }
        if object["text"] == nil { input.error = "missing field 'text'" }
        return input
    }
}
