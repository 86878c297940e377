/// Where the engine keeps results across launches, and how large the file may grow
/// (`TextMeasurer.Configuration.persistentCache`; the CLI's `--cache FILE`).
///
/// The file is an SQLite database in WAL mode that several processes may share. It holds
/// tier 2's entries (a cell's height, width, line count and flags under its 128-bit result
/// key, which already covers the engine version, ICU, the break locale, every installed and
/// registered font file and the profile's conventions), so a changed font, version or
/// convention is a miss, never a stale answer.
public struct PersistentCacheConfiguration: Hashable, Sendable {
    /// The database file, created if missing (its folder must exist).
    public var path: String
    /// Bytes of the database file's pages in use above which the oldest entries are evicted
    /// (down to 80 %). 256 MiB by default: about 2.5 million results.
    public var budgetBytes: Int

    /// A cache at `path` with the given budget.
    public init(path: String, budgetBytes: Int = 256 << 20) {
        self.path = path
        self.budgetBytes = budgetBytes
    }
}

/// What the persistent cache is doing and has done (`TextMeasurer.persistentCacheStatus`).
public struct PersistentCacheStatus: Hashable, Sendable {
    /// How the engine uses the file.
    public enum Mode: Hashable, Sendable {
        /// Lookups and stores.
        case readWrite
        /// Lookups only: the file or its folder is not writable, or writes failed (disk
        /// full, another version's lock held too long); see `warnings`.
        case readOnly
        /// Neither: the file could not be opened or used; the engine measures without it.
        case bypassed
    }

    /// The file.
    public var path: String
    /// The current mode.
    public var mode: Mode
    /// Every problem met, in order, each once (a damaged file rebuilt, a read-only folder, a
    /// full disk, a lock held by another process).
    public var warnings: [String]
    /// Lookups answered from the file.
    public var hits: Int
    /// Lookups the file did not answer.
    public var misses: Int
    /// Results written to the file.
    public var stored: Int
    /// Results evicted to stay within the budget.
    public var evicted: Int
    /// Results that could not be written (the file locked or full, or the write queue full).
    public var dropped: Int
    /// Bytes of the file's pages in use at the last write (0 before one).
    public var bytes: Int
    /// The byte budget.
    public var budget: Int
}
