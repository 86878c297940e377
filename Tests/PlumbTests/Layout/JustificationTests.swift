import Foundation
@testable import Plumb
import Testing

/// Justified alignment (issue 27, item 4): which lines stretch, where the leftover width goes
/// in each profile (worked from the natural layout's own cluster widths), the last line's
/// alignment, right-to-left lines, inline boxes, hit testing and drawing.
@Suite struct JustificationTests {
    static let text = "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll"

    /// The cell laid out natural and justified (same style otherwise).
    static func pair(
        _ text: String, _ profile: Compatibility, width: Double, families: [String] = ["DejaVu Sans"],
        _ edit: (inout TextStyle) -> Void = { _ in }
    ) -> (natural: TextLayout, justified: TextLayout) {
        var s = profiled(profile, families, size: 15)
        edit(&s)
        let natural = engine.layout(text, style: s, width: width)
        s.alignment = .justified
        return (natural, engine.layout(text, style: s, width: width))
    }

    /// The content of a line (its trailing spaces left out), as its clusters.
    static func content(_ l: TextLayout, line i: Int) -> [LayoutCluster] {
        var clusters = l.clusters(onLine: i, unit: .scalars)
        let scalars = Array(l.text.unicodeScalars)
        while let last = clusters.last, scalars[last.range.lowerBound] == " " { clusters.removeLast() }
        return clusters
    }

    @Test func textKitGivesEverySpaceAnEqualShare() throws {
        let (natural, justified) = Self.pair(Self.text, .standard, width: 100)
        try #require(natural.lineCount > 2)
        for i in 0..<(natural.lineCount - 1) {
            let line = natural.lines[i]
            let content = Self.content(natural, line: i)
            let text = Array(natural.text.unicodeScalars)
            let spaces = content.filter { text[$0.range.lowerBound] == " " }.count
            try #require(spaces > 0)
            let share = (100 - line.usedWidth) / Double(spaces)
            var seen = 0
            for (n, j) in zip(content, justified.clusters(onLine: i, unit: .scalars)) {
                #expect(abs(j.minX - (n.minX + share * Double(seen))) < 1e-9, "line \(i) cluster \(n.range)")
                if text[n.range.lowerBound] == " " { seen += 1 }
            }
            #expect(abs(justified.lines[i].rect.width - 100) < 1e-9)
            #expect(abs(justified.lines[i].justificationWidth - (100 - line.usedWidth)) < 1e-9)
        }
        // The last line stays natural.
        let last = justified.lines[justified.lineCount - 1]
        #expect(last.justificationWidth == 0 && last.rect == natural.lines[natural.lineCount - 1].rect)
    }

    @Test func pangoSharesFollowSpaceWidthsInPangoUnits() throws {
        // Spaces of two sizes: the 30-pt space takes three times the 10-pt one's share.
        var t = AttributedText("aaaa")
        t.append(" ", TextAttributes(size: 30))
        t.append("bbbb")
        t.append(" ", TextAttributes(size: 10))
        t.append("cccc dddddddddddd")
        var s = profiled(.pango, ["DejaVu Sans"], size: 15)
        let natural = engine.layout(t, style: s, width: 140)
        s.alignment = .justified
        let justified = engine.layout(t, style: s, width: 140)
        try #require(natural.lineCount == 2 && natural.lines[0].scalarRange == 0..<15)
        let n = natural.clusters(onLine: 0, unit: .scalars), j = justified.clusters(onLine: 0, unit: .scalars)
        let units = { (x: Double) in (x * 1024).rounded() }
        // Pango's leftover: the line's width less its glyphs, each in whole units.
        let leftover = units(140) - Self.content(natural, line: 0).reduce(0) { $0 + units($1.maxX - $1.minX) }
        let wide = units(n[4].maxX - n[4].minX), narrow = units(n[9].maxX - n[9].minX)
        // justify_words: cumulative shares ⌊S·R/ΣS⌋ in whole units (the leftover is not whole points).
        #expect(leftover.truncatingRemainder(dividingBy: 1024) != 0)
        let first = (wide * leftover / (wide + narrow)).rounded(.down)
        let second = ((wide + narrow) * leftover / (wide + narrow)).rounded(.down) - first
        #expect(abs(units(j[4].maxX - j[4].minX) - (wide + first)) <= 1, "wide space")
        #expect(abs(units(j[9].maxX - j[9].minX) - (narrow + second)) <= 1, "narrow space")
        #expect(first > 2.5 * second)
        #expect(abs(units(justified.lines[0].justificationWidth) - leftover) <= 1)
    }

