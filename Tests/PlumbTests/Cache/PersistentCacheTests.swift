import Foundation
@testable import Plumb
import Testing

/// Tier 3, the persistent cache: a second engine on the same file answers from it with the
/// same bits, anything that changes an answer is a miss, and no fault of the file costs an
/// answer.
@Suite struct PersistentCacheTests {
    /// A fresh file path in its own folder (removed by `cleanUp`).
    static func newPath(_ name: String = "cache.sqlite") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    static func cleanUp(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    static func engine(_ path: String, budget: Int = 256 << 20, locale: String = "en") -> TextMeasurer {
        var c = TextMeasurer.Configuration()
        c.persistentCache = PersistentCacheConfiguration(path: path, budgetBytes: budget)
        c.breakLocale = locale
        return TextMeasurer(configuration: c, fonts: PlumbTests.engine.fonts)
    }

    /// Corpus texts at several widths, plain and attributed.
    static func cells(_ count: Int = 400) throws -> [Cell] {
        let texts = try corpusTexts()
        var cells: [Cell] = []
        for i in 0..<count {
            let text = texts[i % texts.count] + (i >= texts.count ? " \(i)" : "")
            var style = style15()
            if i % 7 == 3 { style.lineSpacing = 4 }
            if i % 5 == 1 {
                var bold = TextAttributes()
                bold.weight = 700
                var runs = AttributedText(String(text.prefix(6)), bold)
                runs.append(AttributedText(String(text.dropFirst(6))))
                cells.append(Cell(text: runs, style: style, width: Double(90 + i % 170)))
            } else {
                cells.append(Cell(text: text, style: style, width: Double(90 + i % 170)))
            }
        }
        return cells
    }

    /// Measures `cells` with an engine on the file and releases it (its writes flushed, its
    /// connections closed, the WAL checkpointed into the file).
    static func fill(_ path: String, with cells: [Cell]) {
        let engine = Self.engine(path)
        _ = engine.heights(for: cells)
        engine.flushPersistentCache()
    }

    /// What an engine without any cache answers.
    static func expected(_ cells: [Cell]) -> [TextMeasurement] {
        let fresh = TextMeasurer(configuration: .init(), fonts: PlumbTests.engine.fonts)
        return fresh.heights(for: cells, workers: 1)
    }

    @Test func aSecondEngineAnswersFromTheFileWithTheSameBits() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells()
        let want = Self.expected(cells)
        do {
            let first = Self.engine(path)
            #expect(first.heights(for: cells) == want)
            first.flushPersistentCache()
            let s = try #require(first.persistentCacheStatus)
            #expect(s.mode == .readWrite && s.warnings.isEmpty, "\(s)")
            #expect(s.stored == cells.count, "\(s)")
        }
        let second = Self.engine(path)
        #expect(second.heights(for: cells) == want)
        let s = try #require(second.persistentCacheStatus)
        #expect(s.hits == cells.count && s.misses == 0, "\(s)")
        // Nothing was laid out: no text was prepared.
        #expect(second.cacheStatistics.prepared.misses == 0)
        // Single calls read the file too (a third engine, one cell at a time).
        let third = Self.engine(path)
        for (cell, m) in zip(cells.prefix(50), want) { #expect(third.measure(cell) == m) }
        #expect(third.persistentCacheStatus?.hits == 50)
        #expect(third.cacheStatistics.prepared.misses == 0)
    }

    /// The keys cover what changes an answer: another break locale (part of the engine's
    /// salt, with the version and the font files) or another profile is a miss.
    @Test func whatChangesAnAnswerIsAMiss() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells(60)
        Self.fill(path, with: cells)
        let otherLocale = Self.engine(path, locale: "ja")
        _ = otherLocale.heights(for: cells)
        #expect(otherLocale.persistentCacheStatus?.hits == 0)
        let otherProfile = Self.engine(path)
        let chromium = cells.map { c -> Cell in
            var c = c
            c.style.compatibility = .chromium
            return c
        }
        #expect(otherProfile.heights(for: chromium) == Self.expected(chromium))
        #expect(otherProfile.persistentCacheStatus?.hits == 0)
    }

