import Dispatch
import Glibc
@testable import Plumb
import Synchronization
import Testing

/// An application font folder of one test's own engine (no other test sees its fonts),
/// removed with everything in it when the test ends.
final class FontFolder: @unchecked Sendable {
    let path: String
    private var names: Set<String> = []

    init() {
        path = "/tmp/plumb-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(path, 0o755)
    }

    deinit {
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// Writes a font file (to a temporary name, then renamed: fontconfig never sees half a file).
    func add(_ name: String, bytes: [UInt8]) {
        names.insert(name)
        let temporary = path + "/." + name + ".partial"
        let f = fopen(temporary, "wb")
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
        rename(temporary, path + "/" + name)
    }

    func remove(_ name: String) { unlink(path + "/" + name) }

    /// An engine whose fonts are the system's plus this folder's.
    func engine() -> TextMeasurer {
        var config = TextMeasurer.Configuration()
        config.fonts.applicationFontDirectories = [path]
        return TextMeasurer(configuration: config)
    }
}

/// The installed DejaVu Sans, as `fc-match 'DejaVu Sans'` finds it.
let dejaVuSansPath = engine.fonts.cascade(for: FontDescriptor(families: ["DejaVu Sans"], size: 15)).primary.path

/// DejaVu Sans with its family renamed to "PlumbT Sans" (the name table's UTF-16 and Mac
/// Roman strings are overwritten in place, same length): a family that exists only where a
/// test puts the file.
func renamedDejaVuSans() throws -> [UInt8] {
    var bytes = try #require(readFile(dejaVuSansPath))
    let old: [UInt8] = Array("DejaVu Sans".utf8), new: [UInt8] = Array("PlumbT Sans".utf8)
    let old16: [UInt8] = old.flatMap { [UInt8(0), $0] }, new16: [UInt8] = new.flatMap { [UInt8(0), $0] }
    var replaced = 0
    let pairs: [([UInt8], [UInt8])] = [(old16, new16), (old, new)]
    for (from, to) in pairs {
        var i = 0
        while i + from.count <= bytes.count {
            if bytes[i] == from[0] && Array(bytes[i..<i + from.count]) == from {
                bytes.replaceSubrange(i..<i + from.count, with: to)
                replaced += 1
                i += from.count
            } else {
                i += 1
            }
        }
    }
    #expect(replaced >= 2)
    return bytes
}

/// Issue 13 part 1: fonts that change on disk while styles resolved earlier are still in use.
@Suite struct FontReloadTests {
    /// The repro: a style resolved before a reload, then a fallback lookup (Thai is
    /// not in DejaVu Sans). Trapped on an `unowned` reference to the replaced resolver.
    @Test func aStyleResolvedBeforeAReloadStillMeasures() throws {
        let folder = FontFolder()
        let m = folder.engine()
        let style = TextStyle(families: ["DejaVu Sans"], size: 15)
        let resolved = m.resolve(style)
        folder.add("DejaVuSans.ttf", bytes: try #require(readFile(dejaVuSansPath)))
        #expect(m.reloadFontsIfChanged())
        let thai = m.measure("ภาษาไทย", style: resolved, width: 200)
        #expect(thai == engine.measure("ภาษาไทย", style: style, width: 200))
        #expect(!thai.isFallback && thai.lineCount == 1)
    }

    /// A style resolved before a reload is re-resolved on the new fonts: a family that
    /// appeared is used, a family that disappeared is skipped (no answer from the old fonts).
    @Test func afterAReloadNoAnswerComesFromTheOldFonts() throws {
        let folder = FontFolder()
        let m = folder.engine()
        let style = TextStyle(families: ["PlumbT Sans"], size: 15)
        let text = "Hello world"
        let withoutFont = m.measure(text, style: style, width: 1000)
        #expect(withoutFont.warnings.contains(.unknownFontFamily("PlumbT Sans")))

        let resolvedWithout = m.resolve(style)
        folder.add("Renamed.ttf", bytes: try renamedDejaVuSans())
        #expect(m.reloadFontsIfChanged())
        let withFont = m.measure(text, style: resolvedWithout, width: 1000)
        let dejaVu = engine.measure(text, style: TextStyle(families: ["DejaVu Sans"], size: 15), width: 1000)
        #expect(withFont == dejaVu)
        #expect(withFont.size.width != withoutFont.size.width)

        let resolvedWith = m.resolve(style)
        folder.remove("Renamed.ttf")
        #expect(m.reloadFontsIfChanged())
        #expect(m.measure(text, style: resolvedWith, width: 1000) == withoutFont)
        #expect(m.measure(text, style: style, width: 1000) == withoutFont)
    }

    /// Batches and single measurements (some through styles resolved before) on several
    /// threads while a font file is added and removed and the fonts reloaded, repeatedly.
    /// Every answer is the one of the fonts before or after a change (never a crash, never a
    /// mix), and once the changes stop every answer is the one of the fonts on disk.
    @Test func batchesRunWhileAFontComesAndGoes() throws {
        let folder = FontFolder()
        let m = folder.engine()
        let font = try renamedDejaVuSans()
        let style = TextStyle(families: ["PlumbT Sans", "Noto Sans CJK SC"], size: 15)
        let texts = (0..<24).map { i in
            ["Hello world \(i)", "ภาษาไทย \(i)", "日本語のテキスト \(i)", "Ünïcødé \(i) — ok"][i % 4]
        }
        let cells = texts.enumerated().map { Cell(text: $1, style: style, width: Double(60 + 10 * ($0 % 5))) }
        let without = cells.map { engine.measure($0.text, style: $0.style, width: $0.width) }
        let withFolder = FontFolder()
        withFolder.add("Renamed.ttf", bytes: font)
        let reference = withFolder.engine()
        let with = cells.map { reference.measure($0.text, style: $0.style, width: $0.width) }
        #expect(with != without)

        let early = m.resolve(style)
        let wrong = Atomic<Int>(0)
        let toggles = 8, batchesPerWorker = 12
        let done = DispatchGroup()
        for worker in 0..<3 {
            DispatchQueue.global().async(group: done) {
                for round in 0..<batchesPerWorker {
                    let got: [TextMeasurement]
                    switch (worker + round) % 3 {
                    case 0: got = m.heights(for: cells, workers: 2)
                    case 1: got = cells.map { m.measure($0.text, style: early, width: $0.width) }
                    default:
                        // Resolved now, used while reloads go on (a fresh cascade each time).
                        let resolved = m.resolve(style)
                        got = cells.map { m.measure($0.text, style: resolved, width: $0.width) }
                    }
                    for (i, r) in got.enumerated() where r != with[i] && r != without[i] {
                        wrong.add(1, ordering: .relaxed)
                    }
                    if got.count != cells.count { wrong.add(1, ordering: .relaxed) }
                }
            }
        }
        for t in 0..<toggles {
            if t % 2 == 0 { folder.add("Renamed.ttf", bytes: font) } else { folder.remove("Renamed.ttf") }
            // A batch may have noticed the change first (batches check every 10 s).
            _ = m.reloadFontsIfChanged()
        }
        done.wait()
        #expect(wrong.load(ordering: .relaxed) == 0)

        // The last toggle removed the font: every later answer is without it.
        #expect(m.heights(for: cells) == without)
        #expect(cells.map { m.measure($0.text, style: early, width: $0.width) } == without)
        folder.add("Renamed.ttf", bytes: font)
        #expect(m.reloadFontsIfChanged())
        #expect(m.heights(for: cells) == with)
        #expect(cells.map { m.measure($0.text, style: early, width: $0.width) } == with)
    }
}

/// Every batch entry point checks for font changes (at most once every ten seconds), as
/// `heights(for:)` always did: `layouts(for:)` did not (issue 12 item 7).
@Suite struct BatchFontCheckTests {
    let style = TextStyle(families: ["Noto Sans"], size: 15)

