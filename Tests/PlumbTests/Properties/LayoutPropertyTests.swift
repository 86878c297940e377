@testable import Plumb
import PropertyTesting
import Testing

/// Property-based tests of the measuring core. Replay a failure with the seed it prints:
/// `PLUMB_PROPERTY_SEED=0x… swift test --filter LayoutPropertyTests`.
@Suite struct LayoutPropertyTests {
    /// A generated cell: text, style and width (possibly absurd numbers).
    struct Cell: CustomStringConvertible {
        var text: String
        var style: TextStyle
        var width: Double
        var scale: Double
        var description: String {
            "text: \(text.debugDescription) width: \(width) scale: \(scale) size: \(style.font.size) spacing: \(style.lineSpacing) para: \(style.paragraphSpacing) min/max/mul: \(style.minimumLineHeight)/\(style.maximumLineHeight)/\(style.lineHeightMultiple) maxLines: \(style.maxLines) mode: \(style.lineBreakMode) letter: \(style.letterSpacing)"
        }
    }

    static let families: [[String]] = [
        ["Noto Sans", "Noto Sans CJK SC"], ["Noto Sans"], ["Noto Sans CJK SC"], ["DejaVu Sans"],
        ["Noto Serif", "Noto Serif CJK SC"],
    ]

    /// Ordinary styles (every number valid) with a given text generator.
    static func cells(text: Gen<String>, widths: ClosedRange<Double> = 20...500) -> Gen<Cell> {
        let style = Gen.zip(
            Gen.element(of: families), Gen.double(in: 8...30), Gen.double(in: 0...12),
            Gen.double(in: 0...20)
        ).flatMap { families, size, spacing, para in
            Gen.zip(
                Gen.zip(Gen.int(in: 0...3), Gen.element(of: Compatibility.allCases)),
                Gen.element(of: [0.0, 0, 1.2, 1.5]), Gen.element(of: [0.0, 0, 18, 30]), Gen.element(of: [0.0, 0, 0, 1.5, -0.5]))
                .map { limitsAndProfile, multiple, minLH, letter -> TextStyle in
                    let (maxLines, profile) = limitsAndProfile
                    var s = TextStyle(families: families, size: size.rounded())
                    s.compatibility = profile
                    s.lineSpacing = spacing.rounded()
                    s.paragraphSpacing = para.rounded()
                    s.maxLines = maxLines == 3 ? 2 : 0
                    s.lineHeightMultiple = multiple
                    s.minimumLineHeight = minLH
                    s.letterSpacing = letter
                    return s
                }
        }
        return Gen.zip(text, style, Gen.double(in: widths), Gen.element(of: [2.0, 3.0, 1.0]))
            .map { Cell(text: $0, style: $1, width: $2.rounded(), scale: $3) }
    }

