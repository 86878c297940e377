import CLIKit
import Plumb

/// Reads the `"runs"` of a JSON Lines cell (and a `truncationToken` given as runs) into an
/// `AttributedText`:
///
/// ```json
/// "runs":[{"text":"Alice ","weight":700},{"text":"replied "},
///         {"attachment":{"width":18,"height":18,"baselineOffset":-3,"id":"avatar"}},
///         {"text":"同意 😀","size":17,"families":["Noto Sans CJK SC"]}]
/// ```
///
/// A run is an object with `"text"` (a string) or `"attachment"` (an inline box), and any of
/// the font fields, each overriding the cell's: `families` (array or comma-separated string),
/// `size`, `weight`, `italic`, `letterSpacing`, `baselineOffset`, `language`, and `color`
/// (drawing only).
/// What cannot be read is an error for the line (an empty list, a run with neither or both of
/// text and attachment, a field of the wrong type, a box without a width or height); unknown
/// fields and an unusable colour are warnings. Numbers of the right type pass to the engine,
/// which replaces unusable ones (a negative box size, a zero font size) and flags the result.
enum RunsField {
    /// The font fields a run may set.
    static let fontFields: Set<String> = [
        "families", "size", "weight", "italic", "letterSpacing", "baselineOffset", "color", "fontStretch", "fontFeatures",
        "fontVariantNumeric", "fontVariations", "language",
    ]

    /// Parses the value of `field` (`runs`, or `truncationToken` given as runs).
    static func parse(_ value: JSONValue, field: String, warnings: inout [String]) -> Result<AttributedText, LineError> {
        guard let list = value.arrayValue else {
            return .failure(LineError("field '\(field)' must be an array of runs, not \(value.kindName)"))
        }
        guard !list.isEmpty else {
            return .failure(LineError("field '\(field)' is empty (give at least one run: {\"text\":…} or {\"attachment\":…})"))
        }
        var text = AttributedText()
        for (i, element) in list.enumerated() {
            let name = "\(field)[\(i)]"
            guard let run = element.objectValue else {
                return .failure(LineError("\(name) must be an object, not \(element.kindName)"))
            }
            switch parseRun(run, name: name, into: &text, warnings: &warnings) {
            case .success: continue
            case .failure(let e): return .failure(e)
            }
        }
        return .success(text)
    }

    /// Appends one run to `text`.
    private static func parseRun(
        _ run: JSONObject, name: String, into text: inout AttributedText, warnings: inout [String]
    ) -> Result<Void, LineError> {
        var attributes = TextAttributes()
        for (key, value) in run.pairs where key != "text" && key != "attachment" {
            guard fontFields.contains(key) else {
                warnings.append("unknown field '\(key)' in \(name) ignored")
                continue
            }
            if let problem = apply(key, value, to: &attributes, name: name, warnings: &warnings) {
                return .failure(LineError(problem))
            }
        }
        switch (run["text"], run["attachment"]) {
        case (nil, nil):
            return .failure(LineError("\(name) has neither 'text' nor 'attachment'"))
        case (.some, .some):
            return .failure(LineError("\(name) has both 'text' and 'attachment' (a run is one or the other)"))
        case (let value?, nil):
            guard let string = value.stringValue else {
                return .failure(LineError("\(name).text must be a string, not \(value.kindName)"))
            }
            text.append(string, attributes)
        case (nil, let value?):
            switch box(value, name: "\(name).attachment", warnings: &warnings) {
            case .success(let b): text.append(b, attributes)
            case .failure(let e): return .failure(e)
            }
        }
        return .success(())
    }

