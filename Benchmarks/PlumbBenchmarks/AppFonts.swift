import Foundation
import Plumb

/// Application fonts (issue 28, item 7): what registering font files adds to making a font
/// resolver, and what a cell costs in a registered font against the same font from the system.
///
/// - Registration: `FontResolver(configuration:)` with 20 font files and without any, interleaved
///   run by run; the difference of the medians is the files' cost (read, decode, describe,
///   fingerprint). Once with 20 TTFs of `fonts-noto-core`, once with the same files as WOFF2
///   (compressed into a temporary folder with `woff2_compress`; the row is skipped without it).
/// - Cells: the corpus cold (a fresh engine made inside the clock, its font set-up — and the
///   registered file's read — part of a first load, released outside it) and warm, with
///   Noto Sans registered from its file under the alias "Brand Sans" against the system's Noto
///   Sans, both followed by Noto Sans CJK SC; interleaved run by run.
@MainActor func addAppFontScenarios(_ texts: [String], style: TextStyle) {
    guard selected("app fonts") else { return }
    let folder = "/usr/share/fonts/truetype/noto"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".ttf") }.sorted().prefix(20)
    guard names.count == 20 else {
        print("app fonts: fewer than 20 TTFs in \(folder); registration rows skipped")
        return
    }
    let ttfs = names.map { folder + "/" + $0 }
    addRegistration("app fonts: register 20 TTF files", ttfs)
    if let woff2s = compressedCopies(ttfs) {
        addRegistration("app fonts: register 20 WOFF2 files", woff2s.files)
        try? FileManager.default.removeItem(atPath: woff2s.folder)
    } else {
        print("app fonts: woff2_compress not found; the WOFF2 registration row is skipped")
    }
    addRegisteredCells(texts, style: style, notoSans: folder + "/NotoSans-Regular.ttf")
}

/// Times resolvers made with `files` and without, interleaved; prints the difference.
@MainActor private func addRegistration(_ name: String, _ files: [String]) {
    var with = FontResolver.Configuration()
    with.fontFiles = files.map { FontFile.path($0) }
    let probe = FontResolver(configuration: with)
    guard probe.fontFileErrors.isEmpty else {
        print("\(name): \(probe.fontFileErrors.count) files could not be registered: \(probe.fontFileErrors[0])")
        return
    }
    let before = report.rows.count
    report.addPair("\(name): resolver with them", "\(name): resolver without them",
                   ratioName: "\(name): with ÷ without", runs: max(runs, 9), cells: 1,
                   { Sink.value &+= FontResolver(configuration: with).registeredFonts.count },
                   { Sink.value &+= FontResolver(configuration: FontResolver.Configuration()).registeredFonts.count })
    guard report.rows.count == before + 2 else { return }
    let cost = report.rows[before].median - report.rows[before + 1].median
    print(String(format: "%@: %.2f ms above a resolver without them (medians; target ≤ 50 ms)", name, cost / 1e6))
}

/// WOFF2 copies of `files` in a new temporary folder, or nil without `woff2_compress`.
private func compressedCopies(_ files: [String]) -> (folder: String, files: [String])? {
    let folder = NSTemporaryDirectory() + "plumb-bench-woff2-\(getpid())"
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
    var out: [String] = []
    for file in files {
        let copy = folder + "/" + (file as NSString).lastPathComponent
        guard (try? FileManager.default.copyItem(atPath: file, toPath: copy)) != nil else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["woff2_compress", copy]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            return nil
        }
        out.append((copy as NSString).deletingPathExtension + ".woff2")
    }
    return (folder, out)
}

/// The corpus in Noto Sans registered from its file and in the system's Noto Sans, cold and
/// warm, interleaved; the engines of the cold runs are released outside the clock.
@MainActor private func addRegisteredCells(_ texts: [String], style: TextStyle, notoSans: String) {
    var fonts = FontResolver.Configuration()
    fonts.fontFiles = [.path(notoSans, family: "Brand Sans")]
    var registered = style
    registered.font.families = ["Brand Sans"] + style.font.families.dropFirst()
    var config = TextMeasurer.Configuration()
    config.fonts = fonts
    // The same heights: the registered file is the system's Noto Sans.
    let a = TextMeasurer(configuration: config), b = TextMeasurer()
    let r = a.resolve(registered), s = b.resolve(style)
    let same = texts.indices.filter { a.measure(texts[$0], style: r, width: 320, scale: 2) == b.measure(texts[$0], style: s, width: 320, scale: 2) }.count
    print("app fonts: registered Noto Sans answers as the system's on \(same) of \(texts.count) cells")

    func cold(_ engine: @escaping () -> TextMeasurer, _ style: TextStyle) -> () -> Void {
        {
            let m = engine()
            let resolved = m.resolve(style)
            for t in texts { Sink.value &+= Int(m.measure(t, style: resolved, width: 320, scale: 2).height) }
            ColdBatchKeeper.engines.append(m)
        }
    }
    let label = "app fonts: cold, fresh engine, 1 worker"
    report.addPair("\(label), registered Noto Sans", "\(label), system Noto Sans",
                   ratioName: "app fonts: cold, registered ÷ system", runs: runs, cells: texts.count,
                   cold({ TextMeasurer(configuration: config) }, registered), cold({ TextMeasurer() }, style))
    ColdBatchKeeper.engines.removeAll()
    report.addPair("app fonts: warm, registered Noto Sans", "app fonts: warm, system Noto Sans",
                   ratioName: "app fonts: warm, registered ÷ system", runs: runs, cells: texts.count,
                   { for t in texts { Sink.value &+= Int(a.measure(t, style: r, width: 320, scale: 2).height) } },
                   { for t in texts { Sink.value &+= Int(b.measure(t, style: s, width: 320, scale: 2).height) } })
}