    static let mixedText = Gen<String>.text(maxClusters: 40)

    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 60, _ body: @escaping (T) throws -> Void) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) {
            Issue.record("\(failure)")
        }
    }

    @Test func heightsAreFiniteNonNegativeAndOnTheGrid() {
        // Absurd numbers everywhere.
        let gen = Gen.zip(
            Self.mixedText, Gen.edgyDouble(in: 0...400), Gen.edgyDouble(in: 0...40),
            Gen.edgyDouble(in: 0...3)
        ).flatMap { text, width, size, scale in
            Gen.zip(Gen.edgyDouble(in: 0...20), Gen.edgyDouble(in: 0...40), Gen.edgyDouble(in: 0...500), Gen.int(in: -2...4))
                .map { spacing, minLH, limit, maxLines -> Cell in
                    var s = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: size)
                    s.lineSpacing = spacing
                    s.paragraphSpacingBefore = spacing
                    s.minimumLineHeight = minLH
                    s.maximumLineHeight = minLH / 2
                    s.heightLimit = limit
                    s.maxLines = maxLines
                    s.letterSpacing = spacing - 5
                    s.lineHeightMultiple = scale
                    return Cell(text: text, style: s, width: width, scale: scale)
                }
        }
        check("finite on grid", gen, iterations: 150) { cell in
            let l = engine.layout(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
            let scale = cell.scale.isFinite && cell.scale > 0 ? min(cell.scale, 100) : 2
            for v in [l.size.width, l.size.height] {
                try propertyAssert(v.isFinite && v >= 0, "non-finite or negative size \(v)")
                let px = v * scale
                // On the grid to double precision: a height of 10⁸ points (absurd multiples are
                // clamped, not rejected) has no closer representable value than a few ulps.
                try propertyAssert(abs(px - px.rounded()) <= max(1e-6, 4 * px.ulp), "off the grid: \(v) at \(scale)x")
            }
            for line in l.lines {
                for v in [line.rect.y, line.rect.height, line.usedWidth, line.baseline] {
                    try propertyAssert(v.isFinite && v >= 0, "line number \(v)")
                }
            }
        }
    }

    @Test func heightNeverGrowsWhenWidthGrows() {
        // One font per text: with mixed fonts a wider box can legitimately move a tall glyph
        // onto a line that was short (documented in Decisions.md).
        let latin = Gen<String>.text(maxClusters: 40, pieces: [.asciiWords, .spaces, .punctuation, .digits, .latinPrecomposed, .longWords, .hardBreaks, .nbsp, .zwsp])
        let gen = Gen.zip(Self.cells(text: latin), Gen.double(in: 0...300))
        check("monotone in width", gen) { cell, extra in
            var style = cell.style
            style.font.families = ["Noto Sans"]
            // With maxLines a wider box can show a paragraph gap that was cut off before, so
            // monotonicity is a property of untruncated layouts.
            style.maxLines = 0
            // Texts that need a fallback font (e.g. 「) are outside this property.
            guard engine.compute(cell.text, style: engine.resolve(style), width: 100, scale: 2, extraWarnings: []).prepared.map({ $0.fonts.count == 1 }) ?? true else { return }
            let narrow = engine.measure(cell.text, style: style, width: cell.width, scale: cell.scale)
            let wide = engine.measure(cell.text, style: style, width: cell.width + extra.rounded(), scale: cell.scale)
            try propertyAssert(wide.height <= narrow.height, "narrow \(narrow) wide \(wide)")
            try propertyAssert(wide.lineCount <= narrow.lineCount, "lines narrow \(narrow.lineCount) wide \(wide.lineCount)")
        }
    }

    @Test func relayoutAtTheMeasuredWidthGivesTheSameLines() {
        check("relayout at own width", Self.cells(text: Self.mixedText)) { cell in
            var style = cell.style
            style.maxLines = 0
            // Pango lets a trailing space hang only while the line up to it fits, so where a
            // run of spaces wraps depends on more than the measured (visible) width.
            if style.compatibility == .pango { style.compatibility = .standard }
            let first = engine.layout(cell.text, style: style, width: cell.width, scale: cell.scale)
            // When one cluster alone is wider than the box the text overflows it; the measured
            // width then exceeds the box and is not a width the text was laid out in.
            guard first.size.width > 0, first.size.width <= cell.width else { return }
            let again = engine.layout(cell.text, style: style, width: first.size.width, scale: cell.scale)
            try propertyAssert(again.lines.map(\.utf8Range) == first.lines.map(\.utf8Range),
                               "\(first.lines.map(\.utf8Range)) vs \(again.lines.map(\.utf8Range))")
            try propertyAssert(again.size == first.size, "\(first.size) vs \(again.size)")
        }
    }

    @Test func heightIsLineHeightsPlusNMinusOneGaps() {
        check("n − 1 gaps", Self.cells(text: Self.mixedText)) { cell in
            let l = engine.layout(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
            let n = l.lineCount
            guard n > 0 else { return }
            let paragraphGaps = l.lines.dropLast().filter(\.endsParagraph).count
            let expected = l.lines.reduce(0) { $0 + $1.rect.height }
                + Double(n - 1) * cell.style.lineSpacing
                + Double(paragraphGaps) * (cell.style.paragraphSpacing + cell.style.paragraphSpacingBefore)
            try propertyAssert(abs(l.exactHeight - expected) < 1e-6, "height \(l.exactHeight) expected \(expected)")
            try propertyAssert(l.size.height == PixelGrid(scale: cell.scale).ceil(expected), "ceil")
        }
    }

    @Test func aSingleLineIgnoresLineSpacing() {
        let oneLine = Gen<String>.text(maxClusters: 6, pieces: [.asciiWords, .han, .singleEmoji])
        check("single line", Gen.zip(oneLine, Gen.double(in: 0...50))) { text, spacing in
            var s = style15()
            let base = engine.layout(text, style: s, width: .infinity)
            s.lineSpacing = spacing
            s.paragraphSpacing = spacing
            let spaced = engine.layout(text, style: s, width: .infinity)
            guard base.lineCount == 1 else { return }
            try propertyAssert(spaced.exactHeight == base.lines[0].rect.height, "\(spaced.exactHeight)")
        }
    }

    @Test func maxLinesNeverIncreasesTheCount() {
        check("maxLines", Gen.zip(Self.cells(text: Self.mixedText), Gen.int(in: 1...4))) { cell, k in
            var s = cell.style
            s.maxLines = 0
            let all = engine.measure(cell.text, style: s, width: cell.width)
            s.maxLines = k
            let cut = engine.measure(cell.text, style: s, width: cell.width)
            try propertyAssert(cut.lineCount <= min(k, all.lineCount), "\(cut.lineCount) > min(\(k), \(all.lineCount))")
            try propertyAssert(cut.isTruncated == (all.lineCount > k), "truncated flag")
            try propertyAssert(cut.height <= all.height, "height grew")
        }
    }

    @Test func fallbackResultsAreFlagged() {
        let bad = Gen.element(of: [Double.nan, 0, -1, -Double.infinity])
        check("fallback flagged", Gen.zip(Self.mixedText, bad)) { text, width in
            let m = engine.measure(text, style: style15(), width: width)
            try propertyAssert(text.isEmpty || m.isFallback, "not flagged")
            try propertyAssert(m.height.isFinite && m.height >= 0, "height")
        }
    }

    @Test func linesNeverExceedTheWidthUnlessOneClusterDoes() {
        check("lines fit", Self.cells(text: Self.mixedText)) { cell in
            var s = cell.style
            s.maxLines = 0
            let l = engine.layout(cell.text, style: s, width: cell.width)
            // The chromium profile lets a line overflow by less than Blink's 1/64-px layout unit.
            let slack = s.compatibility == .chromium ? 1.0 / 64 : 1e-6
            for (i, line) in l.lines.enumerated() where line.usedWidth > cell.width + slack {
                var visible = l.text(ofLine: i)
                while let last = visible.last, last == " " || last == "\t" { visible = visible.dropLast() }
                try propertyAssert(visible.count == 1, "line \(i) \(line.usedWidth) > \(cell.width): \(l.text(ofLine: i).debugDescription)")
            }
        }
    }
}

