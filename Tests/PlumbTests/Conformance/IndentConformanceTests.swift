import Foundation
@testable import Plumb
import Testing

/// Paragraph indents against Chromium and Pango (issue 27, items 1 and 6), replayed from stored
/// subsets written by `indents_chromium.py` and `indents_pango.py --write-subset` (Chromium:
/// device scales 1 and 2, div heights, line starts and the left of each line's first character,
/// the indents stated as padding and `text-indent`; Pango: layout heights, line starts and line
/// x, the indents as the layout's width and `pango_layout_set_indent`). Each case carries one
/// indent kind (`none`, `first-line`, `hanging`, `both`, `tail-negative`, `tail-positive`, and
/// under `chromium` also `negative` and `each-line`); Tests/Conformance/indents.py says how the
/// cases are made.
@Suite struct IndentConformanceTests {
    static let chromiumSubsetURL = ConformanceTests.subsetURL.deletingLastPathComponent()
        .appendingPathComponent("indents_chromium_subset.jsonl")
    static let pangoSubsetURL = chromiumSubsetURL.deletingLastPathComponent().appendingPathComponent("indents_pango_subset.jsonl")
    /// Floors at or below the agreement when first recorded, before tab stops counted from the
    /// content box (Chromium) and the box edge (Pango) and before a line after U+2028 took the
    /// head indent, which raised both. Chromium: 395 of 400 line starts, 397 heights, 344 of
    /// 366 line x (Chromium puts a first line at LU(headIndent) + LU(firstLineHeadIndent −
    /// headIndent), Plumb at LU(firstLineHeadIndent)). Pango: 298 of 300 line starts, 299
    /// heights, 267 of 271 line x. The oracles'
    /// figures over every case are in their output (`indents_*.py --report`).
    static let chromiumStartsFloor = 0.985
    static let chromiumHeightsFloor = 0.99
    static let chromiumLineXFloor = 0.93
    static let pangoStartsFloor = 0.99
    static let pangoHeightsFloor = 0.99
    static let pangoLineXFloor = 0.98

    /// A replay's counts: cases, line starts and heights agreeing, line x agreeing (of the
    /// cases with the reference's line x whose starts agree), the kinds seen, the first misses.
    struct Replay {
        var cases = 0, starts = 0, heights = 0, xChecked = 0, x = 0
        var kinds = Set<String>()
        var worst: [String] = []
    }

    /// Replays a subset; `heightAgrees` compares Plumb's exact height with the reference's.
    static func replay(_ url: URL, reference: String, heightAgrees: (Double, Double) -> Bool) throws -> Replay {
        var r = Replay()
        for line in try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")) {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let style = try JSONDecoder().decode(TextStyle.self, from: Data(line))
            let text = try #require(c["text"] as? String)
            let width = try #require(c["width"] as? Double)
            // Pango's cases have no device scale: its heights are not snapped to pixels.
            let l = (c["scale"] as? Double).map { engine.layout(text, style: style, width: width, scale: $0) }
                ?? engine.layout(text, style: style, width: width)
            let starts = l.lines.map(\.scalarRange.lowerBound)
            let expectedStarts = try #require(c[reference + "LineStarts"] as? [Int])
            let expectedHeight = try #require(c[reference + "Height"] as? Double)
            r.cases += 1
            r.kinds.insert(try #require(c["kind"] as? String))
            let startsAgree = starts == expectedStarts, heightAgrees = heightAgrees(l.exactHeight, expectedHeight)
            r.starts += startsAgree ? 1 : 0
            r.heights += heightAgrees ? 1 : 0
            if startsAgree, let xs = (c[reference + "LineX"] as? [NSNumber])?.map(\.doubleValue) {
                r.xChecked += 1
                r.x += zip(l.lines, xs).allSatisfy { abs($0.rect.x - $1) <= 0.01 } && xs.count == l.lines.count ? 1 : 0
            }
            if !(startsAgree && heightAgrees) && r.worst.count < 5 {
                r.worst.append(
                    "\(text.prefix(40).debugDescription) w\(width) first \(style.firstLineHeadIndent) head "
                        + "\(style.headIndent) tail \(style.tailIndent): starts \(starts) vs \(expectedStarts), height "
                        + "\(l.exactHeight) vs \(expectedHeight)")
            }
        }
        return r
    }

    @Test func theChromiumProfileIndentsAsChromiumDoes() throws {
        let r = try Self.replay(Self.chromiumSubsetURL, reference: "chromium") { abs($0 - $1) <= 0.01 }
        #expect(r.cases == 400)
        #expect(r.kinds == ["none", "first-line", "hanging", "both", "tail-negative", "tail-positive", "negative", "each-line"])
        #expect(Double(r.starts) / Double(r.cases) >= Self.chromiumStartsFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.chromiumHeightsFloor, "\(r.heights) of \(r.cases); \(r.worst)")
        #expect(Double(r.x) / Double(max(1, r.xChecked)) >= Self.chromiumLineXFloor, "line x \(r.x) of \(r.xChecked)")
    }

    @Test func thePangoProfileIndentsAsPangoDoes() throws {
        // The same number of Pango units (1/1024 pt).
        let r = try Self.replay(Self.pangoSubsetURL, reference: "pango") { abs($0 - $1) * 1024 < 0.5 }
        #expect(r.cases == 300)
        #expect(r.kinds == ["none", "first-line", "hanging", "both", "tail-negative", "tail-positive"])
        #expect(Double(r.starts) / Double(r.cases) >= Self.pangoStartsFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.pangoHeightsFloor, "\(r.heights) of \(r.cases); \(r.worst)")
        #expect(Double(r.x) / Double(max(1, r.xChecked)) >= Self.pangoLineXFloor, "line x \(r.x) of \(r.xChecked)")
    }
}
