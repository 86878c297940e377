import CXXHash
import Dispatch
import Synchronization
@testable import Plumb
import PropertyTesting
import Testing

/// Tier 1 / tier 2 caches and concurrent batches never change an answer.
@Suite struct CacheAndBatchTests {
    static let texts: Gen<String> = .text(maxClusters: 40)

    func check<T>(_ name: String, _ gen: Gen<T>, iterations: Int = 60, _ body: @escaping (T) throws -> Void) {
        if let failure = checkProperty(name, gen, iterations: iterations, body) { Issue.record("\(failure)") }
    }

    @Test func cachedEqualsUncached() {
        let cells = LayoutPropertyTests.cells(text: Self.texts)
        check("cached == uncached", cells, iterations: 120) { cell in
            let cached = TextMeasurer()
            let first = cached.measure(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
            let second = cached.measure(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
            let uncached = engine.compute(cell.text, style: engine.resolve(cell.style), width: cell.width, scale: cell.scale, extraWarnings: []).measurement
            try propertyAssert(first == uncached, "first \(first) vs uncached \(uncached)")
            try propertyAssert(second == uncached, "cached \(second) vs uncached \(uncached)")
        }
    }

    /// One engine measures a sequence of short, similar texts in several cascades and
    /// profiles, so segments, pairs and prepared texts are shared across fonts; every answer
    /// must equal the same cell measured with all caches empty: an answer never depends on
    /// what else the engine measured before. (The segment-key collision fixed in this session
    /// was of this kind, but needed particular font ids; its own regression test is
    /// `segmentKeysSeparateFontsAndScriptsForShortInputs`.)
    @Test func cachesNeverMixFontsOrProfiles() {
        let cascades = [["Noto Sans", "Noto Sans CJK SC"], ["DejaVu Sans", "Noto Sans CJK SC"], ["Noto Sans CJK SC"]]
        let word = Gen.element(of: ["'xx00',", "'xx01',", "...,", "ab", "ba", "0", "1", "a-b", "ケー", "ジ", "の"])
        let text = Gen.array(of: word, count: 1...8).map { $0.joined(separator: " ") }
        let cell = Gen.zip(text, Gen.element(of: cascades), Gen.element(of: Compatibility.allCases), Gen.element(of: [40.0, 60, 100]))
        check("shared caches == empty caches", Gen.array(of: cell, count: 2...12), iterations: 25) { cells in
            let shared = TextMeasurer()
            let reference = TextMeasurer()
            for (t, families, profile, width) in cells {
                var style = TextStyle(families: families, size: 15)
                style.compatibility = profile
                let got = shared.layout(t, style: style, width: width).lines.map(\.scalarRange)
                reference.removeAllCachedResults()
                let expected = reference.layout(t, style: style, width: width).lines.map(\.scalarRange)
                try propertyAssert(got == expected, "\(t.debugDescription) \(families) \(profile) \(width): \(got) vs \(expected)")
            }
        }
    }

    /// The cached path's miss (`measureCell`: no `compute`) answers as `compute` in the cases
    /// it handles apart: the style's own warnings (a skipped family), the layout's (a height
    /// limit below the first line), missing glyphs, lines cut by maxLines or the height limit
    /// (the array path), an unconstrained width, a re-layout of a known text; and a hit of
    /// what it cached answers the same again.
    @Test func cellMissPathEqualsCompute() {
        var skipped = TextStyle(families: ["No Such Family 7f3a", "Noto Sans"], size: 15)
        skipped.lineSpacing = 2
        var cut = style15()
        cut.maxLines = 2
        cut.lineBreakMode = .truncatingTail
        var low = style15()
        low.heightLimit = 5
        var limited = style15()
        limited.heightLimit = 50
        limited.options.insert(.truncatesLastVisibleLine)
        var pango = style15()
        pango.compatibility = .pango
        var chromium = style15()
        chromium.compatibility = .chromium
        // Line-height models: the miss path borrows the style's model built at scale 2 and
        // builds its own at other scales (Blink's fixed heights depend on the scale).
        var spaced = style15()
        spaced.lineHeightMultiple = 1.3
        spaced.lineSpacing = 1.5
        spaced.paragraphSpacing = 4
        var blinkFixed = chromium
        blinkFixed.lineHeightEm = 1.37
        var pangoFloor = pango
        pangoFloor.minimumLineHeight = 21.3
        let styles = [style15(), skipped, cut, low, limited, pango, chromium, spaced, blinkFixed, pangoFloor]
        let texts = ["Hello world, a few words to wrap over lines", "tab\there\nand a second paragraph",
                     "missing \u{E000}\u{10FFFD} glyphs", "世界 ケーキ 🇫🇷 mixed fonts 123"]
        for style in styles {
            let m = TextMeasurer()
            for scale in [2.0, 3, 1.5] {
                for text in texts {
                    for width in [80.0, 123.5, 300, .infinity] {
                        let fresh = engine.compute(
                            text, style: engine.resolve(style), width: width, scale: scale, extraWarnings: []).measurement
                        let got = m.measure(text, style: style, width: width, scale: scale)
                        let again = m.measure(text, style: style, width: width, scale: scale)
                        #expect(got == fresh, "\(text.debugDescription) at \(width), \(scale)×: \(got) vs \(fresh)")
                        #expect(got.warnings == fresh.warnings && got.isFallback == fresh.isFallback)
                        #expect(again == fresh, "hit \(text.debugDescription) at \(width), \(scale)×: \(again) vs \(fresh)")
                    }
                }
            }
        }
    }

    @Test func widthRangeReuseNeverChangesAnAnswer() {
        let gen = Gen.zip(LayoutPropertyTests.cells(text: Self.texts), Gen.array(of: Gen.double(in: 20...500), count: 1...6))
        check("range reuse", gen) { cell, widths in
            let m = TextMeasurer()
            for w in [cell.width] + widths.map({ $0.rounded() }) {
                let got = m.measure(cell.text, style: cell.style, width: w, scale: cell.scale)
                let fresh = engine.compute(cell.text, style: engine.resolve(cell.style), width: w, scale: cell.scale, extraWarnings: []).measurement
                try propertyAssert(got == fresh, "width \(w): \(got) vs \(fresh)")
            }
        }
    }

    @Test func stylesDifferingInOneFieldNeverShareAKey() {
        let base = style15()
        let variants: [(String, (inout TextStyle) -> Void)] = [
            ("families", { $0.font.families = ["Noto Sans CJK SC", "Noto Sans"] }),
            ("size", { $0.font.size = 15.5 }), ("weight", { $0.font.weight = 700 }),
            ("italic", { $0.font.italic = true }), ("lineSpacing", { $0.lineSpacing = 1 }),
            ("min", { $0.minimumLineHeight = 30 }), ("max", { $0.maximumLineHeight = 10 }),
            ("multiple", { $0.lineHeightMultiple = 1.2 }), ("em", { $0.lineHeightEm = 1.4 }),
            ("para", { $0.paragraphSpacing = 2 }),
            ("paraBefore", { $0.paragraphSpacingBefore = 2 }), ("letter", { $0.letterSpacing = 0.5 }),
            ("tab", { $0.tabInterval = 30 }), ("maxLines", { $0.maxLines = 2 }),
            ("charWrap", { $0.lineBreakMode = .charWrapping }),
            ("noFragment", { $0.options.remove(.usesLineFragmentOrigin) }),
            ("noLeading", { $0.options.remove(.usesFontLeading) }),
            ("device", { $0.options.insert(.usesDeviceMetrics) }),
            ("heightLimit", { $0.heightLimit = 100 }),
            ("pango", { $0.compatibility = .pango }), ("chromium", { $0.compatibility = .chromium }),
        ]
        var seen: [CacheKey: String] = [engine.resolve(base).layoutFingerprint: "base"]
        for (name, change) in variants {
            var s = base
            change(&s)
            let key = engine.resolve(s).layoutFingerprint
            #expect(seen[key] == nil, "\(name) collides with \(seen[key] ?? "")")
            seen[key] = name
        }
        // Fields that cannot change a layout do not split keys.
        var tail = base
        tail.lineBreakMode = .truncatingTail  // nothing can be cut: same as word wrapping
        #expect(engine.resolve(tail).layoutFingerprint == engine.resolve(base).layoutFingerprint)
        tail.options.insert(.truncatesLastVisibleLine)
        #expect(engine.resolve(tail).layoutFingerprint == engine.resolve(base).layoutFingerprint)
        tail.maxLines = 2
        var word = base
        word.maxLines = 2
        #expect(engine.resolve(tail).layoutFingerprint != engine.resolve(word).layoutFingerprint)
    }

    @Test func generatedStylePairsNeverCollide() {
        let gen = Gen.zip(LayoutPropertyTests.cells(text: Gen.constant("x")), LayoutPropertyTests.cells(text: Gen.constant("x")))
        check("no collisions", gen, iterations: 300) { a, b in
            let ka = engine.resolve(a.style).layoutFingerprint, kb = engine.resolve(b.style).layoutFingerprint
            if a.style == b.style { try propertyAssert(ka == kb, "equal styles, different keys") }
            else if ka == kb {
                // Equal keys are only allowed for styles that lay out identically.
                let x = engine.measure("a b\nc", style: a.style, width: 50), y = engine.measure("a b\nc", style: b.style, width: 50)
                try propertyAssert(x == y, "collision between different layouts")
            }
        }
    }

    /// Regression: font and script were XXH3 seeds, and XXH3 folds seeds into short inputs,
    /// so `'xx01', ` in font 0 and `'xx00', ` in font 3 shared a segment key (DejaVu Sans was
    /// then measured with Noto Sans' advances after Noto Sans had measured the other text).
    @Test func segmentKeysSeparateFontsAndScriptsForShortInputs() {
        let script: UInt32 = 0x4C61_746E | 0x8000_0000
        func key(_ s: String, _ font: Int, _ script: UInt32) -> CacheKey {
            Array(s.utf8).withUnsafeBufferPointer { SegmentCache.key(bytes: $0, fontID: font, script: script) }
        }
        #expect(key("'xx01', ", 0, script) != key("'xx00', ", 3, script))
        // Every pair of short strings (one to eight bytes of a small alphabet) × 8 fonts × 3
        // scripts: all keys distinct.
        let alphabet = Array("'x01, .".utf8)
        var rng = SplitMix64(seed: 5)
        var seen = Set<CacheKey>()
        var count = 0
        for _ in 0..<4000 {
            let n = Int(rng.next() % 8) + 1
            let bytes = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            for font in 0..<8 {
                for s in [script, 0, 0x4861_6E69] {
                    let k = bytes.withUnsafeBufferPointer { SegmentCache.key(bytes: $0, fontID: font, script: s) }
                    let fresh = seen.insert(k).inserted
                    count += fresh ? 1 : 0
                }
            }
        }
        var distinctInputs = Set<[UInt8]>()
        rng = SplitMix64(seed: 5)
        for _ in 0..<4000 {
            let n = Int(rng.next() % 8) + 1
            distinctInputs.insert((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
        }
        #expect(count == distinctInputs.count * 8 * 3)
        // End to end: the same sequence of layouts as the harness that found it.
        func style(_ f: [String]) -> TextStyle { var s = TextStyle(families: f, size: 15); s.compatibility = .chromium; return s }
        let used = TextMeasurer()
        _ = used.layout("'xx01', ...,", style: style(["Noto Sans", "Noto Sans CJK SC"]), width: 100)
        let dv = style(["DejaVu Sans", "Noto Sans CJK SC"])
        let text = "'xx00', 'xx01', ...,"
        #expect(used.layout(text, style: dv, width: 100).lines.map(\.scalarRange) == TextMeasurer().layout(text, style: dv, width: 100).lines.map(\.scalarRange))
    }

    @Test func fallbackResultsAreNeverCached() {
        let m = TextMeasurer()
        _ = m.measure("Hello", style: style15(), width: .nan)
        _ = m.measure("Hello", style: TextStyle(families: ["Noto Sans"], size: .nan), width: 100)
        _ = m.measure("Hello", style: style15(["Missing Family"]), width: 100)
        #expect(m.cacheStatistics.results.entries == 0)
        _ = m.measure("Hello", style: style15(), width: 100)
        #expect(m.cacheStatistics.results.entries == 2)  // result + width-range entry
        // Measured before the table had a width, then with one: the real height.
        #expect(m.measure("a b c d e f g", style: style15(), width: 0).isFallback)
        #expect(m.measure("a b c d e f g", style: style15(), width: 20).lineCount > 1)
    }

    @Test func widthsOnTheSamePixelShareAKey() {
        let m = TextMeasurer()
        _ = m.measure("Hello world", style: style15(), width: 200.2)
        let before = m.cacheStatistics.results.hits
        _ = m.measure("Hello world", style: style15(), width: 200.4)  // same 2× pixel column 400
        #expect(m.cacheStatistics.results.hits == before + 1)
    }

    @Test func invalidationForgetsResults() {
        let m = TextMeasurer()
        _ = m.measure("Hello", style: style15(), width: 100)
        #expect(m.invalidate(text: "Hello", style: style15(), width: 100))
        #expect(!m.invalidate(text: "Hello", style: style15(), width: 100))
        _ = m.measure("Hello", style: style15(), width: 100)
        let hits = m.cacheStatistics.results.hits
        _ = m.measure("Hello", style: style15(), width: 100)
        #expect(m.cacheStatistics.results.hits == hits + 1)
        m.invalidate(style: style15())
        let misses = m.cacheStatistics.results.misses
        let again = m.measure("Hello", style: style15(), width: 100)
        #expect(m.cacheStatistics.results.misses > misses)  // not served from the old entry
        #expect(again == engine.measure("Hello", style: style15(), width: 100))
        _ = m.measure("Hello", style: style15(["Noto Serif"]), width: 100)
        m.removeAllCachedResults()
        #expect(m.cacheStatistics.results.entries == 0)
    }

    @Test func resultEntriesCostAtMost64Bytes() {
        #expect(ResultCache.entryBytes == 48)
        let m = TextMeasurer()
        let s = m.cacheStatistics.results
        // Tables are at most 75 % full before eviction: 48 / 0.75 = 64 bytes per entry.
        #expect(s.bytes / max(1, (s.bytes / ResultCache.entryBytes) * 3 / 4) <= 64)
    }

    @Test func batchEqualsSequentialAtAnyWorkerCount() throws {
        let texts = Gen<String>.text(maxClusters: 30).sample(count: 300, seed: 7) + ["dup", "dup", "", "dup"]
        let style = style15()
        let sequential = texts.map { engine.compute($0, style: engine.resolve(style), width: 120, scale: 2, extraWarnings: []).measurement }
        for workers in [1, 2, 8] {
            let m = TextMeasurer()
            let batch = m.heights(for: texts, style: style, width: 120, workers: workers)
            #expect(batch == sequential, "workers \(workers)")
        }
        let cells = texts.enumerated().map { Cell(text: $1, style: $0 % 2 == 0 ? style : style15(["Noto Serif"]), width: Double(80 + $0 % 5 * 40)) }
        let seqCells = cells.map { engine.compute($0.text, style: engine.resolve($0.style), width: $0.width, scale: 2, extraWarnings: []).measurement }
        for workers in [1, 2, 8] {
            #expect(TextMeasurer().heights(for: cells, workers: workers) == seqCells)
        }
        // Layouts in a batch: the same lines, rects and baselines as one by one.
        let seqLayouts = cells.map { engine.layout($0.text, style: $0.style, width: $0.width) }
        for workers in [1, 2, 8] {
            let batch = TextMeasurer().layouts(for: cells, workers: workers)
            #expect(batch.map { $0.lines.map(\.utf8Range) } == seqLayouts.map { $0.lines.map(\.utf8Range) }, "workers \(workers)")
            #expect(batch.map { $0.lines.map(\.rect) } == seqLayouts.map { $0.lines.map(\.rect) }, "workers \(workers)")
            #expect(batch.map(\.measurement) == seqLayouts.map(\.measurement), "workers \(workers)")
        }
    }

    /// Guided chunks cover 0..<count once, in order, with starts on the grain (each chunk
    /// has a slot of its own) and sizes within [1, maxChunk].
    @Test func scheduleChunksCoverEveryCellOnce() {
        let gen = Gen.zip(Gen.int(in: 0...5000), Gen.int(in: 1...9), Gen.int(in: 1...40), Gen.int(in: 1...300))
        check("schedule covers", gen, iterations: 300) { count, workers, grain, maxChunk in
            let schedule = BatchSchedule(count: count, workers: workers, grain: grain, maxChunk: maxChunk)
            var start = 0
            var slots = Set<Int>()
            while start < count {
                let size = schedule.chunkSize(at: start)
                try propertyAssert(size >= 1 && size <= schedule.maxChunk, "size \(size) at \(start)")
                try propertyAssert(start % schedule.grain == 0, "start \(start) off the grain \(schedule.grain)")
                let slot = schedule.slot(of: start..<start + size)
                try propertyAssert(slot < schedule.slots && slots.insert(slot).inserted, "slot \(slot)")
                start += size
            }
            try propertyAssert(start == count, "ended at \(start) of \(count)")
            try propertyAssert(schedule.callerReserve >= 0 && schedule.callerReserve <= max(0, count), "reserve \(schedule.callerReserve)")
        }
    }

    /// The parallel loop runs every index exactly once at any worker count, including the
    /// tail that helpers leave to the calling thread, and stops when a chunk says so.
    @Test func parallelLoopRunsEveryIndexOnce() {
        for count in [0, 1, 15, 16, 17, 100, 1000, 4097] {
            for workers in [1, 2, 3, 8] {
                for grain in [1, 4, 16] {
                    // Chunks are disjoint, so plain increments do not race (a chunk run twice
                    // shows up as a 2).
                    nonisolated(unsafe) let visits = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
                    defer { visits.deallocate() }
                    visits.initialize(repeating: 0)
                    let schedule = BatchSchedule(count: count, workers: workers, grain: grain, maxChunk: 64)
                    let finished = BatchEngine.parallel(schedule) { range in
                        for i in range { visits[i] += 1 }
                        return true
                    }
                    #expect(finished)
                    #expect(visits.allSatisfy { $0 == 1 }, "count \(count) workers \(workers) grain \(grain)")
                }
            }
        }
        let ran = Synchronization.Atomic<Int>(0)
        let stopped = BatchEngine.parallel(BatchSchedule(count: 10_000, workers: 2, grain: 16, maxChunk: 16)) { range in
            ran.add(range.count, ordering: .relaxed)
            return range.lowerBound < 160
        }
        #expect(!stopped)
        #expect(ran.load(ordering: .relaxed) < 10_000)
    }

    /// Duplicates inside one batch are shaped and laid out once: one prepared text per
    /// distinct text, and every copy gets the same answer.
    @Test func duplicatesInABatchAreMeasuredOnce() throws {
        let texts = (0..<600).map { $0 % 3 == 0 ? "A row that repeats in the feed" : "Row \($0 % 7) of a feed, seven variants" }
        for workers in [1, 2, 8] {
            let m = TextMeasurer()
            let r = m.heights(for: texts, style: style15(), width: 120, workers: workers)
            #expect(m.cacheStatistics.prepared.misses == 8, "workers \(workers)")
            #expect(m.cacheStatistics.prepared.hits == 0, "workers \(workers)")
            let alone = texts.map { engine.compute($0, style: engine.resolve(style15()), width: 120, scale: 2, extraWarnings: []).measurement }
            #expect(r == alone, "workers \(workers)")
        }
    }

    @Test func batchReportsProgressAndCanBeCancelled() throws {
        let texts = (0..<500).map { "row \($0) with some words to measure" }
        let progress = BatchProgress()
        let r = try TextMeasurer().heights(for: texts, style: style15(), width: 100, progress: progress)
        #expect(r.count == 500 && progress.completed == 500 && progress.fractionCompleted == 1)
        let cancelled = BatchProgress()
        cancelled.cancel()
        #expect(throws: BatchCancelled.self) {
            try TextMeasurer().heights(for: texts, style: style15(), width: 100, progress: cancelled)
        }
    }

    @Test func listHeightsFromABatch() throws {
        let rows = (0..<1000).map { (id: $0, text: "Row \($0): " + String(repeating: "word ", count: $0 % 7)) }
        let list = try engine.listHeights(for: rows, style: style15(), width: 120)
        #expect(list.count == 1000)
        let h = engine.measure(rows[10].text, style: style15(), width: 120).height
        #expect(list.height(of: 10) == h)
        #expect(list.rowIndex(atOffset: list.offset(ofRowAt: 500) + 0.25) == 500)
        // A feed whose pages overlap repeats an id: an error, not a trap.
        let overlapping = rows + [rows[999]]
        #expect(throws: DuplicateRowID<Int>.self) {
            try engine.listHeights(for: overlapping, style: style15(), width: 120)
        }
    }

    /// The seqlock read path: readers never see a torn entry or a value under the wrong key
    /// while writers insert, overwrite and evict (backward shifts) in the same small shards.
    @Test func optimisticReadsNeverSeeATornEntry() {
        let cache = ResultCache(budgetBytes: ResultCache.shardCount * ResultCache.entryBytes * 8)
        @Sendable func value(for k: UInt64, version: UInt32) -> CachedResult {
            CachedResult(heightPixels: UInt32(truncatingIfNeeded: k), widthPixels: UInt32(truncatingIfNeeded: k >> 32) ^ version,
                         lineCount: version, flags: 0, widestLine: Double(k % 1000), layoutWidth: Double(version))
        }
        let wrong = Synchronization.Atomic<Int>(0)
        let found = Synchronization.Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var rng = SplitMix64(seed: UInt64(worker) &+ 7)
            for _ in 0..<1_000_000 {
                // 24 keys, all in shard 0 (8 slots, at most 6 entries): constant eviction and
                // backward shifts under the readers' feet.
                let k = rng.next() % 24 &+ 1
                let key = CacheKey(low: k &* 0x9E37_79B9_7F4A_7C15, high: k << 9)
                if worker < 2 {
                    if rng.next() % 8 == 0 { cache.remove(key) } else { cache.insert(value(for: k, version: UInt32(rng.next() % 3)), for: key) }
                } else if let v = cache.value(for: key) {
                    found.add(1, ordering: .relaxed)
                    let expected = value(for: k, version: v.lineCount)
                    if v.lineCount > 2 || v != expected { wrong.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(found.load(ordering: .relaxed) > 10_000)
        #expect(cache.statistics.evictions > 0)
    }

    /// Optimistic readers while a shard's table doubles in place (16 → 512 slots): readers
    /// never fault, every entry they return was written for its key, and nothing is lost.
    /// (Torn reads themselves are provoked by `optimisticReadsNeverSeeATornEntry`.)
    @Test func optimisticReadsWhileTheTableGrows() {
        let wrong = Synchronization.Atomic<Int>(0)
        let found = Synchronization.Atomic<Int>(0)
        for round in 0..<50 {
            let cache = ResultCache(budgetBytes: ResultCache.shardCount * ResultCache.entryBytes * 512)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                var rng = SplitMix64(seed: UInt64(round * 4 + worker))
                for n in 0..<3000 {
                    let k = (worker < 2 ? UInt64(n / 4) : rng.next()) % 380 &+ 1
                    let key = CacheKey(low: k &* 0x9E37_79B9_7F4A_7C15, high: k << 9)  // all in shard 0
                    let value = CachedResult(heightPixels: UInt32(k), widthPixels: UInt32(k) ^ 0xABCD, lineCount: 1, flags: 0,
                                             widestLine: Double(k), layoutWidth: Double(k) * 2)
                    if worker < 2 {
                        cache.insert(value, for: key)
                    } else if let v = cache.value(for: key) {
                        found.add(1, ordering: .relaxed)
                        if v != value { wrong.add(1, ordering: .relaxed) }
                    }
                }
            }
            #expect(cache.statistics.entries == 380)
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(found.load(ordering: .relaxed) > 1000)
    }

    @Test func concurrentReadersAndWritersWithATinyBudget() throws {
        var config = TextMeasurer.Configuration()
        config.resultCacheBytes = ResultCache.shardCount * ResultCache.entryBytes * 2  // 2 slots per shard: constant eviction
        config.preparedCacheBytes = 64 * 4096
        config.segmentCacheBytes = 64 * 2048
        let m = TextMeasurer(configuration: config)
        let texts = Gen<String>.text(maxClusters: 20).sample(count: 200, seed: 3)
        let widths: [Double] = [60, 100, 160]
        let expected = widths.map { w in texts.map { engine.compute($0, style: engine.resolve(style15()), width: w, scale: 2, extraWarnings: []).measurement } }
        let failures = Synchronization.Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<3 {
                for (k, text) in texts.enumerated() {
                    let w = (worker + round + k) % widths.count
                    if m.measure(text, style: style15(), width: widths[w]) != expected[w][k] {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(m.cacheStatistics.results.evictions > 0)
    }
}

/// The result table's single-probe insertion and the hash's precomputed secret.
@Suite struct ResultTableAndHashTests {
    /// A full table replaces entries of a new key's own probe chain in place, and otherwise
    /// evicts by backward shift: against a model of what was inserted last, every insertion is
    /// found at once, nothing is found under a key it was not inserted for, the table never
    /// holds more than 75 % of its slots, and every entry it counts can still be found (a
    /// victim taken past the chain's end, or a chain broken by a move, leaves one unreachable).
    @Test func fullTableEvictionKeepsEveryChainReachable() {
        // Operations on one 8-slot shard: key 1...24 (home slots collide often); 0 looks the key
        // up (setting its CLOCK bit), 1 inserts it, 2 inserts it and looks it up.
        let ops = Gen<(Int, Int)>.zip(Gen.int(in: 1...24), Gen.int(in: 0...2)).array(count: 1...300)
        let failure = checkProperty("full-table eviction against a model", ops, iterations: 300) { (ops: [(Int, Int)]) throws -> Void in
            let cache = ResultCache(budgetBytes: ResultCache.shardCount * ResultCache.entryBytes * 8)
            func key(_ k: Int) -> CacheKey { CacheKey(low: UInt64(k % 7) &+ UInt64(k / 7) << 40, high: UInt64(k) << 9) }
            func value(_ k: Int, _ n: Int) -> CachedResult {
                CachedResult(heightPixels: UInt32(k), widthPixels: UInt32(n), lineCount: 1, flags: 0, widestLine: 1, layoutWidth: 2)
            }
            var latest: [Int: CachedResult] = [:]
            for (n, (k, op)) in ops.enumerated() {
                if op == 0 {
                    if let v = cache.value(for: key(k)), v != latest[k] { throw PropertyViolation("key \(k): \(v), last inserted \(String(describing: latest[k]))") }
                } else {
                    cache.insert(value(k, n), for: key(k))
                    latest[k] = value(k, n)
                    // A look-up sets the CLOCK bit, so only some insertions are checked at once.
                    if op == 2, cache.value(for: key(k), counted: false) != value(k, n) {
                        throw PropertyViolation("op \(n): key \(k) not found right after its insertion")
                    }
                }
                guard n % 25 == 24 || n == ops.count - 1 else { continue }
                let entries = cache.statistics.entries
                let reachable = (1...24).filter { cache.value(for: key($0), counted: false) != nil }.count
                if entries > 6 || entries != reachable {
                    throw PropertyViolation("op \(n): \(entries) entries counted, \(reachable) reachable")
                }
            }
        }
        #expect(failure == nil, "\(failure?.description ?? "")")
    }

    /// `plumb_xxh3_128` with Plumb's seed (the secret derived once at load for inputs over
    /// 240 bytes) gives `XXH3_128bits_withSeed`'s digest for every length around the
    /// midsize limit and beyond; other seeds too.
    @Test func precomputedSecretGivesTheSeededDigest() {
        #expect(CacheKey.seed == PLUMB_XXH3_SEED)
        var rng = SplitMix64(seed: 0x5EED_0016)
        let bytes = (0..<1_100).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes.withUnsafeBytes { all in
            for n in 0...1_024 {
                for seed in [CacheKey.seed, 0, 12345] {
                    let p = all.baseAddress! + (n % 7)
                    let a = plumb_xxh3_128(p, n, seed), b = plumb_xxh3_128_withSeed(p, n, seed)
                    #expect(a.low == b.low && a.high == b.high, "length \(n), seed \(seed)")
                }
            }
        }
    }

    /// A cell's result key is derived from its range key: distinct texts, fingerprints,
    /// widths or scales (each changed alone, including by one ulp and signed zero) give
    /// distinct result keys; range keys differ exactly when something but the width does;
    /// equal inputs give equal keys; no result key equals a range key.
    @Test func resultAndRangeKeysSeparateEveryField() {
        let texts = [CacheKey(low: 1, high: 2), CacheKey(low: 2, high: 1), CacheKey(low: 1, high: 3), CacheKey(low: 0, high: 0)]
        let prints = [CacheKey(low: 7, high: 9), CacheKey(low: 9, high: 7), CacheKey(low: 7, high: 10)]
        let widths = [100.0, 100.0.nextUp, 100.5, 0.0, -0.0, .infinity]
        let scales = [2.0, 3, 2.0.nextDown]
        var results: [CacheKey: String] = [:], ranges: [CacheKey: String] = [:]
        for (ti, t) in texts.enumerated() {
            for (fi, f) in prints.enumerated() {
                for (si, scale) in scales.enumerated() {
                    let rangeName = "\(ti) \(fi) \(si)"
                    for (wi, width) in widths.enumerated() {
                        let k = CellKeys.resultKeys(text: t, fingerprint: f, width: width, scale: scale)
                        let again = CellKeys.resultKeys(text: t, fingerprint: f, width: width, scale: scale)
                        #expect(k.result == again.result && k.range == again.range)
                        let name = "\(rangeName) \(wi)"
                        #expect(results.updateValue(name, forKey: k.result) == nil, "result key of \(name) repeated")
                        if let seen = ranges[k.range] { #expect(seen == rangeName, "range key of \(name) is \(seen)'s") }
                        ranges[k.range] = rangeName
                    }
                }
            }
        }
        #expect(results.count == texts.count * prints.count * scales.count * widths.count)
        #expect(ranges.count == texts.count * prints.count * scales.count)
        #expect(Set(results.keys).isDisjoint(with: ranges.keys))
    }

    /// Inserts, overwrites and lookups while every shard's table grows (no eviction: the
    /// budget holds every key) agree with a dictionary.
    @Test func insertionsAgreeWithADictionary() {
        let cache = ResultCache(budgetBytes: ResultCache.shardCount * ResultCache.entryBytes * 128)
        var model: [CacheKey: CachedResult] = [:]
        var rng = SplitMix64(seed: 0x7AB1E)
        var keys: [CacheKey] = []
        for step in 0..<40_000 {
            let key: CacheKey
            if !keys.isEmpty && rng.next() % 3 == 0 {
                key = keys[Int(rng.next() % UInt64(keys.count))]
            } else {
                // Few distinct low bits: long probe chains and clusters that wrap.
                key = CacheKey(low: rng.next() & 0xFFFF_0000_0000_00FF, high: rng.next())
                guard model[key] == nil else { continue }
                if keys.count >= 20_000 { continue }
                keys.append(key)
            }
            let value = CachedResult(
                heightPixels: UInt32(step), widthPixels: UInt32(truncatingIfNeeded: rng.next() >> 40), lineCount: 1,
                flags: 0, widestLine: Double(step), layoutWidth: 100)
            cache.insert(value, for: key)
            model[key] = value
            if step % 997 == 0 {
                for k in keys { #expect(cache.value(for: k, counted: false) == model[k]) }
            }
        }
        for k in keys { #expect(cache.value(for: k, counted: false) == model[k]) }
        #expect(cache.value(for: CacheKey(low: 0x1234_5678, high: 0x9ABC), counted: false) == nil)
        #expect(cache.statistics.evictions == 0)
    }
}
