#if canImport(Glibc)
import Glibc
#endif
@testable import Plumb
import PropertyTesting
import Testing

/// The caches' counted bytes bound their real memory (issue 13, part 3): growth measured
/// with the allocator's own counters and the kernel's resident pages, never with timings.
@Suite(.serialized) struct CacheMemoryTests {
    /// Bytes the process has taken from malloc (small chunks in use plus mmapped chunks).
    static var heapBytes: Int { HeapCost.processHeapBytes }

    /// Whether glibc's malloc is the allocator (sanitizers replace it, and their `mallinfo2`
    /// reports nothing): a 1 MiB allocation must show in the counters.
    static let allocatorCountsAreReal: Bool = {
        let before = heapBytes
        let p = malloc(1 << 20)
        defer { free(p) }
        return heapBytes - before >= 1 << 20
    }()

    /// Resident set size of this process (`/proc/self/statm`, second field, in pages).
    static var residentBytes: Int {
        guard let f = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, 128, f) != nil else { return 0 }
        let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Regression: a 1 GiB result budget made a one-line input resident at ~800 MB, because
    /// every slot was written when the table was created. Slots are now committed as the
    /// table fills: a few entries cost a few pages.
    @Test func aLargeResultBudgetIsCommittedAsItFills() {
        let before = Self.residentBytes
        let cache = ResultCache(budgetBytes: 1 << 30)
        for k in 1...2000 as ClosedRange<UInt64> {
            cache.insert(CachedResult(heightPixels: 1, widthPixels: 2, lineCount: 1, flags: 0, widestLine: 1, layoutWidth: 2),
                         for: CacheKey(low: k &* 0x9E37_79B9_7F4A_7C15, high: k &* 0xC2B2_AE3D_27D4_EB4F))
        }
        let grown = Self.residentBytes - before
        // Old code: ~768 MiB resident. Other tests running meanwhile add noise, never 200 MiB.
        #expect(grown < 200 << 20, "RSS grew by \(grown >> 20) MiB for 2,000 entries")
        // Exactly: the pages the kernel holds for the table are the slots in use, rounded up
        // to a page per shard, and what the cache counts covers them.
        let stats = cache.statistics
        let resident = cache.residentSlotBytes
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(resident <= stats.bytes + ResultCache.shardCount * page, "resident \(resident), counted \(stats.bytes)")
        #expect(resident >= stats.entries * ResultCache.entryBytes)
        #expect(stats.bytes < 4 << 20)
        withExtendedLifetime(cache) {}
    }

    /// Regression (issue 16, two cores): a lookup in a shard that had never been written read
    /// its first page, which maps the kernel's shared zero page; the first insert then had to
    /// replace that page, a copy-on-write fault that flushes the TLB of every core running the
    /// process (an inter-processor interrupt, 512 per engine; ~7 ms of a 10,000-row cold run
    /// on two workers). A never-written shard is now answered without reading its slots, and
    /// the first insert writes them before reading, so lookups leave the table untouched.
    @Test func lookupsInAFreshResultTableTouchNoPage() {
        let cache = ResultCache(budgetBytes: 8 << 20)
        for k in 1...20_000 as ClosedRange<UInt64> {
            _ = cache.value(for: CacheKey(low: k &* 0x9E37_79B9_7F4A_7C15, high: k &* 0xC2B2_AE3D_27D4_EB4F))
        }
        #expect(cache.residentSlotBytes == 0, "lookups made \(cache.residentSlotBytes >> 10) KiB of the table resident")
        let result = CachedResult(heightPixels: 1, widthPixels: 2, lineCount: 1, flags: 0, widestLine: 1, layoutWidth: 2)
        let key = CacheKey(low: 0x1234_5678_9ABC_DEF1, high: 0x0FED_CBA9_8765_4321)
        cache.insert(result, for: key)
        #expect(cache.value(for: key)?.heightPixels == 1)
        #expect(cache.residentSlotBytes == Int(sysconf(Int32(_SC_PAGESIZE))))
        withExtendedLifetime(cache) {}
    }