/// Quotation marks in CJK text (issue 30, item 2): in every profile, no line starts with
/// closing punctuation right after a closing quote, and no line ends with an opening bracket
/// right before an opening quote. Lines are at least ten characters wide and no run of
/// punctuation is longer than four, so no unit overflows a line (an overflowing one may break
/// anywhere, `overflow-wrap: break-word`).
extension LayoutPropertyTests {
    static let ideographs = Gen<String>.element(of: ["中", "文", "引", "用", "你", "好", "说", "了", "我", "们"])
    static let closing = Gen<String>.element(of: ["。", "，", "、", "）", "！", "？", "：", "；", "」"])
    /// Ideographs with quoted phrases, brackets and closing punctuation between them.
    static let quotedCJK: Gen<String> = Gen.array(
        of: Gen.frequency([
            (4, ideographs),
            (1, Gen.zip(Gen.element(of: [("“", "”"), ("‘", "’")]), Gen.array(of: ideographs, count: 1...3), closing)
                .map { quotes, inside, after in quotes.0 + inside.joined() + quotes.1 + after }),
            (1, Gen.zip(Gen.element(of: [("（“", "”）"), ("「‘", "’」")]), Gen.array(of: ideographs, count: 1...2))
                .map { brackets, inside in brackets.0 + inside.joined() + brackets.1 }),
        ]), count: 4...30
    ).map { $0.joined() }

