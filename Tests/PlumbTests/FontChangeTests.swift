import Glibc
@testable import Plumb
import Testing

/// When the installed fonts change on disk, an engine stops serving results of the old fonts.
@Suite struct FontChangeTests {
    @Test func aChangedFontDirectoryReloadsFontsAndEmptiesTheCaches() throws {
        let m = TextMeasurer()
        _ = m.measure("Hello", style: style15(), width: 100)
        #expect(m.cacheStatistics.results.entries > 0)
        #expect(!m.reloadFontsIfChanged())

        // A new folder in the user font directory (a configured fontconfig <dir>) changes what
        // fontconfig sees; a file inside it changes the folder's modification time.
        let home = String(cString: getenv("HOME") ?? strdup("/root"))
        let fontsDir = home + "/.fonts"
        let createdFontsDir = mkdir(fontsDir, 0o755) == 0
        let dir = fontsDir + "/plumb-test-\(getpid())"
        #expect(mkdir(dir, 0o755) == 0)
        defer {
            unlink(dir + "/marker.ttf")
            rmdir(dir)
            if createdFontsDir { rmdir(fontsDir) }
        }
        // A real font file (a copy of an installed one) appears in the new folder.
        let source = try #require(readFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        let f = fopen(dir + "/marker.ttf", "wb")
        _ = source.withUnsafeBytes { fwrite($0.baseAddress, 1, source.count, f) }
        fclose(f)
        let saltBefore = m.salt
        let start = DispatchTimeLite.nowNanoseconds

        #expect(m.reloadFontsIfChanged())
        print("font reload check + reload took \((DispatchTimeLite.nowNanoseconds - start) / 1_000_000) ms")
        #expect(m.salt != saltBefore)
        #expect(m.cacheStatistics.results.entries == 0)
        #expect(m.cacheStatistics.prepared.entries == 0)
        let after = m.measure("Hello", style: style15(), width: 100)
        #expect(after == engine.measure("Hello", style: style15(), width: 100))
        #expect(!m.reloadFontsIfChanged())
    }

    @Test func theFontFingerprintCoversSizeAndModificationTime() {
        let fingerprint = engine.fonts.fontSetFingerprint
        #expect(fingerprint.count > 100)
        #expect(fingerprint.allSatisfy { $0.split(separator: "#").count == 3 && !$0.hasSuffix("missing") })
    }
}