    @Test func blinkStretchesAroundIdeographsAndAfterSpaces() throws {
        // "中文" then a Latin word: gaps between the ideographs (one per pair), after 文 before
        // the space, after the space, and before 中 after a Latin letter.
        let text = "中文中文 abc中文中文中文中文中文中文中文中文"
        let (natural, justified) = Self.pair(text, .chromium, width: 160, families: ["Noto Sans CJK SC"])
        try #require(natural.lineCount >= 2)
        let n = Self.content(natural, line: 0), j = justified.clusters(onLine: 0, unit: .scalars)
        let scalars = Array(text.unicodeScalars)
        func isCJK(_ k: Int) -> Bool { CJKJustification.isIdeographOrSymbol(scalars[k].value) }
        // Opportunities: after each space and ideograph but the line's last; before an
        // ideograph that follows neither.
        var opportunities = 0
        for (k, c) in n.enumerated() {
            let g = c.range.lowerBound
            if k > 0 && isCJK(g) && !(isCJK(g - 1) || scalars[g - 1] == " ") { opportunities += 1 }
            if k < n.count - 1 && (isCJK(g) || scalars[g] == " ") { opportunities += 1 }
        }
        // Blink's leftover: the available width less the line's width in whole layout units.
        let lineUnits = (natural.lines[0].usedWidth * 64 - 1e-6).rounded(.up) / 64
        let share = (160 - lineUnits) / Double(opportunities)
        #expect(abs(justified.lines[0].justificationWidth - share * Double(opportunities)) < 1e-9)
        var added = 0.0
        for (k, c) in n.enumerated() {
            let g = c.range.lowerBound
            let before = k > 0 && isCJK(g) && !(isCJK(g - 1) || scalars[g - 1] == " ") ? share : 0
            #expect(abs(j[k].minX - (c.minX + added)) < 1e-9, "cluster \(k) starts after the shares before it")
            added += before + (k < n.count - 1 && (isCJK(g) || scalars[g] == " ") ? share : 0)
            #expect(abs(j[k].maxX - (c.maxX + added)) < 1e-9, "cluster \(k) ends after its own shares")
        }
        // "abc" takes no share inside it.
        let a = try #require(n.firstIndex { scalars[$0.range.lowerBound] == "a" })
        #expect(abs((j[a + 1].minX - j[a].minX) - (n[a + 1].minX - n[a].minX)) < 1e-9)
    }

    @Test func aLineWithoutOpportunitiesStaysNaturalUnderBlinkButIsLetterSpacedElsewhere() throws {
        let word = String(repeating: "abcdefghij", count: 6)
        let blink = Self.pair(word, .chromium, width: 120)
        try #require(blink.natural.lineCount > 1)
        #expect(blink.justified.lines.map(\.rect) == blink.natural.lines.map(\.rect))
        for profile in [Compatibility.standard, .pango] {
            let (natural, justified) = Self.pair(word, profile, width: 120)
            let line = justified.lines[0]
            let n = natural.clusters(onLine: 0, unit: .scalars), j = justified.clusters(onLine: 0, unit: .scalars)
            // Pango divides the leftover in whole units and drops the remainder (below one unit a gap).
            #expect(abs(line.rect.width - 120) < (profile == .pango ? Double(n.count) / 1024 : 1e-9), "\(profile)")
            let gap = (120 - natural.lines[0].usedWidth) / Double(n.count - 1)
            // Every gap between two clusters the same (Pango: in whole Pango units).
            for k in 1..<n.count {
                let moved = j[k].minX - n[k].minX
                // Pango puts half of each gap at the start of the cluster after it.
                let expected = profile == .pango ? gap * (Double(k) - 0.5) : gap * Double(k)
                #expect(abs(moved - expected) < (profile == .pango ? Double(k + 1) / 1024 : 1e-9), "\(profile) cluster \(k)")
            }
        }
    }

