import Glibc
@testable import Plumb
import Testing

/// When the fonts change on disk, an engine stops serving results of the old fonts. The test
/// uses an application font folder of its own engine, so no other test sees the change.
@Suite struct FontChangeTests {
    @Test func anAddedFontReloadsFontsAndEmptiesTheCaches() throws {
        let dir = "/tmp/plumb-fonts-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(dir, 0o755) == 0)
        defer {
            unlink(dir + "/Added.ttf")
            rmdir(dir)
        }
        var config = TextMeasurer.Configuration()
        config.fonts.applicationFontDirectories = [dir]
        let m = TextMeasurer(configuration: config)
        _ = m.measure("Hello", style: style15(), width: 100)
        #expect(m.cacheStatistics.results.entries > 0)
        #expect(!m.reloadFontsIfChanged())

        // A real font file (a copy of an installed one) appears in the folder.
        let source = try #require(readFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        let f = fopen(dir + "/Added.ttf", "wb")
        _ = source.withUnsafeBytes { fwrite($0.baseAddress, 1, source.count, f) }
        fclose(f)
        let saltBefore = m.salt

        let resolvedBefore = m.resolve(style15())
        #expect(m.reloadFontsIfChanged())
        #expect(m.salt != saltBefore)
        // The resolved-style memo forgets styles resolved on the old fonts.
        #expect(!m.isCurrent(resolvedBefore))
        #expect(m.isCurrent(m.resolve(style15())))
        #expect(m.fonts.fontSetFingerprint.contains { $0.hasPrefix(dir + "/Added.ttf#0#") })
        #expect(m.cacheStatistics.results.entries == 0)
        #expect(m.cacheStatistics.prepared.entries == 0)
        #expect(m.measure("Hello", style: style15(), width: 100) == engine.measure("Hello", style: style15(), width: 100))
        #expect(!m.reloadFontsIfChanged())

        unlink(dir + "/Added.ttf")  // removed again
        #expect(m.reloadFontsIfChanged())
    }

    @Test func theFontFingerprintCoversSizeAndModificationTime() {
        let fingerprint = engine.fonts.fontSetFingerprint
        #expect(fingerprint.count > 100)
        #expect(fingerprint.allSatisfy { $0.split(separator: "#").count == 3 && !$0.hasSuffix("missing") })
    }
}
