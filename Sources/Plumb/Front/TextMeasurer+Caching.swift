/// The cached path: tier 2 (results) → width-range reuse → tier 1 (prepared text) → full
/// pipeline.
extension TextMeasurer {
    /// Measures one cell with a resolved style.
    ///
    /// - Complexity: a tier-2 hit costs two XXH3-128 hashes and one shard lookup (the
    ///   benchmark's warm row, `Benchmarks/README.md`); a width change with a known text is
    ///   arithmetic only.
    ///   A style resolved before `reloadFontsIfChanged()` replaced the fonts is re-resolved
    ///   first (the answer is always the current fonts'); resolve it again to skip that.
    /// - Thread safety: safe from any thread, concurrently.
    public func measure(_ text: String, style: ResolvedStyle, width: Double, scale: Double = 2)
        -> TextMeasurement
    {
        // Checked in place (no copy of the style on the hot path: a copy retains its members).
        guard isCurrent(style) else {
            let fresh = resolve(style.style)
            return measure(text, style: fresh, width: width, scale: scale,
                           keys: cellKeys(text, style: fresh, width: width, scale: scale))
        }
        return measure(text, style: style, width: width, scale: scale,
                       keys: cellKeys(text, style: style, width: width, scale: scale))
    }

    /// The cached path once the keys are known (batches compute them in a parallel pass);
    /// `nil` keys: a cell that must not touch the cache (fallbacks, empty text).
    ///
    /// - Parameters:
    ///   - resultMissed: the caller already looked the result key up and missed (a batch's
    ///     second pass): start at the width range.
    ///   - runs: an attributed cell's runs, resolved (`richContent`) only when the cell is laid
    ///     out: a hit needs only its content key, already in `keys`. `nil`: a plain cell.
    func measure(
        _ text: String, style: ResolvedStyle, width: Double, scale: Double, keys k: CellKeys?,
        resultMissed: Bool = false, runs: AttributedText? = nil
    ) -> TextMeasurement {
        guard let k else {
            return compute(
                text, style: style, width: width, scale: scale, extraWarnings: [], needsLines: false,
                content: runs.map { richContent($0, style: style, key: CellKeys.contentKey($0)) }
            ).measurement
        }
        if !resultMissed, let hit = resultCache.value(for: k.keys.result) {
            return style.warnings.isEmpty
                ? hit.measurement(scale: k.scale)
                : hit.measurement(scale: k.scale, warnings: style.warnings)
        }
        return measureMissed(
            text, style: style, width: width, scale: scale, keys: k, runs: runs, readsPersistentCache: !resultMissed)
    }

    /// The cached path after the result key missed: the width range, the persistent cache,
    /// then a layout (from tier 1 when it holds the text). Out of line, so a warm hit runs in
    /// a small frame (with the miss path inlined, hits are slower for the same instructions).
    ///
    /// - Parameter readsPersistentCache: look the result up in the persistent cache after
    ///   the width range (false when a batch already looked it up there).
    @inline(never)
    private func measureMissed(
        _ text: String, style: ResolvedStyle, width: Double, scale: Double, keys k: CellKeys,
        runs: AttributedText?, readsPersistentCache: Bool
    ) -> TextMeasurement {
        let keys = k.keys, w = k.layoutWidth, cleanScale = k.scale
        // Not counted: the range entry is an internal probe, and the cell's lookup was the one
        // above (or the batch's), so a cell is one hit or one miss in the statistics.
        let range = resultCache.value(for: keys.range, counted: false)
        if let range, range.isReusableAcrossWidths, range.widestLine <= w, w <= range.layoutWidth {
            resultCache.insert(range, for: keys.result)
            persistentStore?.record(range, for: keys.result, style: style.layoutFingerprint)
            return style.warnings.isEmpty
                ? range.measurement(scale: cleanScale)
                : range.measurement(scale: cleanScale, warnings: style.warnings)
        }
        if readsPersistentCache, let store = persistentStore, let stored = store.value(for: keys.result) {
            resultCache.insert(stored, for: keys.result)
            return style.warnings.isEmpty
                ? stored.measurement(scale: cleanScale)
                : stored.measurement(scale: cleanScale, warnings: style.warnings)
        }
        let cellContent = runs.map { richContent($0, style: style, key: k.text) }
        if cellContent == nil, let m = measureCell(text, style: style, keys: k, range: range) { return m }
        let r = compute(
            text, style: style, width: width, scale: scale, extraWarnings: [], textKey: k.text,
            needsLines: false, content: cellContent)
        // A cacheable style's warnings (a skipped family) are the same for every cell and are
        // given back with every hit; a cell with warnings of its own is not cached.
        if r.measurement.warningCount == style.warnings.count, let layout = r.layout,
            // Balanced lines come from a bisection that starts at the width: no width-range
            // reuse for them (flagged as a line broken inside a word is).
            let cached = Self.cached(
                r.measurement, brokeInsideWord: layout.brokeInsideWord || style.sanitized.balancesLines,
                widestLine: layout.widestLine, layoutWidth: w, scale: cleanScale)
        {
            insert(cached, keys: keys, range: range, style: style.layoutFingerprint)
        }
        return r.measurement
    }

