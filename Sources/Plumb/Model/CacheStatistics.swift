/// Counters of a cache, for `--stats` and tests.
public struct CacheStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Lookups that found their entry.
    public var hits: Int = 0
    /// Lookups that did not (the value was then computed).
    public var misses: Int = 0
    /// Entries stored.
    public var insertions: Int = 0
    /// Entries dropped to stay within the budget.
    public var evictions: Int = 0
    /// Entries held now.
    public var entries: Int = 0
    /// Memory the cache holds, allocator overhead and bookkeeping included, so that it bounds
    /// the cache's share of the process's memory: tier 1 counts malloc chunks and its index
    /// and slot arrays at their worst, tier 2 the table slots in use (the only resident ones).
    /// At most `budget`.
    public var bytes: Int = 0
    /// The cache's byte budget (`TextMeasurer.Configuration`).
    public var budget: Int = 0

    /// All counters 0.
    public init() {}

    /// `hits / (hits + misses)`, 0 before any lookup.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }

    /// The counters on one line: `"hits …, misses …, …, bytes used/budget"`.
    public var description: String {
        "hits \(hits), misses \(misses), insertions \(insertions), evictions \(evictions), "
            + "entries \(entries), bytes \(bytes)/\(budget)"
    }

    static func + (a: CacheStatistics, b: CacheStatistics) -> CacheStatistics {
        var r = CacheStatistics()
        r.hits = a.hits + b.hits
        r.misses = a.misses + b.misses
        r.insertions = a.insertions + b.insertions
        r.evictions = a.evictions + b.evictions
        r.entries = a.entries + b.entries
        r.bytes = a.bytes + b.bytes
        r.budget = a.budget + b.budget
        return r
    }
}
