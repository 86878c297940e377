import Foundation
@testable import Plumb
import Testing

/// Rich text against Pango and Chromium (issue 14): a stored subset of the rich corpus
/// (Tests/Conformance/rich_subset.jsonl, cases in the command line's `runs` format with both
/// engines' line starts, written by `rich_compare.py --write-subset`) replayed with floors, and
/// the whole corpus measured on request for the report (`rich_compare.py` compares).
@Suite struct RichConformanceTests {
    static let subsetURL = ConformanceTests.subsetURL.deletingLastPathComponent()
        .appendingPathComponent("rich_subset.jsonl")

    /// Floors recorded with the subset (see Documentation/Accuracy.md, "Rich text"): a drop
    /// below them fails CI.
    static let lineCountFloor = 0.9975  // each profile vs its engine / `standard` vs either
    static let pangoLineStartsFloor = 0.99  // `pango` vs Pango, 397 of 400 when recorded
    static let chromiumLineStartsFloor = 0.99  // `chromium` vs Chromium, 400 of 400 when recorded
    /// `standard` vs either engine, 395 of 400 when recorded (its own conventions; see the report).
    static let standardEitherLineStartsFloor = 0.985

    @Test func thePangoProfileAgreesWithPangoOnTheStoredRichSubset() throws {
        let r = try replayRichSubset(profile: .pango, references: ["pangoLineStarts"])
        #expect(r.cases == 400)
        #expect(r.lineCounts >= Self.lineCountFloor, "line counts \(r.lineCounts); \(r.worst)")
        #expect(r.lineStarts >= Self.pangoLineStartsFloor, "line starts \(r.lineStarts); \(r.worst)")
    }

    @Test func theChromiumProfileAgreesWithChromiumOnTheStoredRichSubset() throws {
        let r = try replayRichSubset(profile: .chromium, references: ["chromiumLineStarts"])
        #expect(r.cases == 400)
        #expect(r.lineCounts >= Self.lineCountFloor, "line counts \(r.lineCounts); \(r.worst)")
        #expect(r.lineStarts >= Self.chromiumLineStartsFloor, "line starts \(r.lineStarts); \(r.worst)")
    }

    @Test func theStandardProfileAgreesWithOneOfTheEnginesOnTheStoredRichSubset() throws {
        let r = try replayRichSubset(profile: .standard, references: ["pangoLineStarts", "chromiumLineStarts"])
        #expect(r.cases == 400)
        #expect(r.lineCounts >= Self.lineCountFloor, "line counts \(r.lineCounts); \(r.worst)")
        #expect(r.lineStarts >= Self.standardEitherLineStartsFloor, "line starts \(r.lineStarts); \(r.worst)")
    }

    /// Blink snaps each inline item's width (one per element) to the 1/64-px layout unit:
    /// measured in Chromium 156 (Noto Sans CJK SC, 15 px, 150 px box), ten ideographs fit as
    /// one run (150.001 px) but not as a bold run of two and a regular run of eight
    /// (30.015625 + 120.015625 px); Pango's and the standard arithmetic fit them either way.
    @Test func theChromiumProfileRoundsEachRunsWidthToTheLayoutUnit() {
        let ideographs = String(repeating: "代", count: 12)
        var rich = AttributedText(String(ideographs.prefix(2)), TextAttributes(weight: 700))
        rich.append(String(ideographs.dropFirst(2)))
        func starts(_ text: AttributedText, _ profile: Compatibility, width: Double = 150) -> [Int] {
            var style = style15(["Noto Sans CJK SC"])
            style.compatibility = profile
            return engine.layout(text, style: style, width: width).lines.map(\.scalarRange.lowerBound)
        }
        #expect(starts(AttributedText(ideographs), .chromium) == [0, 10])
        #expect(starts(rich, .chromium) == [0, 9])
        #expect(starts(rich, .chromium, width: 151) == [0, 10])
        #expect(starts(rich, .pango) == [0, 10])
        #expect(starts(rich, .standard) == [0, 10])
    }

