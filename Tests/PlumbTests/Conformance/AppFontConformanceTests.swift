import Foundation
@testable import Plumb
import Testing

/// Application fonts against Chromium's `@font-face` and against Pango through fontconfig
/// (issue 28, item 6), replayed from stored subsets written by `app_fonts_chromium.py` and
/// `app_fonts_pango.py --write-subset` (Chromium: device scales 1 and 2, div heights and line
/// starts; Pango: layout heights and line starts). The engine registers the files the oracles
/// load (see Tests/Conformance/app_fonts.py): for Chromium, Inter's variable roman as a TTF,
/// Inter's variable italic converted to WOFF2 here, and DejaVu Serif's regular face alone; for
/// Pango, which cannot use WOFF2 files, Inter's roman and italic as TTFs.
@Suite struct AppFontConformanceTests {
    static let subsetURL = ConformanceTests.subsetURL.deletingLastPathComponent()
        .appendingPathComponent("app_fonts_chromium_subset.jsonl")
    static let pangoSubsetURL = subsetURL.deletingLastPathComponent().appendingPathComponent("app_fonts_pango_subset.jsonl")
    static let interDirectory = "/opt/plumb-test-fonts/usr/share/fonts/truetype/inter-vf"
    /// Floors at or below the agreement when recorded (Chromium: 400 of 400 line starts and
    /// heights; Pango: 298 of 300 line starts, Thai and a CJK line end, and 300 of 300
    /// heights). The oracles' own figures over every case are in Accuracy.md.
    static let chromiumFloor = 0.995
    static let pangoFloor = 0.99

    /// An engine with the system's fonts and `files` registered.
    static func registeredEngine(_ files: [FontFile]) throws -> TextMeasurer {
        var config = TextMeasurer.Configuration()
        config.fonts.fontFiles = files
        let m = TextMeasurer(configuration: config)
        try #require(m.fonts.fontFileErrors.isEmpty, "\(m.fonts.fontFileErrors)")
        return m
    }

    /// The Chromium oracle's files: Inter's italic is converted to WOFF2 in `dir`.
    static func chromiumFiles(in dir: URL) throws -> [FontFile] {
        let italic = dir.appendingPathComponent("Inter-italic.var.ttf").path
        try FileManager.default.copyItem(atPath: interDirectory + "/Inter-italic.var.ttf", toPath: italic)
        try AppFontTests.run("woff2_compress", [italic])
        return [
            .path(interDirectory + "/Inter-roman.var.ttf"),
            .path(dir.appendingPathComponent("Inter-italic.var.woff2").path),
            .path(AppFontTests.dejaVuSerif),
        ]
    }

    /// Replays a subset: (cases, line starts agreeing, heights agreeing, variants, the first misses).
    /// `heightAgrees` compares Plumb's exact height with the reference's.
    static func replay(
        _ url: URL, with m: TextMeasurer, reference: String, heightAgrees: (Double, Double) -> Bool
    ) throws -> (cases: Int, starts: Int, heights: Int, variants: Set<String>, worst: [String]) {
        var r = (cases: 0, starts: 0, heights: 0, variants: Set<String>(), worst: [String]())
        for line in try Data(contentsOf: url).split(separator: UInt8(ascii: "\n")) {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let style = try JSONDecoder().decode(TextStyle.self, from: Data(line))
            let text = try #require(c["text"] as? String)
            let width = try #require(c["width"] as? Double)
            // Pango's cases have no device scale: its heights are not snapped to pixels.
            let l = (c["scale"] as? Double).map { m.layout(text, style: style, width: width, scale: $0) }
                ?? m.layout(text, style: style, width: width)
            let starts = l.lines.map(\.scalarRange.lowerBound)
            let expectedStarts = try #require(c[reference + "LineStarts"] as? [Int])
            let expectedHeight = try #require(c[reference + "Height"] as? Double)
            r.cases += 1
            r.variants.insert(try #require(c["variant"] as? String))
            let startsAgree = starts == expectedStarts, heightAgrees = heightAgrees(l.exactHeight, expectedHeight)
            r.starts += startsAgree ? 1 : 0
            r.heights += heightAgrees ? 1 : 0
            if !(startsAgree && heightAgrees) && r.worst.count < 5 {
                r.worst.append("\(text.prefix(40).debugDescription) \(style.font.families[0]) \(style.font.weight): "
                    + "starts \(starts) vs \(expectedStarts), height \(l.exactHeight) vs \(expectedHeight)")
            }
        }
        return r
    }

    @Test func theChromiumProfileGivesChromiumsAnswersInApplicationFonts() throws {
        let dir = try AppFontTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let m = try Self.registeredEngine(try Self.chromiumFiles(in: dir))
        let r = try Self.replay(Self.subsetURL, with: m, reference: "chromium") { abs($0 - $1) <= 0.01 }
        #expect(r.cases == 400)
        #expect(r.variants == ["inter-weight", "inter-italic", "inter-features", "serif-synthetic"])
        #expect(Double(r.starts) / Double(r.cases) >= Self.chromiumFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.chromiumFloor, "\(r.heights) of \(r.cases); \(r.worst)")
    }

    /// Regression: Blink gives an `@font-face` font the default web-font render style, which
    /// does not position glyphs at subpixels, so its descent never borrows a pixel from its
    /// ascent (a system font of the page's families does, above scale 1). Inter at 18.75 px,
    /// scale 2: ascent 36.33 → 36, descent 9.05 → 9 device px; with Noto Sans Devanagari's 34
    /// and 15 the line is 36 + 15 = 51 device px, 25.5 px in Chromium (25 when Inter borrowed).
    @Test func anApplicationFontNeverBorrowsAPixelUnderTheChromiumProfile() throws {
        let m = try Self.registeredEngine([.path(Self.interDirectory + "/Inter-roman.var.ttf")])
        let style = profiled(.chromium, ["Inter", "Noto Sans CJK SC"], size: 18.75)
        #expect(m.measure("ईस्ट", style: style, width: 1000, scale: 2).height == 25.5)
        #expect(m.measure("ईस्ट", style: style, width: 1000, scale: 1).height == 26)
        #expect(m.measure("ab", style: style, width: 1000, scale: 2).height == 22.5)
    }

    @Test func thePangoProfileGivesPangosAnswersInApplicationFonts() throws {
        let m = try Self.registeredEngine(
            ["Inter-roman.var.ttf", "Inter-italic.var.ttf"].map { .path(Self.interDirectory + "/" + $0) })
        // The same number of Pango units (1/1024 pt).
        let r = try Self.replay(Self.pangoSubsetURL, with: m, reference: "pango") { abs($0 - $1) * 1024 < 0.5 }
        #expect(r.cases == 300)
        #expect(r.variants == ["inter-weight", "inter-italic", "inter-features", "serif-synthetic"])
        #expect(Double(r.starts) / Double(r.cases) >= Self.pangoFloor, "\(r.starts) of \(r.cases); \(r.worst)")
        #expect(Double(r.heights) / Double(r.cases) >= Self.pangoFloor, "\(r.heights) of \(r.cases); \(r.worst)")
    }
}
