@testable import Plumb
import Foundation

/// One engine for the whole test run (fontconfig init is ~5 ms; fonts are shared).
let engine = TextMeasurer()

/// `families` at `size` points under `profile`.
func profiled(
    _ profile: Compatibility, _ families: [String] = ["Noto Sans", "Noto Sans CJK SC"], size: Double = 15
) -> TextStyle {
    var s = TextStyle(families: families, size: size)
    s.compatibility = profile
    return s
}

/// The default cascade at 15 pt.
func style15(_ families: [String] = ["Noto Sans", "Noto Sans CJK SC"]) -> TextStyle {
    TextStyle(families: families, size: 15)
}

/// Noto Sans at 15 pt: (1069 + 293) / 1000 × 15 pt (hhea; line gap 0).
let notoSansLine15 = 20.43
/// Noto Sans CJK SC at 15 pt: (1160 + 288) / 1000 × 15 pt.
let notoCJKLine15 = 21.72

/// A fake monospace "measurer": builds a `PreparedText` for ASCII text where every character
/// is one grapheme of `advance` points, spaces hang, a break opportunity follows every run of
/// spaces and every '-', and '\n' separates paragraphs. Heights come from `metrics`.
func monospaceText(
    _ text: String, advance: Double = 10,
    metrics: (ascender: Double, descender: Double, gap: Double) = (8, -2, 1),
    lineFit: LayoutConventions.LineFitArithmetic = .exact(tolerance: LineBreaker.tolerance),
    hyphens points: [(after: Int, width: Double, kind: HyphenPoints.Kind)] = []
) -> PreparedText {
    let font = engine.fonts.cascade(for: FontDescriptor()).primary
    let use = PreparedText.FontUse(
        font: font, ascender: metrics.ascender, descender: metrics.descender, lineGap: metrics.gap)
    var starts: [Int32] = [], ends: [Int32] = [], advances: [Double] = []
    var flags: [PreparedText.GraphemeFlags] = [], fonts: [UInt8] = []
    var words: [PreparedText.Word] = [], paragraphs: [PreparedText.Paragraph] = []
    let bytes = Array(text.utf8)
    var offset = 0
    for para in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let gStart = starts.count, wStart = words.count
        let chars = Array(para.utf8)
        for (i, c) in chars.enumerated() {
            starts.append(Int32(offset + i)); ends.append(Int32(offset + i + 1))
            var f: PreparedText.GraphemeFlags = []
            if c == 0x20 { f.insert(.hangingSpace) }
            if c == 0x09 { f.insert([.tab, .hangingSpace]) }
            let next = i + 1 < chars.count ? chars[i + 1] : nil
            if (c == 0x20 && next != 0x20) || c == UInt8(ascii: "-") { if next != nil { f.insert(.breakAfter) } }
            // A hyphenation point other than a cut point is a break opportunity.
            if next != nil && points.contains(where: { $0.after == gStart + i && $0.kind != .cut }) { f.insert(.breakAfter) }
            flags.append(f); fonts.append(0); advances.append(c == 0x09 ? 0 : advance)
        }
        var wb = gStart
        var paragraphEnd = 0.0
        for g in gStart..<starts.count where flags[g].contains(.breakAfter) || g + 1 == starts.count {
            var width = 0.0, hang = 0.0, tab = false
            for k in wb...g {
                width += advances[k]
                if flags[k].contains(.hangingSpace) { hang += advances[k] } else { hang = 0 }
                if flags[k].contains(.tab) { tab = true }
            }
            paragraphEnd += width
            words.append(.init(graphemeEnd: Int32(g + 1), hangingWidth: hang, fontMask: 1, hasTab: tab, mandatoryBreakAfter: false, end: paragraphEnd))
            wb = g + 1
        }
        for k in wStart..<words.count { words[k].nextMaskChange = Int32(words.count) }
        let hasTab = words[wStart...].contains { $0.hasTab }
        paragraphs.append(.init(byteStart: Int32(offset), byteEnd: Int32(offset + chars.count), graphemeStart: Int32(gStart), graphemeEnd: Int32(starts.count), wordStart: Int32(wStart), wordEnd: Int32(words.count), isSimple: !hasTab && points.isEmpty, hasUniformMask: true))
        offset += chars.count + 1
    }
    var hyphens = HyphenPoints()
    for point in points.sorted(by: { $0.after < $1.after }) {
        hyphens.append(after: Int32(point.after), width: point.width, kind: point.kind, face: font)
    }
    return PreparedText(
        fonts: [use], graphemeStarts: starts, graphemeEnds: ends, advances: advances, flags: flags,
        graphemeFonts: fonts, words: words, paragraphs: paragraphs, ellipsisFont: 0,
        ellipsisWidth: advance, utf8Count: bytes.count, missingGlyphClusters: 0,
        tabFacts: bytes.contains(0x09)
            ? PreparedText.TabFacts(spaceWidth: advance, decimalPoints: starts.indices.filter { bytes[Int(starts[$0])] == 0x2E }.map { Int32($0) })
            : nil,
        hyphens: hyphens, lineFit: lineFit)
}

/// The texts of a layout's lines.
func lineTexts(_ layout: TextLayout) -> [String] {
    (0..<layout.lineCount).map { String(layout.text(ofLine: $0)) }
}

/// Lines of a monospace text as strings.
func lineStrings(_ text: String, _ prepared: PreparedText, _ lines: [BrokenLine]) -> [String] {
    let bytes = Array(text.utf8)
    return lines.map { b in
        guard b.graphemeStart < b.graphemeEnd else { return "" }
        let s = Int(prepared.graphemeStarts[Int(b.graphemeStart)]), e = Int(prepared.graphemeEnds[Int(b.graphemeEnd - 1)])
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }
}

/// A sanitized style for pure Metrics tests.
func sanitized(_ configure: (inout TextStyle) -> Void = { _ in }) -> SanitizedStyle {
    var style = TextStyle()
    configure(&style)
    var w: [MeasureWarning] = []
    return Sanitizer.style(style, warnings: &w)
}

/// The repository's root folder, for the tests that read sources, documents and stored
/// fixtures: the one place that knows where this file sits
/// (`Tests/PlumbTests/Support/TestSupport.swift`), so moving a test file breaks no path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().standardizedFileURL

/// The texts of the benchmark corpus (`Benchmarks/Corpus/cells.jsonl`, 4,000 cells), for tests
/// that compare a fast path with ICU on real text.
func corpusTexts() throws -> [String] {
    let url = repositoryRoot.appendingPathComponent("Benchmarks/Corpus/cells.jsonl")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        guard let text = object?["text"] as? String else { throw CorpusError.noText(String(line.prefix(80))) }
        return text
    }
}

/// A corpus line without a "text" string.
enum CorpusError: Error { case noText(String) }