    /// Sets one font field; returns what is wrong with its type, if anything.
    private static func apply(
        _ key: String, _ value: JSONValue, to a: inout TextAttributes, name: String, warnings: inout [String]
    ) -> String? {
        let field = "\(name).\(key)"
        switch key {
        case "families":
            guard case .success(let v) = StyleFields.value(value, for: StyleFields.byField[.families]!) else {
                return "\(field) must be an array of strings or a comma-separated string, not \(value.kindName)"
            }
            a.families = v.strings
        case "size", "letterSpacing", "baselineOffset":
            guard let d = value.doubleValue else { return "\(field) must be a number, not \(value.kindName)" }
            if key == "size" { a.size = d } else if key == "letterSpacing" { a.letterSpacing = d } else { a.baselineOffset = d }
        case "weight":
            guard let d = value.doubleValue, d.rounded() == d, abs(d) < 1e15 else {
                return "\(field) must be an integer, not \(value.kindName)"
            }
            if !(1...1000).contains(d) {
                warnings.append("\(field) \(JSONWriter.encodeToString(.number(d))) is out of range (1–1000); clamped")
            }
            a.weight = Int(min(1000, max(1, d)))
        case "italic":
            guard let b = value.boolValue else { return "\(field) must be true or false, not \(value.kindName)" }
            a.italic = b
        case "language":
            guard let tag = value.stringValue else { return "\(field) must be a string, not \(value.kindName)" }
            a.language = tag
        case "fontStretch":
            guard let d = value.doubleValue else { return "\(field) must be a number, not \(value.kindName)" }
            a.width = d
        case "fontFeatures", "fontVariantNumeric", "fontVariations":
            guard let text = value.stringValue else { return "\(field) must be a string, not \(value.kindName)" }
            let problem: String?
            switch key {
            case "fontFeatures":
                problem = StyleFields.css(text, FontFeature.parse(featureSettings:)) { a.features = FontDescriptor.overriding(a.features ?? [], with: $0) }
            case "fontVariantNumeric":
                problem = StyleFields.css(text, FontFeature.parse(variantNumeric:)) { a.features = FontDescriptor.adding($0, to: a.features ?? []) }
            default:
                problem = StyleFields.css(text, FontVariation.parse(variationSettings:)) { a.variations = $0 }
            }
            if let problem { return "\(field): \(problem)" }
        default:  // color
            guard let c = value.stringValue else { return "\(field) must be a string, not \(value.kindName)" }
            if CSSColor.isValid(c) {
                a.color = c
            } else {
                warnings.append("\(field) '\(c)' is not a color (#rgb, #rrggbb, rgb(…), hsl(…) or a CSS name); ignored")
            }
        }
        return nil
    }

    /// An inline box: `width` and `height` (numbers, required), `baselineOffset` (number,
    /// default 0), `id` (string, optional).
    private static func box(_ value: JSONValue, name: String, warnings: inout [String]) -> Result<InlineBox, LineError> {
        guard let object = value.objectValue else {
            return .failure(LineError("\(name) must be an object with 'width' and 'height', not \(value.kindName)"))
        }
        var numbers: [String: Double] = [:]
        var id: String? = nil
        for (key, v) in object.pairs {
            switch key {
            case "width", "height", "baselineOffset":
                guard let d = v.doubleValue else { return .failure(LineError("\(name).\(key) must be a number, not \(v.kindName)")) }
                numbers[key] = d
            case "id":
                guard let s = v.stringValue else { return .failure(LineError("\(name).id must be a string, not \(v.kindName)")) }
                id = s
            default:
                warnings.append("unknown field '\(key)' in \(name) ignored")
            }
        }
        for key in ["width", "height"] where numbers[key] == nil {
            return .failure(LineError("\(name) has no '\(key)'"))
        }
        return .success(InlineBox(width: numbers["width"]!, height: numbers["height"]!,
                                  baselineOffset: numbers["baselineOffset"] ?? 0, id: id))
    }

    /// A `truncationToken`: a string (one run in the cell's style) or runs.
    static func token(_ value: JSONValue, warnings: inout [String]) -> Result<AttributedText, LineError> {
        if let s = value.stringValue { return .success(AttributedText(s)) }
        guard value.arrayValue != nil else {
            return .failure(LineError("field 'truncationToken' must be a string or an array of runs, not \(value.kindName)"))
        }
        return parse(value, field: "truncationToken", warnings: &warnings)
    }
}