    @Test func noLineStartsWithClosingPunctuationAfterAQuote() {
        let closingAfterQuote: Set<Character> = ["。", "，", "、", "）", "！", "？", "：", "；", "」"]
        let gen = Gen.zip(Self.quotedCJK, Gen.double(in: 150...400), Gen.element(of: Compatibility.allCases))
        check("CJK quotes", gen, iterations: 150) { text, width, profile in
            let layout = engine.layout(text, style: profiled(profile, ["Noto Sans CJK SC"]), width: width.rounded())
            let scalars = Array(text.unicodeScalars).map(Character.init)
            for line in layout.lines.dropFirst() {
                let s = line.scalarRange.lowerBound
                let startsBadly = closingAfterQuote.contains(scalars[s]) && "”’".contains(scalars[s - 1])
                let endsBadly = "“‘".contains(scalars[s]) && "（「".contains(scalars[s - 1])
                try propertyAssert(!startsBadly && !endsBadly, "\(profile) at \(width.rounded()): a line starts at \(s)")
            }
        }
    }
}

/// Indents (issue 27, item 1): a head indent on every line and a tail indent are a narrower
/// box moved right, and the measured width of an indented layout lays it out again the same.
extension LayoutPropertyTests {
    /// Whole-point indents: on every scale's pixel grid (the box width is snapped to it, the
    /// indents are not) and exact in every profile's arithmetic.
    static let indentValues = Gen.int(in: 0...40).map { Double($0) }

    @Test func uniformIndentsAreANarrowerBoxMovedRight() {
        let gen = Gen.zip(Self.cells(text: Self.mixedText, widths: 120...500), Self.indentValues, Self.indentValues)
        check("uniform indents", gen) { cell, head, tail in
            var s = cell.style
            s.maxLines = 0
            let narrow = engine.layout(cell.text, style: s, width: cell.width - head - tail, scale: cell.scale)
            s.firstLineHeadIndent = head
            s.headIndent = head
            s.tailIndent = -tail
            let indented = engine.layout(cell.text, style: s, width: cell.width, scale: cell.scale)
            try propertyAssert(indented.lines.map(\.utf8Range) == narrow.lines.map(\.utf8Range),
                               "\(indented.lines.map(\.utf8Range)) vs \(narrow.lines.map(\.utf8Range))")
            try propertyAssert(indented.size.height == narrow.size.height, "\(indented.size) vs \(narrow.size)")
            for (a, b) in zip(indented.lines, narrow.lines) where a.direction == .leftToRight {
                try propertyAssert(abs(a.rect.x - (b.rect.x + head)) < 1e-9, "x \(a.rect.x) vs \(b.rect.x) + \(head)")
            }
        }
    }