    @Test func garbageIsRebuiltAndAnswersStayRight() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        let cells = try Self.cells(80)
        let e = Self.engine(path)
        #expect(e.heights(for: cells) == Self.expected(cells))
        e.flushPersistentCache()
        let s = try #require(e.persistentCacheStatus)
        #expect(s.mode == .readWrite, "\(s)")
        #expect(s.warnings.contains { $0.contains("rebuilt") }, "\(s.warnings)")
        #expect(s.stored == cells.count)
    }

    /// A file cut short after it was written (its WAL checkpointed into it): every answer
    /// stays right, and the damage is a warning.
    @Test func aTruncatedFileCostsNoAnswer() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells(1500)
        let want = Self.expected(cells)
        Self.fill(path, with: cells)  // released: the last connection checkpoints the WAL into the file
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 64 << 10, "\(size)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let e = Self.engine(path)
        #expect(e.heights(for: cells) == want)
        e.flushPersistentCache()
        let s = try #require(e.persistentCacheStatus)
        #expect(!s.warnings.isEmpty, "\(s)")
        // Whatever the file still held was served; the rest was measured.
        #expect(e.heights(for: cells) == want)
    }

    /// A value damaged inside a page SQLite reads without complaint fails its checksum: a
    /// miss, measured again, never a wrong height.
    @Test func aDamagedValueIsAMissNotAWrongAnswer() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells(40)
        let want = Self.expected(cells)
        Self.fill(path, with: cells)
        let db = try SQLiteDatabase(path: path, readOnly: false, create: false)
        // The first byte is the height in device pixels: make every stored height 0xFF px.
        try db.execute("UPDATE results SET value = x'FF' || substr(value, 2)")
        let e = Self.engine(path)
        #expect(e.heights(for: cells) == want)
        let s = try #require(e.persistentCacheStatus)
        #expect(s.hits == 0 && s.misses == cells.count, "\(s)")
    }

    @Test func aFileOfAnotherFormatIsRebuilt() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells(40)
        Self.fill(path, with: cells)
        let db = try SQLiteDatabase(path: path, readOnly: false, create: false)
        try db.execute("UPDATE meta SET value = 'plumb-results-0' WHERE name = 'format'")
        let e = Self.engine(path)
        #expect(e.heights(for: cells) == Self.expected(cells))
        let s = try #require(e.persistentCacheStatus)
        #expect(s.hits == 0, "\(s)")
        #expect(s.warnings.contains { $0.contains("another version") && $0.contains("rebuilt") }, "\(s.warnings)")
    }

    /// A file that may not be written (as root, only `chattr +i` stops a write): hits are
    /// served, nothing is written, one warning.
    @Test func aReadOnlyFileIsReadNotWritten() throws {
        let path = try Self.newPath()
        defer {
            _ = try? Self.shell("chattr -i '\(path)' 2>/dev/null; chmod 644 '\(path)'")
            Self.cleanUp(path)
        }
        let cells = try Self.cells(60)
        let want = Self.expected(cells)
        Self.fill(path, with: Array(cells.prefix(30)))  // closed: no -wal or -shm left
        try Self.shell("chmod 444 '\(path)'" + (getuid() == 0 ? " && chattr +i '\(path)'" : ""))
        let e = Self.engine(path)
        #expect(e.heights(for: cells) == want)
        e.flushPersistentCache()
        let s = try #require(e.persistentCacheStatus)
        #expect(s.mode == .readOnly, "\(s)")
        #expect(s.warnings.count == 1 && s.stored == 0, "\(s)")
        #expect(s.hits == 30, "\(s)")
    }

    /// Another process holding the write lock: answers are measured, the writes that cannot
    /// wait are dropped with a warning, and the file works again once the lock is gone.
    @Test func aLockedFileDropsWritesNotAnswers() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let cells = try Self.cells(60)
        let want = Self.expected(cells)
        let e = Self.engine(path)
        let holder = try SQLiteDatabase(path: path, readOnly: false, create: false)
        try holder.execute("BEGIN EXCLUSIVE")
        #expect(e.heights(for: cells) == want)
        e.flushPersistentCache()
        let s = try #require(e.persistentCacheStatus)
        #expect(s.dropped == cells.count && s.stored == 0, "\(s)")
        #expect(s.warnings.contains { $0.contains("locked") }, "\(s.warnings)")
        try holder.execute("COMMIT")
        e.removeAllCachedResults()
        #expect(e.heights(for: cells) == want)
        e.flushPersistentCache()
        #expect(e.persistentCacheStatus?.stored == cells.count)
    }

    /// Past its budget the file evicts its oldest entries: pages in use stay within it.
    @Test func theBudgetBoundsTheFile() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let budget = 96 << 10
        let cells = try Self.cells(4000)
        let e = Self.engine(path, budget: budget)
        for chunk in stride(from: 0, to: cells.count, by: 500) {
            _ = e.heights(for: Array(cells[chunk..<min(chunk + 500, cells.count)]))
            e.flushPersistentCache()
        }
        let s = try #require(e.persistentCacheStatus)
        #expect(s.evicted > 0, "\(s)")
        #expect(s.bytes <= budget && s.bytes > 0, "\(s)")
        // The newest results are still there.
        let later = Self.engine(path, budget: budget)
        _ = later.heights(for: Array(cells.suffix(100)))
        #expect(later.persistentCacheStatus?.hits == 100)
    }

    @Test func invalidationReachesTheFile() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let style = style15()
        let cells = try Self.cells(20).filter { $0.attributedText == nil && $0.style == style }
        do {
            let first = Self.engine(path)
            _ = first.heights(for: cells)
            #expect(first.invalidate(text: cells[0].text, style: style, width: cells[0].width))
            first.flushPersistentCache()
        }
        do {
            let second = Self.engine(path)
            _ = second.heights(for: cells)
            #expect(second.persistentCacheStatus?.hits == cells.count - 1)
            second.invalidate(style: style)
            second.flushPersistentCache()
        }
        let third = Self.engine(path)
        _ = third.heights(for: cells)
        #expect(third.persistentCacheStatus?.hits == 0)
    }

    /// Flagged fallbacks (no layout possible) are never stored.
    @Test func fallbacksAreNotStored() throws {
        let path = try Self.newPath()
        defer { Self.cleanUp(path) }
        let e = Self.engine(path)
        _ = e.measure("fallback", style: style15(), width: .nan)
        _ = e.measure("", style: style15(), width: 100)
        _ = e.measure("ok", style: style15(), width: 100)
        e.flushPersistentCache()
        #expect(e.persistentCacheStatus?.stored == 1)
    }

    /// A folder that does not exist: bypassed with a warning, every answer measured.
    @Test func anUnusablePathIsBypassed() throws {
        let e = Self.engine("/nonexistent-\(UUID().uuidString)/cache.sqlite")
        let cells = try Self.cells(20)
        #expect(e.heights(for: cells) == Self.expected(cells))
        let s = try #require(e.persistentCacheStatus)
        #expect(s.mode == .bypassed && !s.warnings.isEmpty, "\(s)")
    }

    /// The record's bytes round-trip, and any other key fails the checksum.
    @Test func recordsRoundTripAndBindToTheirKey() {
        let v = CachedResult(heightPixels: 41, widthPixels: 190, lineCount: 2, flags: CachedResult.brokeInsideWord | CachedResult.referenced,
                             widestLine: 94.25, layoutWidth: 120)
        let key = CacheKey(low: 0x1234, high: 0x5678)
        var bytes = PersistentRecord.encode(v, key: key)
        withUnsafeBytes(of: &bytes) { b in
            var plain = v
            plain.flags &= ~CachedResult.referenced
            #expect(PersistentRecord.decode(b, key: key) == plain)
            #expect(PersistentRecord.decode(b, key: CacheKey(low: 0x1235, high: 0x5678)) == nil)
            #expect(PersistentRecord.decode(UnsafeRawBufferPointer(rebasing: b[0..<39]), key: key) == nil)
        }
    }

    @discardableResult
    static func shell(_ command: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