    @Test func theLastLineTakesLastLineAlignment() throws {
        var s = profiled(.standard, ["DejaVu Sans"], size: 15)
        s.alignment = .justified
        s.lastLineAlignment = .justified
        let l = engine.layout(Self.text + "\n" + Self.text, style: s, width: 100)
        for line in l.lines { #expect(abs(line.rect.width - 100) < 1e-9, "\(line.scalarRange)") }
        s.lastLineAlignment = .center
        let centred = engine.layout(Self.text, style: s, width: 100)
        let last = try #require(centred.lines.last)
        #expect(last.justificationWidth == 0 && abs(last.rect.midX - 50) < 1e-9)
        // Justified as the last line only: the other lines stay left.
        s.alignment = .natural
        s.lastLineAlignment = .justified
        let onlyLast = engine.layout(Self.text, style: s, width: 100)
        #expect(onlyLast.lines.dropLast().allSatisfy { $0.justificationWidth == 0 })
        #expect(abs((onlyLast.lines.last?.rect.width ?? 0) - 100) < 1e-9)
    }

    @Test func rightToLeftLinesStretchFromTheRight() throws {
        let text = "שלום עולם זהו טקסט ארוך שנפרש על פני כמה שורות בעברית"
        let (natural, justified) = Self.pair(text, .standard, width: 120, families: ["Noto Sans Hebrew"])
        try #require(natural.lineCount > 1)
        let line = justified.lines[0]
        #expect(abs(line.rect.x) < 1e-9 && abs(line.rect.width - 120) < 1e-9)
        let n = natural.clusters(onLine: 0, unit: .scalars), j = justified.clusters(onLine: 0, unit: .scalars)
        // The first cluster keeps the right edge; the last content cluster reaches the left one.
        #expect(abs(j[0].maxX - 120) < 1e-9 && abs(n[0].maxX - 120) < 1e-9)
        let content = Self.content(natural, line: 0).count
        #expect(abs(j[content - 1].minX) < 1e-9)
    }

    @Test func hitTestingFindsStretchedClusters() throws {
        let (_, justified) = Self.pair(Self.text, .standard, width: 100)
        let line = justified.lines[0]
        for c in justified.clusters(onLine: 0, unit: .utf16) where c.maxX - c.minX > 0.5 {
            let hit = justified.characterOffset(at: Point(x: (c.minX + c.maxX) / 2, y: line.rect.midY), unit: .utf16)
            #expect(hit == c.range.lowerBound)
        }
    }

    @Test func inlineBoxesMoveWithTheirLine() throws {
        var t = AttributedText("aaa bbb ")
        t.append(InlineBox(width: 20, height: 10, baselineOffset: 0, id: "box"))
        t.append(" ccc ddd eee fff ggg hhh")
        var s = profiled(.standard, ["DejaVu Sans"], size: 15)
        let natural = engine.layout(t, style: s, width: 110)
        s.alignment = .justified
        let justified = engine.layout(t, style: s, width: 110)
        let n = try #require(natural.inlineBoxes.first), j = try #require(justified.inlineBoxes.first)
        let cluster = try #require(justified.clusters(onLine: j.line, unit: .utf8).first { $0.range.lowerBound == j.utf8Offset })
        #expect(j.rect.x > n.rect.x && abs(j.rect.x - cluster.minX) < 1e-9 && j.rect.width == n.rect.width)
    }

    @Test func drawingPlacesGlyphsWhereTheClustersAre() throws {
        var s = profiled(.chromium, ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        s.alignment = .justified
        let text = "Justified text spreads the leftover width. 中文排版的两端对齐测试，看看汉字之间是否均匀分布。"
        let drawing = engine.drawing(text, style: s, width: 180)
        for (i, line) in drawing.layout.lines.enumerated() where line.justificationWidth > 0 {
            let starts = drawing.layout.clusters(onLine: i, unit: .utf8).map(\.minX)
            let glyphs = drawing.lines[i].map(\.x)
            // One glyph per cluster here (no marks, no ligatures across a stretch): each at its
            // cluster's start, give or take the glyph's own offset.
            #expect(glyphs.count >= starts.count - 1, "line \(i)")
            for x in glyphs { #expect(starts.contains { abs($0 - x) < 0.5 }, "line \(i) glyph at \(x)") }
        }
    }

    @Test func unknownLastLineAlignmentIsAnError() throws {
        let json = #"{"alignment": "justified", "lastLineAlignment": "justify"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TextStyle.self, from: Data(json.utf8)) }
        let ok = try JSONDecoder().decode(TextStyle.self, from: Data(#"{"alignment": "justified", "lastLineAlignment": "center"}"#.utf8))
        #expect(ok.alignment == .justified && ok.lastLineAlignment == .center)
    }
}

/// The box width on each engine's grid (found by the justification oracle's fractional
/// widths): Blink floors a CSS width to its 1/64-px layout unit and Pango takes it in 1/1024-pt
/// units, so a line a fraction of a pixel narrower than the box fits; `standard` keeps UIKit's
/// device-pixel grid.
@Suite struct WidthGridTests {
    @Test func fractionalWidthsSnapToTheEnginesGrid() throws {
        let text = "Justified text spreads out"
        for (profile, unit) in [(Compatibility.chromium, 1.0 / 64), (.pango, 1.0 / 1024)] {
            let s = profiled(profile, ["DejaVu Sans"], size: 15)
            let natural = engine.layout(text, style: s, width: .infinity, scale: 2).lines[0].usedWidth
            // Just wide enough on the engine's grid, but below it on the half-point grid.
            let width = ((natural / unit).rounded(.up) + 1) * unit
            try #require((width * 2).rounded(.down) / 2 < natural, "\(profile): \(natural) is on the device grid")
            let l = engine.layout(text, style: s, width: width, scale: 2)
            #expect(l.lineCount == 1, "\(profile) at \(width): \(l.lines.map(\.scalarRange))")
            #expect(engine.measure(text, style: s, width: width, scale: 2).lineCount == 1)
        }
        // UIKit's cells are on the device grid: the same width wraps.
        let s = profiled(.standard, ["DejaVu Sans"], size: 15)
        let natural = engine.layout(text, style: s, width: .infinity, scale: 2).lines[0].usedWidth
        let width = ((natural * 64).rounded(.up) + 1) / 64
        try #require((width * 2).rounded(.down) / 2 < natural)
        #expect(engine.layout(text, style: s, width: width, scale: 2).lineCount == 2)
    }
}