    /// What tier 1 counts is what the allocator hands out for it: segments and prepared texts
    /// of a cold engine, compared with `mallinfo2` growth over the same pass. Fonts and their
    /// glyph caches are loaded by a first engine sharing the resolver, so the growth measured
    /// is the caches'. Other suites allocate concurrently, so the best of up to six passes counts
    /// (three were not always enough on a loaded machine: 0.85, 0.27, −8.8 seen).
    @Test(.enabled(if: allocatorCountsAreReal)) func tierOneCountsWhatTheAllocatorHolds() {
        let fonts = engine.fonts
        var ratios: [Double] = []
        for attempt in 0..<6 {
            // 3,000 texts: compact prepared texts grow the heap by ~4 MB, well above what the
            // other suites allocate meanwhile (1,500 made ~2 MB, and under the full suite all
            // three passes could read 0.66–0.85).
            let texts = Gen<String>.text(maxClusters: 60).sample(count: 3000, seed: UInt64(100 + attempt))
            let warm = TextMeasurer(fonts: fonts)
            for t in texts { _ = warm.measure(t, style: style15(), width: 120) }
            let m = TextMeasurer(fonts: fonts)
            let counted0 = m.cacheStatistics.segments.bytes + m.cacheStatistics.prepared.bytes
            let heap0 = Self.heapBytes
            for t in texts { _ = m.measure(t, style: style15(), width: 120) }
            let heap1 = Self.heapBytes
            let counted1 = m.cacheStatistics.segments.bytes + m.cacheStatistics.prepared.bytes
            let real = Double(heap1 - heap0), counted = Double(counted1 - counted0)
            ratios.append(counted / real)
            print("tier 1: counted \(Int(counted)) B, allocator \(Int(real)) B, ratio \(counted / real)")
            withExtendedLifetime(m) {}
            if counted >= 0.9 * real && counted <= 1.6 * real { break }
        }
        // Counted ≥ 90 % of the real growth (a budget bounds memory) and not wildly more.
        #expect(ratios.contains { $0 >= 0.9 && $0 <= 1.6 }, "counted / allocator: \(ratios)")
    }

    /// A full tier-1 cache stays within its budget, and so does the memory it takes: fill a
    /// 16 MiB segment cache with four times as much and compare the allocator's growth.
    @Test(.enabled(if: allocatorCountsAreReal)) func aFullSegmentCacheStaysWithinItsBudget() {
        var ratios: [Double] = []
        for attempt in 0..<3 {
            let budget = 16 << 20
            let heap0 = Self.heapBytes
            let cache = SegmentCache(budgetBytes: budget)
            var rng = SplitMix64(seed: UInt64(attempt))
            for k in 1...200_000 as ClosedRange<UInt64> {
                var advances: [Int32] = []  // built by appending, as the preparer does
                for _ in 0..<(4 + Int(rng.next() % 60)) { advances.append(Int32(truncatingIfNeeded: rng.next())) }
                cache.insert(advances, for: CacheKey(low: k &* 0x9E37_79B9_7F4A_7C15, high: rng.next()))
            }
            let grown = Self.heapBytes - heap0
            let stats = cache.statistics
            #expect(stats.bytes <= budget)
            #expect(stats.evictions > 0)
            ratios.append(Double(grown) / Double(budget))
            print("segments: budget \(budget) B, counted \(stats.bytes) B, allocator growth \(grown) B")
            withExtendedLifetime(cache) {}
            if grown <= budget * 11 / 10 { break }
        }
        #expect(ratios.contains { $0 <= 1.1 }, "heap growth / budget: \(ratios)")
    }

