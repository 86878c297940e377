import Foundation
import Plumb
import Testing

/// The README's library examples, verbatim: they must compile, run and print what their
/// comments say; and the README's rule numbers are the engine's.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleRuns() throws {
        let plumb = TextMeasurer()
        var style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        style.lineSpacing = 8

        let one = plumb.measure("Hello, 世界", style: style, width: 200)     // 74.5 × 22, 1 line (size, lineCount, warnings)
        let layout = plumb.layout("Hello, 世界", style: style, width: 200)   // + per-line geometry
        layout.lastLineRect        // fade mask over the end of the last line (its left end if right to left)
        layout.lineIndex(atY: 31)  // which line a touch is on (a gap belongs to the line above)

        let heights = plumb.heights(for: ["a", "b", "c"], style: style, width: 375)      // all cores
        let lines = plumb.layouts(for: [Cell(text: "a", style: style, width: 375)])     // geometry, all cores
        var list = try plumb.listHeights(for: [(id: 1, text: "a"), (id: 2, text: "b")], style: style, width: 375)
        list.rowIndex(atOffset: 500)                   // the row at y = 500, O(log n)
        list.updateHeight(of: 2, to: 44)               // one row changed: O(log n)
        let bubble = ListRow(id: 3, text: "See you at 8", style: style, width: 240, extraHeight: 16 + 14.25)
        let feed = try plumb.listHeights(for: [bubble])  // per-row style, width and padding, pixel-ceiled
        let bold = AttributedText("Ann", TextAttributes(weight: 700))
        let mixed = plumb.heights(for: [Cell(text: "a", style: style, width: 240), Cell(text: bold, style: style, width: 240)])  // one batch, plain and rich
        layout.lines[0].utf16Range                     // NSRange / JavaScript indices (also scalarRange, utf8Range)
        let json = try JSONEncoder().encode(Cell(text: "a", style: style, width: 375))  // plumb measure's fields
        #expect(feed.height(of: 3)! > 30.25 && !json.isEmpty)
        #expect(one.lineCount == 1 && one.size == Size(width: 74.5, height: 22))
        #expect(layout.lines.count == 1)
        #expect(heights.count == 3)
        #expect(mixed.count == 2 && mixed[1].lineCount == 1)
        #expect(lines.count == 1)
        #expect(list.count == 2)
    }

    /// The README's rich-text example, verbatim, with the numbers its comments print.
    @Test func theRichTextExampleRuns() throws {
        let plumb = TextMeasurer()
        var message = AttributedText("Alice", TextAttributes(weight: 700))   // a bold name
        message.append(" replied ")
        message.append(InlineBox(width: 18, height: 18, baselineOffset: -3, id: "avatar"))
        message.append(" See you at 8, and bring the long list of everything we talked about")
        var chat = TextStyle(families: ["Noto Sans"], size: 15)
        chat.maxLines = 2
        chat.lineBreakMode = .truncatingTail
        chat.truncationToken = AttributedText("… more", TextAttributes(weight: 700))
        let bubble = plumb.layout(message, style: chat, width: 200)     // 194.5 × 41, 2 lines, truncated
        bubble.inlineBoxes[0].rect                     // (92.88, 1.035, 18, 18): where to draw the avatar
        bubble.truncationToken?.rect                   // (138.255, 20.43, 56.115, 20.43): a tap there is on "more"
        bubble.hit(at: Point(x: 20, y: 10))            // .character(offset: 3): the UTF-16 offset under a touch
        bubble.hit(at: Point(x: 100, y: 10))           // .inlineBox(…): the avatar's placement, id "avatar"
        bubble.hit(at: Point(x: 150, y: 30))           // .truncationToken: a tap on "… more"
        bubble.rects(forCharacters: 0..<5, unit: .utf16)               // [(0, 0, 36.075, 20.43)]: "Alice", to highlight

        #expect(bubble.size == Size(width: 194.5, height: 41) && bubble.lineCount == 2 && bubble.measurement.isTruncated)
        #expect(Self.rounded(bubble.inlineBoxes[0].rect) == [92.88, 1.035, 18, 18])
        #expect(bubble.inlineBoxes[0].id == "avatar")
        let token = try #require(bubble.truncationToken)
        #expect(Self.rounded(token.rect) == [138.255, 20.43, 56.115, 20.43] && token.line == 1)
        #expect(bubble.hit(at: Point(x: 20, y: 10)) == .character(offset: 3))
        #expect(bubble.characterOffset(at: Point(x: 20, y: 10), unit: .utf16) == 3)
        #expect(bubble.hit(at: Point(x: 100, y: 10)) == .inlineBox(bubble.inlineBoxes[0]))
        #expect(bubble.hit(at: Point(x: 150, y: 30)) == .truncationToken)
        #expect(bubble.rects(forCharacters: 0..<5, unit: .utf16).map(Self.rounded) == [[0, 0, 36.075, 20.43]])
    }

    /// A rect's numbers as the README prints them (3 decimals).
    static func rounded(_ r: Rect) -> [Double] {
        [r.x, r.y, r.width, r.height].map { ($0 * 1000).rounded() / 1000 }
    }

    /// The example in `TextMeasurer`'s doc comment (Sources/Plumb/Front/TextMeasurer.swift) says what the
    /// engine answers.
    @Test func theDocCommentExampleHolds() throws {
        let plumb = TextMeasurer()
        let style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        let m = plumb.measure("Hello, 世界", style: style, width: 200)   // m.size.height == 22
        #expect(m.size.height == 22)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/Plumb/Front/TextMeasurer.swift"), encoding: .utf8)
        #expect(source.contains("/// let m = plumb.measure(\"Hello, 世界\", style: style, width: 200)   // m.size.height == 22"))
    }

    /// The numbers of the README's height rules and memory table that are the engine's
    /// defaults and substitutions.
    @Test func theReadmesRuleNumbersHold() throws {
        let readme = try Self.readme()
        let plumb = TextMeasurer()
        let style = TextStyle(families: ["Noto Sans"], size: 15)
        // width NaN/≤ 0 → the fallback height (one line of the style, pixel-ceiled), zero lines, flagged.
        #expect(readme.contains("width NaN/≤ 0 → the fallback height (one line of the style, pixel-ceiled; `unmeasurableHeight`), zero lines, flagged"))
        let oneLine = plumb.measure("Hello", style: style, width: 1000)
        for width in [0, -5, Double.nan] {
            let m = plumb.measure("Hello", style: style, width: width)
            #expect(m.lineCount == 0 && m.isFallback && m.height == oneLine.height && m.height == 20.5)
            #expect(plumb.layout("Hello", style: style, width: width).lines.isEmpty)
        }
        // size NaN/∞/≤ 0 → 17 pt.
        #expect(readme.contains("size NaN/∞/≤ 0 → 17 pt"))
        var bad = style
        bad.font.size = -1
        var seventeen = style
        seventeen.font.size = 17
        #expect(plumb.measure("Hello", style: bad, width: 100).size == plumb.measure("Hello", style: seventeen, width: 100).size)
        #expect(FontDescriptor.defaultSize == 17)
        // scale NaN/∞/≤ 0 → 2, otherwise clamped to 0.01…100.
        #expect(readme.contains("scale NaN/∞/≤ 0 → 2, otherwise clamped to 0.01…100"))
        let text = "Hello, world and more"
        #expect(plumb.measure(text, style: style, width: 100, scale: 0).size == plumb.measure(text, style: style, width: 100, scale: 2).size)
        #expect(plumb.measure(text, style: style, width: 100, scale: 1000).size == plumb.measure(text, style: style, width: 100, scale: 100).size)
        #expect(plumb.measure(text, style: style, width: 100, scale: 0.0001).size == plumb.measure(text, style: style, width: 100, scale: 0.01).size)
        // The budgets and the size limit.
        let c = TextMeasurer.Configuration()
        #expect(readme.contains("`resultCacheBytes` (8 MiB") && c.resultCacheBytes == 8 << 20)
        #expect(readme.contains("`preparedCacheBytes` (64 MiB)") && c.preparedCacheBytes == 64 << 20)
        #expect(readme.contains("`segmentCacheBytes` (8 MiB)") && c.segmentCacheBytes == 8 << 20)
        #expect(readme.contains("(4 MiB of UTF-8 by default)") && c.maximumTextBytes == 4 << 20)
        var small = c
        small.maximumTextBytes = 8
        let limited = TextMeasurer(configuration: small, fonts: plumb.fonts)
        let tooLong = limited.measure("123456789", style: style, width: 100)
        #expect(tooLong.lineCount == 0 && tooLong.isFallback && tooLong.height == 20.5)
        #expect(tooLong.warnings.contains { if case .textTooLong = $0 { true } else { false } })
    }

    /// The README's sentence on application fonts names the real option, and the folder's
    /// fonts are then the engine's (a copy of DejaVu Sans under another file name).
    @Test func theApplicationFontsSentenceHolds() throws {
        let readme = try Self.readme().replacingOccurrences(of: "\n", with: " ")
        #expect(readme.contains("Folders go through fontconfig: `config.fonts.applicationFontDirectories = [\"/app/fonts\"]` adds them to that engine's fontconfig configuration only"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-app-fonts-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: dir.appendingPathComponent("AppFont.ttf").path)
        var config = TextMeasurer.Configuration()
        config.fonts.applicationFontDirectories = [dir.path]
        let withApp = TextMeasurer(configuration: config)
        #expect(withApp.fonts.fontSetFingerprint.contains { $0.hasPrefix(dir.path + "/AppFont.ttf#0#") })
        #expect(!TextMeasurer().fonts.fontSetFingerprint.contains { $0.contains("AppFont.ttf") })
    }

    /// The README's accuracy figures are the report's (Documentation/Accuracy.md).
    @Test func theAccuracyFiguresAreTheReports() throws {
        let readme = try Self.readme().replacingOccurrences(of: "\n", with: " ")
        let report = try String(contentsOf: Self.root.appendingPathComponent("Documentation/Accuracy.md"), encoding: .utf8)
        #expect(readme.contains("on 96,000 real cases (4,000 UI strings and paragraphs in 11 scripts × 3 font cascades × 8 widths;"))
        #expect(report.contains("4000 corpus cells (`Benchmarks/Corpus/cells.jsonl`) × 3 cascades × 8 widths (100, 150, 200, 250, 300, 350, 400, 450 pt) = 96000 cases"))
        #expect(Set(report.matches(of: /\n\| script: (\w+) \| \d+ \|/).map { String($0.output.1) }).count == 11)
        #expect(readme.contains("the `pango` profile agrees with Pango on 99.94 % of line counts and 99.72 % of all line starts"))
        #expect(report.contains("| all | 96000 | 99.94 % | 99.72 % |"))
        #expect(readme.contains("the `chromium` profile with Chromium on 100.00 % and 99.99 %"))
        #expect(report.contains("| `chromium` | 100.00 % | 99.99 % |"))
        #expect(readme.contains("agree on line count with one of the two on 99.97 % and on all line starts on 99.67 %"))
        #expect(report.contains(
            "`standard` agrees on line count with Chromium or with Pango on 99.97 % of cases, on all line starts on 99.67 %."))
    }

    /// The README's application-font example, verbatim: Inter (variable) as "Brand" and DejaVu
    /// Serif's bytes as "Promo" (see `AppFontTests` for the fonts).
    @Test func theAppFontExampleRuns() throws {
        let brandFontPath = AppFontTests.interVariable
        let downloadedBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: AppFontTests.dejaVuSerif)))
        var config = TextMeasurer.Configuration()
        config.fonts.fontFiles = [
            .path(brandFontPath, family: "Brand"),                        // TTF, OTF, TTC, WOFF, WOFF2; an alias
            .data(downloadedBytes, name: "promo.ttf", family: "Promo"),   // font bytes in memory
        ]
        let brand = TextMeasurer(configuration: config)
        brand.fonts.fontFileErrors                 // [] here; else each file that could not be used, with why
        var title = TextStyle(families: ["Brand", "Noto Sans"], size: 15)
        title.font.weight = 450                    // a variable font's wght axis (wdth from `width`, opsz from the size)
        title.font.features = [.tabularNumbers, .noLigatures]   // or FontFeature.parse(featureSettings: #""tnum", "liga" 0"#)
        title.font.variations = [FontVariation("wght", 520)]    // any axis, clamped to the font's range
        let price = brand.measure("Total 1,234.50", style: title, width: 200)   // Brand's metrics, not a fallback

        #expect(brand.fonts.fontFileErrors.isEmpty)
        #expect(brand.fonts.registeredFonts.map(\.family).contains("Promo"))
        #expect(!price.isFallback && price.warnings.isEmpty && price.lineCount == 1)
        #expect(try FontFeature.parse(featureSettings: #""tnum", "liga" 0"#) == [.tabularNumbers, .noLigatures])
        // Inter, not Noto Sans: the registered face measures, and its wght axis follows 520.
        var noto = title
        noto.font.families = ["Noto Sans"]
        #expect(plumbWidth(brand, "Total 1,234.50", title) != plumbWidth(brand, "Total 1,234.50", noto))
        var lighter = title
        lighter.font.variations = []
        #expect(plumbWidth(brand, "Total 1,234.50", title) > plumbWidth(brand, "Total 1,234.50", lighter))
    }

    func plumbWidth(_ m: TextMeasurer, _ text: String, _ style: TextStyle) -> Double {
        m.measure(text, style: style, width: 1e6, scale: 64).size.width
    }

    static let root = repositoryRoot
    static func readme() throws -> String {
        try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The README's `async` line (in an `async` function the `async` overloads are chosen).
    @Test func theAsyncLineRuns() async throws {
        let plumb = TextMeasurer()
        let style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
        // In async code: the batch runs on the engine's workers, is cancelled with its task, reports progress
        let measured = try await plumb.heights(for: ["a", "b"], style: style, width: 375) { print($0.completed, "of", $0.total) }
        #expect(measured.count == 2)
    }

    /// The examples above are the README's: every line of every Swift block of the README is in
    /// this file (so the numbers in their comments are the ones the tests check).
    @Test func theExamplesAreTheReadmes() throws {
        let readme = try Self.readme()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 3)
        for block in blocks {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "import Plumb" }
            #expect(lines.count > 5)
            for line in lines { #expect(source.contains(line), "README line not in the test: \(line)") }
        }
    }
}
