@testable import Plumb
import Foundation
import Testing

/// Issue 28: fonts as apps ship them — files and data registered per engine (TTF, WOFF,
/// WOFF2), variable axes, OpenType features, content fingerprints in the keys, and clear
/// errors for files that cannot be used. The fonts are Debian's (setup.sh unpacks
/// `fonts-inter-variable` and installs `fonts-dejavu-core` and `woff2`); WOFF files are made at run time.
@Suite(.serialized) struct AppFontTests {
    /// Unpacked by setup.sh outside fontconfig's folders: the system does not have Inter.
    static let interVariable = "/opt/plumb-test-fonts/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
    static let dejaVuSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    static let dejaVuSansBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    static let line = "The quick brown fox jumps over the lazy dog 0123"

    /// An engine that sees only `files` (no system fonts): a family it finds is registered.
    static func registeredEngine(_ files: [FontFile]) -> TextMeasurer {
        var config = TextMeasurer.Configuration()
        config.fonts.fontFiles = files
        config.fonts.defaultFamily = "Registered Default"
        return TextMeasurer(configuration: config, fonts: FontResolver(configuration: config.fonts, systemFonts: false))
    }

    /// The advance of `text` on one line (a width no line reaches), in 1/64 pt.
    static func width(_ m: TextMeasurer, _ text: String, _ font: FontDescriptor) -> Double {
        m.measure(text, style: TextStyle(font: font), width: 1e6, scale: 64).size.width
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "\(tool) \(arguments)")
    }

    @Test func variableWeightsFollowTheWghtAxis() throws {
        let m = Self.registeredEngine([.path(Self.interVariable, family: "Brand Sans")])
        #expect(m.fonts.fontFileErrors.isEmpty)
        let weights = [100, 400, 450, 500, 700, 900]
        let widths = weights.map { Self.width(m, Self.line, FontDescriptor(families: ["Brand Sans"], size: 16, weight: $0)) }
        // Inter widens with its weight: every weight its own width, 450 between 400 and 500.
        for (a, b) in zip(widths, widths.dropFirst()) { #expect(a < b, "\(weights) → \(widths)") }
        let r = m.measure(Self.line, style: TextStyle(font: FontDescriptor(families: ["Brand Sans"], size: 16)), width: 1e6)
        #expect(!r.isFallback && r.warnings.isEmpty)
        // An explicit wght setting overrides the weight.
        let explicit = Self.width(m, Self.line, FontDescriptor(families: ["Brand Sans"], size: 16, weight: 400, variations: [FontVariation("wght", 700)]))
        #expect(explicit == widths[4])
        // Clamped to the axis: 1000 measures as 900.
        #expect(Self.width(m, Self.line, FontDescriptor(families: ["Brand Sans"], size: 16, weight: 1000)) == widths[5])
    }

    @Test func theSameFontAsTTFWOFFAndWOFF2MeasuresTheSame() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ttf = dir.appendingPathComponent("serif.ttf").path
        try FileManager.default.copyItem(atPath: Self.dejaVuSerif, toPath: ttf)
        try Self.run("woff2_compress", [ttf])
        let woff = dir.appendingPathComponent("serif.woff").path
        try Self.run("python3", [repositoryRoot.appendingPathComponent("Tests/Support/make_woff.py").path, ttf, woff])
        let woff2 = dir.appendingPathComponent("serif.woff2").path
        let m = Self.registeredEngine([.path(ttf, family: "A"), .path(woff, family: "B"), .path(woff2, family: "C")])
        #expect(m.fonts.fontFileErrors.isEmpty)
        #expect(m.fonts.registeredFonts.map(\.format) == [.sfnt, .woff, .woff2])
        let text = "Variable fonts, WOFF2 and ﬁligree — Größe Ελληνικά Кириллица"
        let widths = ["A", "B", "C"].map { Self.width(m, text, FontDescriptor(families: [$0], size: 15)) }
        #expect(widths[0] > 0 && widths[0] == widths[1] && widths[1] == widths[2], "\(widths)")
        // Font data in memory measures as the file.
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: woff2)))
        let fromData = Self.registeredEngine([.data(data, name: "serif.woff2", family: "D")])
        #expect(Self.width(fromData, text, FontDescriptor(families: ["D"], size: 15)) == widths[0])
    }

    @Test func aFileThatCannotBeUsedIsAnErrorNamingIt() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let garbage = dir.appendingPathComponent("garbage.ttf").path
        FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0x41, count: 5000))
        let ttf = dir.appendingPathComponent("serif.ttf").path
        try FileManager.default.copyItem(atPath: Self.dejaVuSerif, toPath: ttf)
        try Self.run("woff2_compress", [ttf])
        let woff2 = try Data(contentsOf: URL(fileURLWithPath: dir.appendingPathComponent("serif.woff2").path))
        let truncated = dir.appendingPathComponent("truncated.woff2").path
        FileManager.default.createFile(atPath: truncated, contents: woff2.prefix(woff2.count / 2))
        let sfnt = try Data(contentsOf: URL(fileURLWithPath: ttf))
        var corrupt = [UInt8](sfnt.prefix(400))  // the table directory, no tables
        corrupt.append(contentsOf: [UInt8](repeating: 0, count: 100))
        let missing = dir.appendingPathComponent("missing.otf").path
        let m = Self.registeredEngine([
            .path(missing), .path(dir.path), .path(garbage), .path(truncated),
            .data(corrupt, name: "corrupt.ttf"), .path(ttf, family: "Good"),
        ])
        let errors = m.fonts.fontFileErrors
        #expect(errors.map(\.source) == [missing, dir.path, garbage, truncated, "corrupt.ttf"])
        #expect(errors.map(\.reason) == [.unreadable(errno: ENOENT), .unreadable(errno: EISDIR), .notAFont, .doesNotDecode, .noUsableFace])
        #expect(errors.allSatisfy { $0.description.contains($0.source) })
        // Nothing else is affected: the good file is registered and measures.
        let r = m.measure("Hello", style: TextStyle(font: FontDescriptor(families: ["Good"], size: 15)), width: 200)
        #expect(!r.isFallback && r.size.width > 0)
    }

    @Test func aRegisteredFamilyOverridesTheSystemFamilyOfItsName() throws {
        var config = TextMeasurer.Configuration()
        config.fonts.fontFiles = [.path(Self.dejaVuSerif, family: "Noto Sans")]
        let registered = TextMeasurer(configuration: config)
        let text = "Overrides the installed family"
        let asRegistered = Self.width(registered, text, FontDescriptor(families: ["Noto Sans"], size: 15))
        let serif = Self.width(engine, text, FontDescriptor(families: ["DejaVu Serif"], size: 15))
        let noto = Self.width(engine, text, FontDescriptor(families: ["Noto Sans"], size: 15))
        #expect(asRegistered == serif && asRegistered != noto)
        // Other families are the system's, and fallback is untouched (CJK).
        #expect(Self.width(registered, "中文", FontDescriptor(families: ["Noto Sans"], size: 15))
            == Self.width(engine, "中文", FontDescriptor(families: ["DejaVu Serif"], size: 15)))
    }

    /// A face's full or PostScript name, or a variable font's named instance, picks that face
    /// as `UIFont(name:)` does: the weight asked for no longer matters.
    @Test func aFaceNameOrNamedInstancePicksThatFace() throws {
        let m = Self.registeredEngine([
            .path(Self.interVariable), .path(Self.dejaVuSerif), .path(Self.dejaVuSansBold),
        ])
        #expect(m.fonts.fontFileErrors.isEmpty)
        func w(_ family: String, _ weight: Int = 400) -> Double {
            Self.width(m, Self.line, FontDescriptor(families: [family], size: 16, weight: weight))
        }
        // Inter's named instances: the full name and the PostScript name derived as Adobe's
        // technical note #5902 does (the font has no postScriptNameID).
        #expect(w("Inter Bold") == w("Inter", 700) && w("Inter Bold", 100) == w("Inter", 700))
        #expect(w("Inter-SemiBold") == w("Inter", 600) && w("Inter Semi Bold", 900) == w("Inter", 600))
        #expect(w("Inter Thin") == w("Inter", 100) && w("Inter", 100) < w("Inter", 400))
        // An explicit wght setting still applies after the instance's.
        let light = Self.width(m, Self.line, FontDescriptor(families: ["Inter Bold"], size: 16, variations: [FontVariation("wght", 300)]))
        #expect(light == w("Inter", 300))
        // Static faces: the PostScript name (DejaVuSerif, DejaVuSans-Bold) and the full name.
        #expect(w("DejaVuSerif") == w("DejaVu Serif") && w("DejaVuSans-Bold", 100) == w("DejaVu Sans Bold"))
        #expect(w("DejaVuSans-Bold") > 0)
        let r = m.measure(Self.line, style: TextStyle(font: FontDescriptor(families: ["Inter-Bold"], size: 16)), width: 1e6)
        #expect(!r.isFallback && r.warnings.isEmpty, "\(r.warnings)")
    }

    @Test func openTypeFeaturesChangeWidthsAndKeys() throws {
        let m = Self.registeredEngine([.path(Self.interVariable, family: "Brand Sans")])
        let plain = FontDescriptor(families: ["Brand Sans"], size: 16)
        var tabular = plain
        tabular.features = [.tabularNumbers]
        // Proportional 1 is narrower than 0 in Inter; tabular figures are one width.
        #expect(Self.width(m, "1111", plain) < Self.width(m, "0000", plain))
        #expect(Self.width(m, "1111", tabular) == Self.width(m, "0000", tabular))
        // Kerning off changes "AVAVAV" (measured after the kerned one: no shared key).
        let kerned = Self.width(m, "AVAVAV To", plain)
        var unkerned = plain
        unkerned.features = [.noKerning]
        #expect(Self.width(m, "AVAVAV To", unkerned) > kerned)
        #expect(Self.width(m, "AVAVAV To", plain) == kerned)
        // Per run: the digits of one run tabular.
        var text = AttributedText("Total: ")
        text.append("1111", TextAttributes(features: [.tabularNumbers]))
        var other = AttributedText("Total: ")
        other.append("0000", TextAttributes(features: [.tabularNumbers]))
        let style = TextStyle(font: plain)
        #expect(m.measure(text, style: style, width: 1e6, scale: 64).size.width == m.measure(other, style: style, width: 1e6, scale: 64).size.width)
        // An invalid tag is dropped with a warning.
        var bad = plain
        bad.features = [FontFeature("toolong"), .tabularNumbers]
        let r = m.measure("1111", style: TextStyle(font: bad), width: 1e6, scale: 64)
        #expect(r.size.width == Self.width(m, "1111", tabular))
        #expect(r.warnings.contains { if case .invalidValue(field: "font.features", _) = $0 { true } else { false } })
    }

    /// Inter with its `wght` axis re-tagged `opsz` (the fvar axis record's tag patched in a
    /// copy in memory): a font whose optical-size axis (100–900) changes advances, which no
    /// font in Debian's packages here has.
    static func opticalSizeFont() throws -> [UInt8] {
        var b = try [UInt8](Data(contentsOf: URL(fileURLWithPath: interVariable)))
        func u16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        var patched = 0
        for i in 0..<u16(4) where b[12 + 16 * i ..< 16 + 16 * i].elementsEqual("fvar".utf8) {
            let fvar = u32(12 + 16 * i + 8)
            let axes = fvar + u16(fvar + 4), count = u16(fvar + 8), size = u16(fvar + 10)
            for a in 0..<count where b[axes + a * size ..< axes + a * size + 4].elementsEqual("wght".utf8) {
                b.replaceSubrange(axes + a * size ..< axes + a * size + 4, with: Array("opsz".utf8))
                patched += 1
            }
        }
        try #require(patched == 1, "Inter's fvar has one wght axis")
        return b
    }

    /// With optical sizing on (the default), `opsz` follows the font size: the advances per em
    /// change with the size, equal the axis set explicitly to that size, and are the axis's
    /// default with optical sizing off. One engine measures every size (no shared instance).
    @Test func theOpticalSizeAxisFollowsTheFontSize() throws {
        let m = Self.registeredEngine([.data(try Self.opticalSizeFont(), name: "inter-opsz.ttf", family: "Optical")])
        #expect(m.fonts.fontFileErrors.isEmpty)
        func perEm(_ size: Double, sizing: Bool = true, opsz: Double? = nil) -> Double {
            var font = FontDescriptor(families: ["Optical"], size: size)
            font.opticalSizing = sizing
            if let opsz { font.variations = [FontVariation("opsz", opsz)] }
            return Self.width(m, Self.line, font) / size
        }
        let at200 = perEm(200), at700 = perEm(700)
        // Inter widens with its (former) weight axis: a larger size is wider per em.
        #expect(at200 < at700, "\(at200) \(at700)")
        #expect(abs(at200 - perEm(200, sizing: false, opsz: 200)) < 1e-9)
        #expect(abs(at700 - perEm(700, sizing: false, opsz: 700)) < 1e-9)
        // Off: the axis's default (400) at every size.
        #expect(abs(perEm(200, sizing: false) - perEm(700, sizing: false)) < 1e-3)
        #expect(perEm(200, sizing: false) > at200 && perEm(700, sizing: false) < at700)
        // Below the axis's range: clamped to 100, so sizes 16 and 50 are the same per em.
        #expect(abs(perEm(16) - perEm(50)) < 1e-3)
        // Measured again after the others: the first answer (no instance shared across sizes).
        #expect(perEm(200) == at200)
    }

    @Test func aChangedFileNeverReturnsAnOldAnswer() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("brand.ttf").path
        try FileManager.default.copyItem(atPath: Self.dejaVuSerif, toPath: path)
        let before = Self.registeredEngine([.path(path, family: "Brand")])
        let text = "A brand font that changes"
        let font = FontDescriptor(families: ["Brand"], size: 15)
        let old = Self.width(before, text, font)
        // Overwritten in place while in use: the engine keeps measuring (its bytes are its
        // own) and answers as before.
        let replacement = try Data(contentsOf: URL(fileURLWithPath: Self.dejaVuSansBold))
        try replacement.write(to: URL(fileURLWithPath: path))
        #expect(Self.width(before, text, font) == old)
        #expect(before.measure(text + " again", style: TextStyle(font: font), width: 100).lineCount > 1)
        // A new engine (or a reload) measures the new file, under another salt.
        let after = Self.registeredEngine([.path(path, family: "Brand")])
        #expect(Self.width(after, text, font) != old)
        #expect(after.fonts.fontSetFingerprint != before.fonts.fontSetFingerprint)
        #expect(before.reloadFontsIfChanged())
        #expect(Self.width(before, text, font) == Self.width(after, text, font))
    }

    @Test func cssFontValuesParse() throws {
        #expect(try FontFeature.parse(featureSettings: "tnum") == [.tabularNumbers])
        #expect(try FontFeature.parse(featureSettings: "'liga' 0, \"ss01\" on, 'salt' 2, kern off")
            == [FontFeature("liga", 0), FontFeature("ss01"), FontFeature("salt", 2), FontFeature("kern", 0)])
        #expect(try FontFeature.parse(featureSettings: "normal").isEmpty)
        #expect(try FontFeature.parse(featureSettings: "'tnum', 'tnum' 0") == [FontFeature("tnum", 0)])
        #expect(throws: CSSValueError.self) { try FontFeature.parse(featureSettings: "'toolong'") }
        #expect(throws: CSSValueError.self) { try FontFeature.parse(featureSettings: "'liga' -1") }
        #expect(throws: CSSValueError.self) { try FontFeature.parse(featureSettings: "tnum,,liga") }
        #expect(try FontFeature.parse(variantNumeric: "tabular-nums oldstyle-nums") == [.tabularNumbers, .oldstyleNumbers])
        #expect(throws: CSSValueError.self) { try FontFeature.parse(variantNumeric: "tabular") }
        #expect(try FontVariation.parse(variationSettings: "'wght' 450, 'wdth' 87.5")
            == [FontVariation("wght", 450), FontVariation("wdth", 87.5)])
        #expect(throws: CSSValueError.self) { try FontVariation.parse(variationSettings: "'wght'") }
        #expect(FontFeature.css([FontFeature("liga", 0), .tabularNumbers]) == "\"liga\" 0, \"tnum\"")
        #expect(try FontVariation.parse(variationSettings: FontVariation.css([FontVariation("wght", 450)])) == [FontVariation("wght", 450)])
    }
}