    /// The peak resident memory of this process since `resetResidentPeak()` (`VmHWM`).
    static var residentPeakBytes: Int {
        guard let f = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, f) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmHWM:") else { continue }
            return (Int(text.dropFirst(6).filter(\.isNumber)) ?? 0) * 1024
        }
        return 0
    }

    /// Resets `VmHWM` to the current resident size (Linux ≥ 4.0: `5` into `clear_refs`).
    @discardableResult static func resetResidentPeak() -> Bool {
        guard let f = fopen("/proc/self/clear_refs", "w") else { return false }
        defer { fclose(f) }
        return fputs("5", f) >= 0
    }

    static let residentPeakCanBeReset: Bool = {
        guard resetResidentPeak(), residentPeakBytes > 0 else { return false }
        return true
    }()

    /// Whether ThreadSanitizer or AddressSanitizer is in the process: their shadow memory and
    /// redzones grow with every allocation (a huge cell read 26.8 bytes per byte under TSan),
    /// so resident-peak ratios say nothing about Plumb there.
    static let runsUnderSanitizer: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
    }()

    /// What one cell takes at its peak beyond what the process held before (RSS).
    /// (`width` differs from call to call: no cached result answers.)
    static func peakGrowth(measuring text: String, in m: TextMeasurer, width: Double) -> Int {
        let style = m.resolve(style15())
        HeapCost.trimHeap()  // free pages go back to the kernel, so reusing them shows as growth
        resetResidentPeak()
        let before = residentBytes
        _ = m.measure(text, style: style, width: width)
        return residentPeakBytes - before
    }

    /// Regression (issue 13, part 3): one unbreakable word of 4 MB peaked at ~51 bytes per
    /// byte (builder columns of 22 bytes per grapheme, paragraph scratch, shaped units, ICU's
    /// offsets for the whole paragraph, the result copied beside them). The growth of the
    /// peak from a 128 KiB to a 512 KiB word (laid out 20,000 pt wide: few lines), per added
    /// byte, is now ~11, the result's 10 included (ASCII is one grapheme per byte, so every
    /// per-grapheme byte kept anywhere shows); the old code measured 36–52 here. The peak is
    /// the process's, so it is measured in a process of its own: in the test run's process
    /// other suites load fonts and batches meanwhile and moved it to 25–30 bytes per byte.
    /// The first pair still includes some first growth: the median of three must stay under 24.
    @Test(.enabled(if: residentPeakCanBeReset && !runsUnderSanitizer))
    func oneHugeCellPeaksAtASmallMultipleOfItsSize() throws {
        guard AloneProcess.isThisProcess(Self.aloneVariable) else {
            return try AloneProcess.run(
                test: "CacheMemoryTests/oneHugeCellPeaksAtASmallMultipleOfItsSize", variable: Self.aloneVariable)
        }
        let m = TextMeasurer(fonts: engine.fonts)
        let small = String(repeating: "x", count: 128 << 10), large = String(repeating: "x", count: 512 << 10)
        _ = Self.peakGrowth(measuring: small, in: m, width: 20_000)  // first growth, glyph caches
        var perByte: [Double] = []
        for attempt in 1...3 {
            let peakSmall = Self.peakGrowth(measuring: small, in: m, width: 20_000 + Double(attempt))
            let peakLarge = Self.peakGrowth(measuring: large, in: m, width: 20_000 + Double(attempt))
            perByte.append(Double(peakLarge - peakSmall) / Double(large.utf8.count - small.utf8.count))
            print("one cell's peak: 128 KiB word +\(peakSmall >> 10) KiB, 512 KiB word +\(peakLarge >> 10) KiB")
        }
        #expect(perByte.sorted()[1] <= 24, "peak bytes per added byte: \(perByte)")
        withExtendedLifetime(m) {}
    }

    /// Set in the process that measures one huge cell's peak alone.
    static let aloneVariable = "PLUMB_HUGE_CELL_PEAK_ALONE"

    /// `PreparedText.byteSize` counts every array a prepared text owns (its columns live in
    /// one allocation, counted whole; it has no array of its own; `ellipsisByGroup` is the
    /// array of its `Extras`, counted with them; its fonts are a shared `FontTable`): a new
    /// array field must be added there too.
    @Test func preparedTextSizeCountsEveryArray() throws {
        let m = TextMeasurer(fonts: engine.fonts)
        let r = m.compute("Hello, world", style: m.resolve(style15()), width: 100, scale: 2, extraWarnings: [])
        let prepared = try #require(r.prepared)
        func arrays(_ value: Any) -> [String] {
            Mirror(reflecting: value).children.filter { Mirror(reflecting: $0.value).displayStyle == .collection }
                .compactMap(\.label)
        }
        #expect(arrays(prepared).isEmpty, "PreparedText has arrays \(arrays(prepared)); byteSize counts none")
        #expect(prepared.extras == nil, "plain text has no extras")
        let extras = PreparedText.Extras(token: nil, ellipsisByGroup: [], pangoBaselines: nil)
        #expect(arrays(extras) == ["ellipsisByGroup"], "Extras.byteSize counts one array: \(arrays(extras))")
        var extrasEnd = 16
        for child in Mirror(reflecting: extras).children {
            func add<T>(_: T) {
                extrasEnd = (extrasEnd + MemoryLayout<T>.alignment - 1) / MemoryLayout<T>.alignment * MemoryLayout<T>.alignment
                    + MemoryLayout<T>.size
            }
            _openExistential(child.value, do: add)
        }
        #expect(extrasEnd - 16 <= PreparedText.Extras.storedBytes)
        // The object's size as its fields lay it out (16-byte header, each field aligned)
        // is what `byteSize` counts for it.
        var end = 16
        for child in Mirror(reflecting: prepared).children {
            func add<T>(_: T) {
                end = (end + MemoryLayout<T>.alignment - 1) / MemoryLayout<T>.alignment * MemoryLayout<T>.alignment + MemoryLayout<T>.size
            }
            _openExistential(child.value, do: add)
        }
        #expect(end - 16 <= PreparedText.storedBytes, "PreparedText's fields take \(end - 16) bytes; byteSize counts \(PreparedText.storedBytes)")
        // The font table is shared by the texts of one style, not copied per text.
        let other = try #require(m.compute("Another cell", style: m.resolve(style15()), width: 100, scale: 2, extraWarnings: []).prepared)
        #expect(other.fontTable === prepared.fontTable)
    }
}
