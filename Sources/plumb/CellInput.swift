import CLIKit
import Plumb

/// One JSON Lines input line after parsing: the cell it asks for, or what is wrong with it.
struct CellInput {
    var line: Int
    var id: JSONValue
    /// The cell's text: `"text"`, or the flattened `"runs"` (an inline box is U+FFFC).
    var text: String
    /// The cell's runs when it gives `"runs"` instead of `"text"`.
    var runs: AttributedText? = nil
    /// `"truncationToken"`: a string or runs.
    var truncationToken: AttributedText? = nil
    var request: CellRequest
    var warnings: [String]
    var error: String?

    /// The engine's cell for this line: its runs, or its text, in its style and width.
    var cell: Cell {
        if let runs { return Cell(text: runs, style: request.style, width: request.width) }
        return Cell(text: text, style: request.style, width: request.width)
    }
}

/// Reads JSON Lines cells: `measure` and `render` share it, so a line asks both for the same
/// layout (fields, types, defaults from the command line, errors and warnings).
struct CellParser {
    /// The request of a line that sets no field (the command-line options).
    let defaults: CellRequest
    var parser = JSONParser()

    init(defaults: CellRequest) { self.defaults = defaults }

    /// Parses one line into a cell request or an error for that line; nil for a blank line
    /// (empty or only spaces, tabs and carriage returns), which is skipped. Line numbers are
    /// the reader's, so skipped lines still count in the `"line"` of later errors.
    mutating func parse(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> CellInput? {
        if Self.isBlank(bytes) { return nil }
        var input = CellInput(line: number, id: .null, text: "", request: defaults, warnings: [], error: nil)
        read(bytes, into: &input)
        return input
    }

    /// Fills `input` from the line's JSON. One exit for the value (`parse`): returning it
    /// from each of the early exits would copy the whole input, with its style.
    private mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, into input: inout CellInput) {
        let value: JSONValue
        do {
            value = try parser.parse(bytes)
        } catch {
            input.error = "invalid JSON: \(error.message)"
            return
        }
        guard let object = value.objectValue else {
            input.error = "expected a JSON object, not \(value.kindName)"
            return
        }
        // Read first: a line with an error in any field still answers with its id.
        if let id = object["id"] { input.id = id }
        // The parser's count is for this line alone (it restarts at every `parse`).
        if parser.replacedSurrogateCount > 0 {
            input.warnings.append(MeasureWarning.invalidTextRepaired.description)
        }
        let pairs = object.pairs
        let lastOfRepeated = Self.lastIndexOfRepeatedKeys(pairs)
        var warned: Set<String> = []
        // Noted in the one pass over the pairs (two more searches of them, by string
        // comparison, cost ~200 instructions a line).
        var hasText = false, hasRuns = false
        for (i, (key, field)) in pairs.enumerated() {
            // A repeated key: the last value is used (the earlier ones are not read), with a
            // warning once per key.
            if !lastOfRepeated.isEmpty, let last = lastOfRepeated[key], i != last {
                if warned.insert(key).inserted {
                    input.warnings.append("duplicate field '\(key)': the last value is used")
                }
                continue
            }
            guard let name = CellField.byName[key] else {
                input.warnings.append("unknown field '\(key)' ignored")
                continue
            }
            switch name {
            case .id: continue
            case .runs:
                hasRuns = true
                switch RunsField.parse(field, field: "runs", warnings: &input.warnings) {
                case .success(let runs):
                    input.runs = runs
                    input.text = runs.string
                case .failure(let e):
                    input.error = e.message
                    return
                }
            case .truncationToken:
                switch RunsField.token(field, warnings: &input.warnings) {
                case .success(let token): input.truncationToken = token
                case .failure(let e):
                    input.error = e.message
                    return
                }
            case .text:
                hasText = true
                guard let text = field.stringValue else {
                    input.error = "field 'text' must be a string, not \(field.kindName)"
                    return
                }
                input.text = text
            default:
                guard let spec = StyleFields.byField[name] else {
                    input.warnings.append("unknown field '\(key)' ignored")
                    continue
                }
                switch StyleFields.value(field, for: spec) {
                case .failure(let e):
                    input.error = e.message
                    return
                case .success(let v):
                    if let problem = spec.apply(&input.request, v) {
                        input.error = problem
                        return
                    }
                }
            }
        }
        switch (hasText, hasRuns) {
        case (false, false): input.error = "missing field 'text' (or 'runs')"
        case (true, true): input.error = "give 'text' or 'runs', not both"
        default: break
        }
        if let token = input.truncationToken { input.request.style.truncationToken = token }
    }

    /// Whether a line is blank: empty or only spaces, tabs and carriage returns.
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The index of the last pair of each key that occurs more than once (usually none).
    ///
    /// - Complexity: O(n²) comparisons for the few keys of a cell (no allocation when no key
    ///   repeats), O(n) through a dictionary beyond 32 keys.
    static func lastIndexOfRepeatedKeys(_ pairs: [JSONObject.Pair]) -> [String: Int] {
        var out: [String: Int] = [:]
        if pairs.count <= 32 {
            for i in pairs.indices where pairs[..<i].contains(where: { $0.key == pairs[i].key }) {
                out[pairs[i].key] = i
            }
            return out
        }
        var last: [String: Int] = [:]
        var count: [String: Int] = [:]
        for (i, p) in pairs.enumerated() {
            last[p.key] = i
            count[p.key, default: 0] += 1
        }
        for (key, n) in count where n > 1 { out[key] = last[key] }
        return out
    }
}