    /// Blink measures a line item by item: the part of the first item that continues from the
    /// previous line counts its exact width rounded up to the layout unit, each whole item its
    /// snapped width, the last item its rounded positions. Measured in Chromium 156 (Noto Sans
    /// CJK SC, 15 px): a bold run of 11 ideographs and a regular run of 10 break after 10 and
    /// 19 at 150 px (line 2: 15.015625 + 9 × 15.000107 rounded up = 150.03 px > 150 + 1/64);
    /// a 20 px run of 7 and a 60.015625 px box break only after 5 at 100 px (line 2: the two
    /// 20 px ideographs, 39.99997 px exact, count 40, and the box fits exactly).
    @Test func theChromiumProfileSnapsThePartOfARunThatContinuesALine() {
        func layout(
            _ runs: [(Int, TextAttributes)], box: Double? = nil, width: Double, _ profile: Compatibility = .chromium,
            _ mode: LineBreakMode = .wordWrapping
        ) -> TextLayout {
            var text = AttributedText()
            for (n, attributes) in runs { text.append(String(repeating: "代", count: n), attributes) }
            if let box { text.append(InlineBox(width: box, height: 10)) }
            var style = style15(["Noto Sans CJK SC"])
            style.compatibility = profile
            style.lineBreakMode = mode
            return engine.layout(text, style: style, width: width)
        }
        let bold = TextAttributes(weight: 700), regular = TextAttributes()
        let repro = layout([(11, bold), (10, regular)], width: 150)
        #expect(repro.lines.map(\.scalarRange.lowerBound) == [0, 10, 19])
        #expect(repro.lines.map(\.usedWidth) == [150.001068115234375, 135.0009613037109375, 30.000213623046875])
        #expect(layout([(21, bold), (10, regular)], width: 150).lines.map(\.scalarRange.lowerBound) == [0, 10, 20, 29])
        let box = layout([(7, TextAttributes(size: 20))], box: 60.015625, width: 100)
        #expect(box.lines.map(\.scalarRange.lowerBound) == [0, 5])
        #expect(box.lines.map(\.usedWidth) == [99.9999237060546875, 100.0155944824218750])
        // The general loop (character wrapping) measures the same way.
        #expect(
            layout([(11, bold), (10, regular)], width: 150, .chromium, .charWrapping).lines.map(\.scalarRange.lowerBound)
                == [0, 10, 19])
        #expect(layout([(7, TextAttributes(size: 20))], box: 60.015625, width: 100, .chromium, .charWrapping)
            .lines.map(\.scalarRange.lowerBound) == [0, 5])
        // Elsewhere a line is measured whole, as before.
        #expect(
            layout([(11, bold), (10, regular)], width: 150, .pango).lines.map(\.scalarRange.lowerBound) == [0, 10, 20])
    }

    /// The `pango` profile's space-font rule stays inside a style run: spaces at the end of a
    /// DejaVu Sans run keep DejaVu's space before a 12 pt DejaVu Sans Mono run (Pango 1.50
    /// measures "␣␣" + "tar" at 31.211 pt; in the mono font they would be 14.45 pt wide).
    @Test func thePangoProfileKeepsSpacesInTheirOwnRunsFont() {
        var text = AttributedText("  ")
        text.append("tar", TextAttributes(families: ["DejaVu Sans Mono", "Noto Sans CJK SC"], size: 12))
        var style = style15(["DejaVu Sans", "Noto Sans CJK SC"])
        style.compatibility = .pango
        let width = engine.layout(text, style: style, width: 1000).lines[0].usedWidth
        #expect(abs(width - 31.211) < 0.01)
    }

    /// `standard` shapes a space between two CJK words of a DejaVu Sans Mono run in the CJK
    /// font, as Pango does (its itemizer gives a space the font of the character before it):
    /// the run measures exactly as the same text in a Noto Sans CJK SC cell, not 5.67 pt wider
    /// (DejaVu Sans Mono's 9.03 pt space instead of Noto Sans CJK SC's 3.36 pt). `chromium`
    /// keeps the primary font's space (Chromium 156 measures that space 9.03 px wide).
    @Test func theStandardProfileGivesASpaceBetweenCJKWordsTheCJKFont() {
        let words = "通り に読"
        let mono = TextAttributes(families: ["DejaVu Sans Mono", "Noto Sans CJK SC"])
        func richWidth(_ profile: Compatibility) -> Double {
            var text = AttributedText("x")
            text.append(words, mono)
            var style = style15(["Noto Sans"])
            style.compatibility = profile
            return engine.layout(text, style: style, width: 1000).lines[0].usedWidth
        }
        // Exact line widths (`measure` rounds up to the pixel grid), shaped by Plumb.
        func plainWidth(_ text: String, _ families: [String]) -> Double {
            engine.layout(text, style: style15(families), width: 1000).lines[0].usedWidth
        }
        func spaceWidth(between c: String, _ families: [String]) -> Double {
            plainWidth(c + " " + c, families) - plainWidth(c + c, families)
        }
        let lead = plainWidth("x", ["Noto Sans"])
        let cjk = plainWidth(words, ["Noto Sans CJK SC"])
        let cjkSpace = spaceWidth(between: "通", ["Noto Sans CJK SC"])
        let monoSpace = spaceWidth(between: "a", ["DejaVu Sans Mono"])
        #expect(monoSpace - cjkSpace > 5)  // the rule matters here
        #expect(abs(richWidth(.standard) - (lead + cjk)) < 1e-9)
        #expect(abs(richWidth(.pango) - (lead + cjk)) < 1e-9)
        #expect(abs(richWidth(.chromium) - (lead + cjk + monoSpace - cjkSpace)) < 0.1)
    }

    /// Pango 1.50 breaks after a hyphen and after a period before a digit when an inline box
    /// precedes them, as after a space or a `%` (probed with WRAP_WORD at width 0:
    /// `-|▣|-|x`, `%|▣.|25`, but `▣|-1`); ICU keeps `▣-x` and `▣.25` whole.
    @Test func thePangoProfileBreaksAfterAHyphenOrPeriodThatFollowsABox() {
        func first(_ profile: Compatibility, _ before: String, _ after: String, width: Double) -> String {
            var text = AttributedText(before)
            text.append(InlineBox(width: 10, height: 10))
            text.append(after)
            var style = style15(["Noto Sans"])
            style.compatibility = profile
            return lineTexts(engine.layout(text, style: style, width: width)).first ?? ""
        }
        let w = engine.measure("if -", style: style15(["Noto Sans"]), width: 1000).width + 10
            + engine.measure("-", style: style15(["Noto Sans"]), width: 1000).width + 1
        #expect(first(.pango, "if -", "-reflink", width: w) == "if -\u{FFFC}-")
        #expect(first(.standard, "if -", "-reflink", width: w) == "if -\u{FFFC}")
        let w2 = engine.measure("a %.", style: style15(["Noto Sans"]), width: 1000).width + 10 + 1
        #expect(first(.pango, "a %", ".250s", width: w2) == "a %\u{FFFC}.")
        #expect(first(.standard, "a %", ".250s", width: w2) == "a %")  // ▣.250s stays whole
    }

    /// The `pango` profile's break opportunities on both sides of an inline box against Pango
    /// 1.50's for 24 × 24 neighbours (Tests/Conformance/rich_pango_box_breaks.json, written by
    /// `rich_pango_box_breaks.py`): ICU's rules for U+FFFC plus the tailorings above.
    @Test func thePangoProfileBreaksAroundInlineBoxesLikePango() throws {
        let wrong = try boxBreakDifferences(.pango, fixture: "rich_pango_box_breaks.json")
        #expect(wrong.isEmpty, "\(wrong.count) pairs differ: \(wrong.prefix(40))")
    }

    /// The same pairs in Chromium 156 (rich_chromium_box_breaks.json): a CSS atomic inline has
    /// a break on both sides, except before a space (which hangs).
    @Test func theChromiumProfileBreaksAroundInlineBoxesLikeChromium() throws {
        let wrong = try boxBreakDifferences(.chromium, fixture: "rich_chromium_box_breaks.json")
        #expect(wrong.isEmpty, "\(wrong.count) pairs differ: \(wrong.prefix(40))")
    }

    /// The pairs P ▣ N of a box-break fixture whose break before and after the box differ from
    /// the profile's break opportunities.
    func boxBreakDifferences(_ profile: Compatibility, fixture: String) throws -> [String] {
        let url = Self.subsetURL.deletingLastPathComponent().appendingPathComponent(fixture)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let pairs = try #require(json["pairs"] as? [String: [Bool]])
        #expect(pairs.count == 24 * 24)
        var style = style15(["Noto Sans", "Noto Sans CJK SC"])
        style.compatibility = profile
        let resolved = engine.resolve(style)
        var wrong: [String] = []
        for (key, expected) in pairs.sorted(by: { $0.key < $1.key }) {
            var text = AttributedText()
            for scalar in key.unicodeScalars {
                if scalar == AttributedText.objectReplacement {
                    text.append(InlineBox(width: 10, height: 10))
                } else {
                    text.append(String(scalar))
                }
            }
            let content = engine.richContent(text, style: resolved, key: CellKeys.contentKey(text))
            let prepared = try #require(
                engine.compute(text.string, style: resolved, width: 1000, scale: 2, extraWarnings: [], content: content).prepared)
            let breaks = [prepared.flags[0].contains(.breakAfter), prepared.flags[1].contains(.breakAfter)]
            if breaks != expected { wrong.append("\(key.debugDescription): engine \(expected), Plumb \(breaks)") }
        }
        return wrong
    }

    /// Writes Plumb's line starts for a whole rich corpus (`PLUMB_RICH_CASES`, from
    /// `rich_corpus.py`) under every profile to `PLUMB_RICH_OUT`, for `rich_compare.py`.
    /// Skipped unless both variables are set.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLUMB_RICH_OUT"] != nil))
    func measureTheWholeRichCorpusOnRequest() throws {
        let env = ProcessInfo.processInfo.environment
        let input = URL(fileURLWithPath: try #require(env["PLUMB_RICH_CASES"]))
        var out: [String: [String: Any]] = [:]
        let cases = try richCases(input)
        for profile in [Compatibility.standard, .pango, .chromium] {
            let layouts = cases.map { c in c.layout(profile) }
            out["\(profile)"] = [
                "lineStarts": layouts.map { $0.lines.map(\.scalarRange.lowerBound) },
                "lineWidths": layouts.map { $0.lines.map(\.usedWidth) },
            ]
        }
        let data = try JSONSerialization.data(withJSONObject: out)
        try data.write(to: URL(fileURLWithPath: try #require(env["PLUMB_RICH_OUT"])))
    }
}

/// One case of the rich corpus: the attributed text, the cell's style and width, and the
/// stored references' line starts.
struct RichCase {
    var text: AttributedText
    var style: TextStyle
    var width: Double
    var json: [String: Any]

    /// Reads a cell in the command line's `runs` format (issue 14): `families`, `size`, `width`
    /// and `runs`, each `{"text", "weight"?, "size"?, "families"?}` or
    /// `{"attachment": {"width", "height", "baselineOffset"}}`.
    init(json: [String: Any]) throws {
        self.json = json
        style = TextStyle(families: try #require(json["families"] as? [String]), size: try #require(json["size"] as? Double))
        width = try #require(json["width"] as? Double)
        text = AttributedText()
        for run in try #require(json["runs"] as? [[String: Any]]) {
            if let box = run["attachment"] as? [String: Double] {
                text.append(InlineBox(
                    width: try #require(box["width"]), height: try #require(box["height"]),
                    baselineOffset: box["baselineOffset"] ?? 0))
            } else {
                let attributes = TextAttributes(
                    families: run["families"] as? [String], size: run["size"] as? Double, weight: run["weight"] as? Int)
                text.append(try #require(run["text"] as? String), attributes)
            }
        }
    }

    /// Plumb's line starts (Unicode scalars of the flattened text) under `profile`.
    func lineStarts(_ profile: Compatibility) -> [Int] {
        layout(profile).lines.map(\.scalarRange.lowerBound)
    }

    /// Plumb's layout under `profile`.
    func layout(_ profile: Compatibility) -> TextLayout {
        var s = style
        s.compatibility = profile
        return engine.layout(text, style: s, width: width)
    }
}

func richCases(_ url: URL) throws -> [RichCase] {
    try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")).map { line in
        try RichCase(json: try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]))
    }
}

/// Replays the stored rich subset with `profile`; a case agrees when it agrees with any of the
/// `references`.
func replayRichSubset(profile: Compatibility, references: [String]) throws
    -> (cases: Int, lineCounts: Double, lineStarts: Double, worst: [String])
{
    var cases = 0, sameCount = 0, sameStarts = 0
    var worst: [String] = []
    for c in try richCases(RichConformanceTests.subsetURL) {
        let expected = try references.map { try #require(c.json[$0] as? [Int]) }
        let starts = c.lineStarts(profile)
        cases += 1
        if expected.contains(where: { $0.count == starts.count }) { sameCount += 1 }
        if expected.contains(starts) { sameStarts += 1 } else if worst.count < 5 {
            worst.append("\(c.width) \(c.text.string.prefix(60).debugDescription) plumb \(starts) reference \(expected)")
        }
    }
    return (cases, Double(sameCount) / Double(max(cases, 1)), Double(sameStarts) / Double(max(cases, 1)), worst)
}
