/// Every field of a cell in the JSON Lines wire format (`plumb measure`'s input lines, the
/// `Codable` forms of `Cell`, `TextStyle`, `FontDescriptor` and `DrawingOptions`), declared
/// once: the `Codable` conformances use these cases as their coding keys and the command
/// line's fast parser builds its field table from them, so the two cannot accept different
/// fields.
///
/// A field's default is the value `TextStyle()` (or `Cell.defaultWidth`, scale 2) has.
public enum CellField: String, CaseIterable, CodingKey, Sendable {
    /// The line's id, echoed by the CLI (any JSON value).
    case id
    /// Plain content.
    case text
    /// Attributed content: a string or an array of runs.
    case runs
    /// The layout width in points.
    case width
    /// Device pixels per point (the batch call's argument).
    case scale
    /// The font cascade (`FontDescriptor.families`).
    case families
    /// The font size in points.
    case size
    /// The CSS font weight, 1–1000.
    case weight
    /// Whether to use an italic face.
    case italic
    /// `FontDescriptor.width`: the CSS `font-stretch` percentage (100 normal).
    case fontStretch
    /// `FontDescriptor.features` as a CSS `font-feature-settings` string (`"'tnum', 'liga' 0"`).
    case fontFeatures
    /// More features as a CSS `font-variant-numeric` string (`"tabular-nums"`); `fontFeatures`
    /// wins for a tag both set.
    case fontVariantNumeric
    /// `FontDescriptor.variations` as a CSS `font-variation-settings` string (`"'wght' 450"`).
    case fontVariations
    /// `FontDescriptor.opticalSizing`: `auto` (the default) or `none`, as CSS
    /// `font-optical-sizing`.
    case fontOpticalSizing
    /// Space between lines (`TextStyle.lineSpacing`).
    case lineSpacing
    /// `TextStyle.minimumLineHeight`.
    case minimumLineHeight
    /// `TextStyle.maximumLineHeight`.
    case maximumLineHeight
    /// `TextStyle.lineHeightMultiple`.
    case lineHeightMultiple
    /// `TextStyle.lineHeightEm` (CSS's unitless line-height).
    case lineHeightEm
    /// `TextStyle.paragraphSpacing`.
    case paragraphSpacing
    /// `TextStyle.paragraphSpacingBefore`.
    case paragraphSpacingBefore
    /// `TextStyle.letterSpacing`.
    case letterSpacing
    /// `TextStyle.wordSpacing`.
    case wordSpacing
    /// `TextStyle.tabInterval`.
    case tabInterval
    /// `TextStyle.tabStops`: an array of `{"location", "alignment"}` objects, or the list
    /// string `TabStop.parse(list:)` reads (`"100, 200 right"`).
    case tabStops
    /// `TextStyle.tabSize` (CSS `tab-size`): a number of spaces or a length string (`"28px"`).
    case tabSize
    /// `TextStyle.firstLineHeadIndent`.
    case firstLineHeadIndent
    /// `TextStyle.headIndent`.
    case headIndent
    /// `TextStyle.tailIndent`.
    case tailIndent
    /// `TextStyle.indentEachLine` (CSS `text-indent: … each-line`).
    case indentEachLine
    /// `TextStyle.language` (BCP 47).
    case language
    /// `TextStyle.hyphenation`: `none`, `manual` or `auto`.
    case hyphenation
    /// `TextStyle.hyphenationFactor`.
    case hyphenationFactor
    /// `TextStyle.maxLines`.
    case maxLines
    /// `TextStyle.lineBreakMode`, by case name.
    case lineBreakMode
    /// `TextStyle.heightLimit` (`null`: none).
    case heightLimit
    /// `TextStyle.compatibility`, by case name.
    case compatibility
    /// `TextStyle.alignment`, by case name.
    case alignment
    /// `TextStyle.lastLineAlignment`, by case name (`null`: the default).
    case lastLineAlignment
    /// `TextStyle.whiteSpace`, spelled as in CSS (`"pre-line"`).
    case whiteSpace
    /// `TextStyle.wordBreak`, spelled as in CSS (`"keep-all"`).
    case wordBreak
    /// `TextStyle.overflowWrap`, spelled as in CSS (`"anywhere"`).
    case overflowWrap
    /// `TextStyle.lineBreak`, spelled as in CSS (`"strict"`).
    case lineBreak
    /// `TextStyle.textWrap`, spelled as in CSS (`"balance"`).
    case textWrap
    /// `TextStyle.lineClamp`: a number of lines.
    case lineClamp
    /// Points added to the row's height by `plumb measure --list` (a list row's padding:
    /// `ListRow.extraHeight`).
    case extraHeight
    /// `TextStyle.truncationToken`: a string or runs.
    case truncationToken
    /// `DrawingOptions.usesLineFragmentOrigin`.
    case usesLineFragmentOrigin
    /// `DrawingOptions.usesFontLeading`.
    case usesFontLeading
    /// `DrawingOptions.usesDeviceMetrics`.
    case usesDeviceMetrics
    /// `DrawingOptions.truncatesLastVisibleLine`.
    case truncatesLastVisibleLine