    @Test func relayoutAtTheMeasuredWidthKeepsIndentedLines() {
        let gen = Gen.zip(Self.cells(text: Self.mixedText), Self.indentValues, Self.indentValues, Self.indentValues)
        check("indented relayout", gen) { cell, first, head, tail in
            var s = cell.style
            s.maxLines = 0
            if s.compatibility == .pango { s.compatibility = .standard }  // see relayoutAtTheMeasuredWidth…
            s.firstLineHeadIndent = first
            s.headIndent = head
            s.tailIndent = -tail
            let l = engine.layout(cell.text, style: s, width: cell.width, scale: cell.scale)
            guard l.size.width > 0, l.size.width <= cell.width, !l.lines.isEmpty else { return }
            // Every line fits between its indents unless it is one cluster.
            for (i, line) in l.lines.enumerated() where line.direction == .leftToRight
                && line.rect.x + line.usedWidth > cell.width - tail + 1.0 / 64 {
                try propertyAssert(l.text(ofLine: i).trimmingCharacters(in: .whitespaces).count <= 1, "line \(i) overflows")
            }
            let again = engine.layout(cell.text, style: s, width: l.size.width, scale: cell.scale)
            try propertyAssert(again.lines.map(\.utf8Range) == l.lines.map(\.utf8Range),
                               "\(l.lines.map(\.utf8Range)) vs \(again.lines.map(\.utf8Range))")
        }
    }
}

/// Hyphenation (issue 27, item 3): a hyphenated line fits with its hyphen (or holds one piece
/// that cannot be broken further), only lines that break a word show one, heights stay on the
/// grid, and without soft hyphens `manual` lays out exactly as `none` under TextKit and CSS.
extension LayoutPropertyTests {
    static let longWords = Gen<String>.element(of: [
        "hyphenation", "extraordinary", "international", "responsibility", "characteristically", "a", "of", "the",
        "Silbentrennung", "переносы", "measurement", "incomprehensibilities", "text", "layout",
    ])
    /// Words, some with soft hyphens between two of their letters, joined by spaces.
    static let hyphenText: Gen<String> = Gen.array(
        of: Gen.zip(longWords, Gen.int(in: 0...4)).map { word, softHyphens -> String in
            var chars = Array(word)
            for k in 0..<min(softHyphens, max(0, chars.count - 2)) {
                chars.insert("\u{AD}", at: min(chars.count - 1, 1 + (k * 3) % max(1, chars.count - 1)))
            }
            return String(chars)
        }, count: 1...8
    ).map { $0.joined(separator: " ") }

    @Test func hyphenatedLinesFitWithTheirHyphen() {
        let gen = Gen.zip(
            Gen.zip(Self.hyphenText, Gen.double(in: 30...300)), Gen.element(of: Compatibility.allCases),
            Gen.element(of: [Hyphenation.none, .manual, .auto]), Gen.element(of: [2.0, 3.0]))
        check("hyphenated lines fit", gen, iterations: 150) { textAndWidth, profile, mode, scale in
            let (text, width) = textAndWidth
            var s = profiled(profile, ["DejaVu Sans"], size: 15)
            s.hyphenation = mode
            s.language = "en-US"
            let w = width.rounded()
            let l = engine.layout(text, style: s, width: w, scale: scale)
            let slack = profile == .chromium ? 1.0 / 64 : 1e-6
            try propertyAssert(l.measurement.size.height.isFinite && l.measurement.size.height > 0, "height")
            let grid = (l.measurement.size.height * scale).rounded() / scale
            try propertyAssert(abs(grid - l.measurement.size.height) < 1e-9, "height off the grid")
            for (i, line) in l.lines.enumerated() {
                try propertyAssert(line.hyphenWidth >= 0 && line.hyphenWidth.isFinite, "hyphen width")
                try propertyAssert(line.hyphenWidth == 0 || !line.endsParagraph, "line \(i) ends the text with a hyphen")
                guard line.usedWidth > w + slack else { continue }
                // Overflowing: one cluster, or one piece whose hyphen alone overflows.
                var visible = l.text(ofLine: i)
                while let last = visible.last, last == " " || last == "\u{AD}" { visible = visible.dropLast() }
                try propertyAssert(
                    visible.count == 1 || line.usedWidth - line.hyphenWidth <= w + slack && !visible.contains(" "),
                    "\(profile) \(mode) at \(w): line \(i) \(line.usedWidth) > \(w): \(l.text(ofLine: i).debugDescription)")
            }
        }
    }

