/// Which colour strings `plumb render` accepts: the CSS colour syntaxes an SVG viewer reads.
/// Anything else is a usage error (the string goes into an SVG attribute as it is).
enum CSSColor {
    /// Whether `text` is a CSS colour: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`,
    /// `rgba(…)`, `hsl(…)`, `hsla(…)` with numeric arguments, or a CSS named colour
    /// (case-insensitive).
    static func isValid(_ text: String) -> Bool {
        let t = text.trimmingSpaces.lowercased()
        if t.hasPrefix("#") {
            let digits = t.dropFirst()
            return [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
        }
        for function in ["rgba(", "rgb(", "hsla(", "hsl("] where t.hasPrefix(function) {
            guard t.hasSuffix(")") else { return false }
            var inner = String(t.dropFirst(function.count).dropLast())
            if function.hasPrefix("hsl") { inner = inner.replacingAll("deg", with: "") }
            let numbers = inner.split { ", /".contains($0) }
            return (3...4).contains(numbers.count)
                && numbers.allSatisfy { Double($0.hasSuffix("%") ? String($0.dropLast()) : String($0))?.isFinite == true }
        }
        return names.contains(t)
    }

    /// CSS Color Module Level 4 named colours, and `transparent`.
    static let names: Set<String> = Set("""
        aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
        burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
        darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid
        darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
        deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
        ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
        lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow
        lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
        lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
        mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise
        mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab
        orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru
        pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
        seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan
        teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent
        """.split { $0 == " " || $0 == "\n" }.map(String.init))
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }
}