    /// Caches a cell's result, and its width-range entry unless `range` (the one found)
    /// already serves: one range entry per text and style, the first reusable layout keeps it
    /// (a width change then costs one insert, not two). The result (not the range entry)
    /// also goes to the persistent cache's write queue, under `style` (the layout
    /// fingerprint) so that `invalidate(style:)` reaches it there.
    @inline(__always)
    func insert(_ cached: CachedResult, keys: ResultKeys, range: CachedResult?, style: CacheKey) {
        resultCache.insert(cached, for: keys.result)
        persistentStore?.record(cached, for: keys.result, style: style)
        if range == nil || range?.isReusableAcrossWidths == false {
            resultCache.insert(cached, for: keys.range)
        }
    }

    /// The keys of one plain cell measured with `style` (`CellKeys.plain`).
    @inline(__always)
    func cellKeys(_ text: String, style: ResolvedStyle, width: Double, scale: Double) -> CellKeys? {
        CellKeys.plain(
            text, cacheable: style.isCacheable, fingerprint: style.layoutFingerprint, width: width, scale: scale,
            widthUnit: style.sanitized.conventions.widthUnit)
    }

    /// `m` in tier 2's form (nil when a size or count does not fit 32 bits).
    static func cached(
        _ m: TextMeasurement, brokeInsideWord: Bool, widestLine: Double, layoutWidth: Double, scale: Double
    ) -> CachedResult? {
        let h = PixelGrid.rounded(m.size.height * scale)
        let w = PixelGrid.rounded(m.size.width * scale)
        guard h >= 0, w >= 0, h < Double(UInt32.max), w < Double(UInt32.max), m.lineCount < Int(UInt32.max) else { return nil }
        var flags: UInt32 = 0
        if m.isTruncated { flags |= CachedResult.truncated }
        if brokeInsideWord { flags |= CachedResult.brokeInsideWord }
        return CachedResult(
            heightPixels: UInt32(h), widthPixels: UInt32(w), lineCount: UInt32(m.lineCount),
            flags: flags, widestLine: widestLine, layoutWidth: layoutWidth)
    }

    // MARK: Invalidation and statistics

    /// Forgets the result of one cell.
    ///
    /// Removes the cell's result and its width-range entry from tier 2 (and its result from
    /// the persistent cache, in its next write), so the next
    /// `measure` of it lays it out again (from its prepared text when tier 1 still has it).
    ///
    /// - Returns: whether a result was cached.
    /// - Complexity: a style resolution, two hashes and two shard lookups.
    /// - Thread safety: safe from any thread, concurrently with measuring.
    @discardableResult
    public func invalidate(text: String, style: TextStyle, width: Double, scale: Double = 2) -> Bool {
        guard let k = cellKeys(text, style: resolve(style), width: width, scale: scale) else { return false }
        persistentStore?.remove(k.keys.result)
        resultCache.remove(k.keys.range)
        return resultCache.remove(k.keys.result)
    }

    /// Empties every in-memory cache tier (fonts stay resolved; the persistent cache keeps
    /// its file: `removeAllPersistedResults()` empties it).
    ///
    /// - Complexity: O(slots) over every shard of every tier (the result table's memory stays
    ///   committed).
    /// - Thread safety: safe from any thread; measurements running meanwhile may still
    ///   insert results, which stay valid.
    public func removeAllCachedResults() {
        resultCache.removeAll()
        preparedCache.removeAll()
        preparedAdmission.reset()
        segmentCache.removeAll()
    }

    /// Empties the persistent cache's file (a no-op without one).
    ///
    /// - Complexity: one `DELETE` of every row, after the queued writes.
    /// - Thread safety: safe from any thread; results measured meanwhile may be stored.
    public func removeAllPersistedResults() {
        persistentStore?.removeAll()
    }

    /// The persistent cache's mode, warnings and counters; nil when the configuration has
    /// none.
    ///
    /// - Thread safety: safe from any thread; a snapshot.
    public var persistentCacheStatus: PersistentCacheStatus? { persistentStore?.status }

    /// Writes the results queued for the persistent cache now and waits for the write (they
    /// are otherwise written within about a second, and when the engine is released). Call before the
    /// process exits: a process ending without it loses what was queued, never the file.
    ///
    /// - Thread safety: safe from any thread.
    public func flushPersistentCache() {
        persistentStore?.flush()
    }

    /// Cache counters: tier 1 (segments, prepared texts) and tier 2 (results).
    ///
    /// - Complexity: O(shards): every shard's lock is taken once.
    /// - Thread safety: safe from any thread; a snapshot, not atomic across shards.
    public var cacheStatistics: (segments: CacheStatistics, prepared: CacheStatistics, results: CacheStatistics) {
        (segmentCache.statistics, preparedCache.statistics, resultCache.statistics)
    }
}
