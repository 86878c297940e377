import Foundation
@testable import Plumb
import Testing

/// Tab stops and CSS `tab-size` against Pango and Chromium (issue 27, items 2 and 6), replayed
/// from stored subsets written by `tabs_pango.py` and `tabs_chromium.py --write-subset`
/// (Pango: tab arrays of left, right, center and decimal stops, default tabs, indents;
/// Chromium: `tab-size` in spaces and lengths, letter spacing, indents as padding and
/// `text-indent`, at device scales 1 and 2). Besides line starts and heights each row has the
/// x of the character after each tab (`…TabX`), which line starts alone would not catch.
/// Tests/Conformance/tabs.py says how the cases are made.
@Suite struct TabConformanceTests {
    static let pangoSubsetURL = IndentConformanceTests.chromiumSubsetURL.deletingLastPathComponent()
        .appendingPathComponent("tabs_pango_subset.jsonl")
    static let chromiumSubsetURL = pangoSubsetURL.deletingLastPathComponent().appendingPathComponent("tabs_chromium_subset.jsonl")

    /// Tab x agreeing, of the tabs with a reference x in the cases whose line starts agree,
    /// over a subset: the x of the character after each tab within `tolerance`.
    static func tabX(_ url: URL, reference: String, tolerance: Double) throws -> (agree: Int, checked: Int, worst: [String]) {
        var agree = 0, checked = 0
        var worst: [String] = []
        for line in try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")) {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            guard let xs = c[reference + "TabX"] as? [Any] else { continue }
            let style = try JSONDecoder().decode(TextStyle.self, from: Data(line))
            let text = try #require(c["text"] as? String)
            let width = try #require(c["width"] as? Double)
            let l = (c["scale"] as? Double).map { engine.layout(text, style: style, width: width, scale: $0) }
                ?? engine.layout(text, style: style, width: width)
            guard l.lines.map(\.scalarRange.lowerBound) == (c[reference + "LineStarts"] as? [Int]) else { continue }
            let utf16 = Array(text.utf16)
            let tabs = utf16.indices.filter { utf16[$0] == 0x09 }
            for (tab, x) in zip(tabs, xs) {
                guard let x = (x as? NSNumber)?.doubleValue, tab + 1 < utf16.count else { continue }
                checked += 1
                let mine = l.rects(forCharacters: (tab + 1)..<(tab + 2)).first?.x ?? .nan
                if abs(mine - x) <= tolerance { agree += 1 } else if worst.count < 5 {
                    worst.append("\(text.prefix(30).debugDescription): after tab at \(tab) \(mine) vs \(x)")
                }
            }
        }
        return (agree, checked, worst)
    }

    /// Floors at or below the agreement when recorded (the oracles' figures over all cases are
    /// in their output). Pango: most misses are a right or decimal stop beyond the line's end,
    /// whose text Pango keeps on the line past the box while Plumb wraps it. Chromium: the
    /// misses are its default `tab-size: 8` where the case sets none (Plumb's default is 28
    /// points in every profile).
    static let pangoStartsFloor = 0.85, pangoHeightsFloor = 0.9, pangoTabXFloor = 0.97
    static let chromiumStartsFloor = 0.96, chromiumHeightsFloor = 0.97, chromiumTabXFloor = 0.95

    @Test func thePangoProfileSetsTabsAsPangoDoes() throws {
        let r = try IndentConformanceTests.replay(Self.pangoSubsetURL, reference: "pango") { abs($0 - $1) * 1024 < 0.5 }
        #expect(r.cases == 300)
        #expect(Double(r.starts) / Double(r.cases) >= Self.pangoStartsFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.pangoHeightsFloor, "\(r.heights) of \(r.cases); \(r.worst)")
        // Pango reports positions in its units (1/1024 pt), rounded after each cluster.
        let t = try Self.tabX(Self.pangoSubsetURL, reference: "pango", tolerance: 0.005)
        #expect(t.checked > 200)
        #expect(Double(t.agree) / Double(t.checked) >= Self.pangoTabXFloor, "tab x \(t.agree) of \(t.checked); \(t.worst)")
    }

    @Test func theChromiumProfileSetsTabsAsChromiumDoes() throws {
        let r = try IndentConformanceTests.replay(Self.chromiumSubsetURL, reference: "chromium") { abs($0 - $1) <= 0.01 }
        #expect(r.cases == 400)
        #expect(Double(r.starts) / Double(r.cases) >= Self.chromiumStartsFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.chromiumHeightsFloor, "\(r.heights) of \(r.cases); \(r.worst)")
        let t = try Self.tabX(Self.chromiumSubsetURL, reference: "chromium", tolerance: 0.02)
        #expect(t.checked > 250)
        #expect(Double(t.agree) / Double(t.checked) >= Self.chromiumTabXFloor, "tab x \(t.agree) of \(t.checked); \(t.worst)")
    }
}