    @Test func withoutSoftHyphensManualIsNone() {
        let plain = Self.hyphenText.map { String($0.filter { $0 != "\u{AD}" }) }
        let gen = Gen.zip(plain, Gen.double(in: 30...300), Gen.element(of: [Compatibility.standard, .chromium]))
        check("manual without soft hyphens", gen, iterations: 100) { text, width, profile in
            var s = profiled(profile, ["DejaVu Sans"], size: 15)
            s.hyphenation = .manual
            let manual = engine.layout(text, style: s, width: width.rounded())
            s.hyphenation = Hyphenation.none
            let none = engine.layout(text, style: s, width: width.rounded())
            try propertyAssert(manual.lines == none.lines, "\(profile) at \(width.rounded())")
        }
    }
}

/// Justification (issue 27, item 4): it moves clusters, never a break or a height. Against the
/// same cell left natural: the same measurement and line ranges; a stretched line spans the
/// width between its indents, its clusters stay in order, touch and grow by what it added.
extension LayoutPropertyTests {
    @Test func justifyingChangesNoHeightAndNoBreak() {
        let gen = Gen.zip(
            Self.cells(text: Self.mixedText, widths: 30...400),
            Gen.element(of: [TextAlignment?.none, .natural, .justified, .center]),
            Gen.element(of: [0.0, 0, 12, -8]))
        check("justification keeps heights and breaks", gen, iterations: 150) { cell, last, indent in
            var natural = cell.style
            natural.firstLineHeadIndent = max(0, indent)
            natural.headIndent = max(0, -indent)
            var justified = natural
            justified.alignment = .justified
            justified.lastLineAlignment = last
            let a = engine.layout(cell.text, style: natural, width: cell.width, scale: cell.scale)
            let b = engine.layout(cell.text, style: justified, width: cell.width, scale: cell.scale)
            try propertyAssert(a.measurement == b.measurement, "measurement \(a.measurement) vs \(b.measurement)")
            try propertyAssert(a.exactHeight == b.exactHeight, "height")
            try propertyAssert(a.lines.map(\.utf8Range) == b.lines.map(\.utf8Range), "line ranges")
            for (i, line) in b.lines.enumerated() {
                try propertyAssert(line.justificationWidth >= 0 && line.justificationWidth.isFinite, "line \(i) stretch")
                try propertyAssert(line.usedWidth == a.lines[i].usedWidth, "line \(i) used width")
                try propertyAssert(abs(line.rect.width - line.usedWidth - line.justificationWidth) < 1e-9, "line \(i) rect")
                let clusters = b.clusters(onLine: i, unit: .utf8)
                let before = a.clusters(onLine: i, unit: .utf8)
                try propertyAssert(clusters.map(\.range) == before.map(\.range), "line \(i) clusters")
                guard line.justificationWidth > 0, line.direction == .leftToRight else { continue }
                // From where the natural line starts (its indent) to the box's end; Pango's
                // whole units lose up to one per gap, Blink's line width is ceiled to 1/64.
                let slack = switch cell.style.compatibility {
                case .pango: Double(clusters.count) / 1024
                case .chromium: 1.0 / 64
                case .standard: 1e-6
                }
                try propertyAssert(
                    abs(line.rect.x - a.lines[i].rect.x) < 1e-9 && abs(line.rect.maxX - cell.width) <= slack,
                    "line \(i) spans \(line.rect) in \(cell.width), natural \(a.lines[i].rect)")
                // Clusters that touched (a line in one direction) still do.
                for (k, c) in clusters.enumerated() where k > 0 && abs(before[k].minX - before[k - 1].maxX) < 1e-6 {
                    try propertyAssert(abs(c.minX - clusters[k - 1].maxX) < 1e-6, "line \(i) cluster \(k) does not touch")
                }
                let grown = zip(clusters, before).reduce(0.0) { $0 + ($1.0.maxX - $1.0.minX) - ($1.1.maxX - $1.1.minX) }
                try propertyAssert(abs(grown - line.justificationWidth) < 1e-6, "line \(i) grew \(grown), added \(line.justificationWidth)")
            }
        }
    }
}
