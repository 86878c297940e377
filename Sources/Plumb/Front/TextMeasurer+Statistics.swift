extension TextMeasurer {
    /// Memory of the result table (tier 2): what its entries use and what the table has
    /// allocated (it reserves slots ahead of its entries, so the two differ until it is full).
    ///
    /// `cacheStatistics.results.bytes` is the allocated figure; this separates the two for
    /// `plumb measure --stats`.
    /// - Thread safety: safe from any thread; takes each shard's lock once.
    public var resultTableBytes: (inUse: Int, allocated: Int) {
        let s = resultCache.statistics
        return (s.entries * ResultCache.entryBytes, s.bytes)
    }
}