    func checks(_ body: (TextMeasurer) throws -> Void) rethrows -> Bool {
        let plumb = TextMeasurer(fonts: engine.fonts)
        #expect(plumb.lastPeriodicFontCheck == 0)
        try body(plumb)
        return plumb.lastPeriodicFontCheck != 0
    }

    /// An engine that loaded its fonts just now does not reload fontconfig's configuration for
    /// its first batch (a serial ~30 M-instruction prefix of a cold batch): its fonts count as
    /// checked when loaded, and the next check is due ten seconds later.
    @Test func fontsLoadedByTheEngineCountAsJustChecked() {
        let plumb = TextMeasurer()
        let loaded = plumb.lastPeriodicFontCheck
        #expect(loaded != 0)
        _ = plumb.heights(for: ["a"], style: style, width: 100)
        #expect(plumb.lastPeriodicFontCheck == loaded)
    }

    @Test func everyBatchChecksForFontChanges() throws {
        let cell = Cell(text: "a b", style: style, width: 100)
        let rich = Cell(text: AttributedText("a b"), style: style, width: 100)
        #expect(checks { _ = $0.heights(for: ["a"], style: style, width: 100) })
        #expect(checks { _ = $0.heights(for: [cell]) })
        #expect(checks { _ = $0.layouts(for: [cell]) })
        #expect(checks { _ = $0.heights(for: [rich]) })
        #expect(checks { _ = $0.layouts(for: [rich]) })
        #expect(try checks { _ = try $0.listHeights(for: [(id: 1, text: "a")], style: style, width: 100) })
    }
}