    /// The JSON value a field takes.
    public enum Kind: Hashable, Sendable {
        /// Any JSON value (the CLI echoes it).
        case any
        /// A string.
        case string
        /// Attributed text: a string, or an array of runs (`AttributedText`'s `Codable` form).
        case runs
        /// A number.
        case number
        /// An integral number.
        case integer
        /// `true` or `false`.
        case boolean
        /// An array of strings, or one comma-separated string.
        case stringList
        /// One of these names.
        case choice([String])
        /// Tab stops: an array of `{"location", "alignment"}` objects, or their list string.
        case tabStops
        /// A number, or a CSS length string.
        case numberOrLength
    }

    /// Which value a field belongs to.
    public enum Owner: Hashable, Sendable {
        /// The input line itself: read by the command line, ignored by `Cell(from:)` (`id`
        /// names a line; `scale` is a batch call's argument).
        case line
        /// `Cell`: its content and width.
        case cell
        /// `TextStyle.font`.
        case font
        /// `TextStyle`'s paragraph fields.
        case paragraph
        /// `TextStyle.options`.
        case drawingOption
    }

    /// The field's JSON type.
    public var kind: Kind {
        switch self {
        case .id: .any
        case .text, .fontFeatures, .fontVariantNumeric, .fontVariations, .language: .string
        case .hyphenation: .choice(Hyphenation.allCases.map(\.rawValue))
        case .fontOpticalSizing: .choice(["auto", "none"])
        case .tabStops: .tabStops
        case .tabSize: .numberOrLength
        case .runs, .truncationToken: .runs
        case .families: .stringList
        case .weight, .maxLines, .lineClamp: .integer
        case .italic, .indentEachLine, .usesLineFragmentOrigin, .usesFontLeading, .usesDeviceMetrics, .truncatesLastVisibleLine: .boolean
        case .lineBreakMode: .choice(LineBreakMode.allCases.map(\.rawValue))
        case .compatibility: .choice(Compatibility.allCases.map(\.rawValue))
        case .alignment, .lastLineAlignment: .choice(TextAlignment.allCases.map(\.rawValue))
        case .whiteSpace: .choice(WhiteSpace.allCases.map(\.rawValue))
        case .wordBreak: .choice(WordBreak.allCases.map(\.rawValue))
        case .overflowWrap: .choice(OverflowWrap.allCases.map(\.rawValue))
        case .lineBreak: .choice(LineBreakStrictness.allCases.map(\.rawValue))
        case .textWrap: .choice(TextWrap.allCases.map(\.rawValue))
        case .width, .scale, .size, .fontStretch, .lineSpacing, .minimumLineHeight, .maximumLineHeight, .lineHeightMultiple,
            .lineHeightEm, .paragraphSpacing, .paragraphSpacingBefore, .letterSpacing, .wordSpacing, .tabInterval, .heightLimit,
            .firstLineHeadIndent, .headIndent, .tailIndent, .hyphenationFactor, .extraHeight:
            .number
        }
    }

    /// The value the field sets.
    public var owner: Owner {
        switch self {
        case .id, .scale, .extraHeight: .line
        case .text, .runs, .width: .cell
        case .families, .size, .weight, .italic, .fontStretch, .fontFeatures, .fontVariantNumeric, .fontVariations,
            .fontOpticalSizing:
            .font
        case .usesLineFragmentOrigin, .usesFontLeading, .usesDeviceMetrics, .truncatesLastVisibleLine: .drawingOption
        default: .paragraph
        }
    }

    /// The drawing option a `.drawingOption` field sets (`nil` for other fields).
    public var drawingOption: DrawingOptions? {
        switch self {
        case .usesLineFragmentOrigin: .usesLineFragmentOrigin
        case .usesFontLeading: .usesFontLeading
        case .usesDeviceMetrics: .usesDeviceMetrics
        case .truncatesLastVisibleLine: .truncatesLastVisibleLine
        default: nil
        }
    }

    /// The fields by name, for parsers (one dictionary lookup per key).
    public static let byName: [String: CellField] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}
