import Dispatch
import Glibc
import Synchronization

/// Tier 3: tier 2's results in an SQLite file that outlives the process and may be shared by
/// several processes (WAL mode: readers never wait for the writer).
///
/// Table `results(key BLOB PRIMARY KEY, value BLOB, stamp INTEGER, style INTEGER) WITHOUT
/// ROWID`, one B-tree and no index (each index costs every insert a second B-tree write):
/// `key` is the cell's 16-byte result key (big-endian, so the table's order is the keys'
/// numeric order), `value` a ``PersistentRecord`` (the result and a checksum over key and
/// result, so a damaged page SQLite does not notice is a miss, never a wrong answer), `stamp`
/// the write batch that stored or last refreshed it, `style` the low word of the layout
/// fingerprint (`invalidate(style:)` deletes by it). Table `meta` holds the file format
/// (`PersistentResultStore.format`; a file of another format is rebuilt) and the oldest and
/// newest stamps.
///
/// Lookups sort their keys: a batch asking for a large share of the file reads it as one
/// ordered scan merged with its keys (~0.1 µs a row), a smaller one does a B-tree lookup per
/// key in key order.
///
/// Writes never run on the measuring threads: `record` appends to a bounded queue that a
/// serial Dispatch queue writes in one transaction, in key order, at most every `flushDelay`
/// (or at once when the queue is long). When the file's pages in use exceed the budget, the oldest stamps are
/// deleted (a scan) until they are under 80 % of it. A hit whose stamp is in the older half
/// while the file is past half its budget is refreshed in the next write (second chance), so
/// entries in use survive eviction.
///
/// Faults never fail a measurement: an unopenable, damaged or foreign file is rebuilt or
/// bypassed, a read-only one is only read, a full or locked one stops or drops writes; each
/// case adds one warning to `status`.
///
/// - Thread safety: safe from any thread. Lookups use read connections (one per core, each
///   under its lock; a batch looks all its misses up in one transaction per connection);
///   writes have their own connection.
final class PersistentResultStore: Sendable {
    /// The file format: bump when the tables or ``PersistentRecord`` change.
    static let format = "plumb-results-2"
    /// How long results wait in the queue before a write (a server's stragglers still land
    /// within it). Each commit rewrites every page it touched into the WAL, and a batch of
    /// random keys touches most leaves of the table, so fewer, larger commits write less.
    static let flushDelay = DispatchTimeInterval.seconds(1)
    /// Queue length that triggers a write at once (~2.6 MB queued).
    static let flushLength = 65536
    /// Queue length above which new results are dropped (the writer is blocked: a lock held
    /// by another process, a slow disk), so memory stays bounded: ~24 B each.
    static let maximumPending = 1 << 20

    let path: String
    let budgetBytes: Int
    /// Read connections, one per core (at most 4).
    private let readers: [ReaderSlot]
    /// The reader the next small lookup takes (round robin: two threads looking up at once
    /// take different readers).
    private let nextReader = Atomic<Int>(0)
    /// Whether the write connection is still there: without it nothing is queued.
    private let writable = Atomic<Bool>(false)

    /// A read connection under its lock (a class: `Lock` cannot be an array element).
    private final class ReaderSlot: Sendable {
        let lock: Lock<Reader?>
        init(_ reader: sending Reader?) { lock = Lock(reader) }
    }
    private let writer: Lock<Writer?>
    private let pending = Lock(Pending())
    private let queue = DispatchQueue(label: "plumb.persistent-cache", qos: .utility)
    private let notes = Lock<[String]>([])
    /// Stamps below this are refreshed when hit (0: none; set by the writer).
    private let refreshBelow = Atomic<Int64>(0)
    private let counters = Counters()
    private let usedBytes = Atomic<Int>(0)
    /// Rows in the file, estimated from its pages in use (`bytesPerRow`).
    private let estimatedRows = Atomic<Int>(0)
    /// A row's share of the file's pages: key, value, stamp, style, SQLite's record and cell
    /// headers, pages ~80 % full.
    static let bytesPerRow = 100

    private final class Counters: Sendable {
        let hits = Atomic<Int>(0)
        let misses = Atomic<Int>(0)
        let stored = Atomic<Int>(0)
        let evicted = Atomic<Int>(0)
        let dropped = Atomic<Int>(0)
    }

    /// Results waiting for the writer, refreshes of hit entries and styles to delete.
    private struct Pending {
        var results: [(key: CacheKey, value: CachedResult, style: UInt64)] = []
        var refreshes: [CacheKey] = []
        var deletedStyles: [UInt64] = []
        var deletedKeys: [CacheKey] = []
        var flushScheduled = false
        var isEmpty: Bool { results.isEmpty && refreshes.isEmpty && deletedStyles.isEmpty && deletedKeys.isEmpty }
    }

    /// Opens (or creates) the file. Never fails: what goes wrong is in `status.warnings`, and
    /// the store then reads only, or neither reads nor writes.
    ///
    /// - Complexity: opening SQLite twice and a schema check (no scan of the file).
    init(path: String, budgetBytes: Int) {
        self.path = path
        self.budgetBytes = max(budgetBytes, 64 << 10)
        var warnings: [String] = []
        let (reader, writer) = Self.open(path: path, warnings: &warnings)
        let cores = ProcessInfoLite.activeProcessorCount
        let count = reader == nil ? 1 : max(1, min(4, cores))
        var readers = [ReaderSlot(reader)]
        for _ in 1..<count { readers.append(ReaderSlot(try? Reader(path: path))) }
        self.readers = readers
        self.writer = Lock(writer)
        writable.store(writer != nil, ordering: .relaxed)
        notes.withLock { $0 = warnings }
        // Before the first lookup: it chooses between point lookups and a scan by this.
        if let used = try? reader?.db.usedBytes() {
            usedBytes.store(used, ordering: .relaxed)
            estimatedRows.store(used / Self.bytesPerRow, ordering: .relaxed)
        }
        if writer != nil { queue.async { [weak self] in self?.withWriter { self?.updateBookkeeping($0) } } }
    }

    deinit {
        // Nothing else holds the store: the queue's blocks see `nil` and return.
        flushPending()
    }

    // MARK: Lookups

    /// Batches asking for at least 1/`scanShare` of the file's rows scan it.
    static let scanShare = 16
    /// Keys per reader when a scan is split between readers (smaller scans stay on one).
    static let keysPerScanPart = 4096

    /// A key to look up and its place in the caller's array.
    fileprivate struct Wanted {
        var key: CacheKey
        var index: Int
    }

    /// What one reader's part of a lookup found besides the results.
    private struct PartOutcome: Sendable {
        var hits = 0
        var refresh: [CacheKey] = []
        var failure: SQLiteError?
    }

    /// The stored result of each key (nil where the file has none, or none that passes its
    /// checksum), in the keys' order.
    ///
    /// - Complexity: a sort of the keys, then one read transaction per reader used: per key
    ///   a B-tree lookup (O(log n) pages, from SQLite's page cache when warm), or, for a batch
    ///   of at least 1/16 of the file's rows, an ordered scan of the key range, split between
    ///   the readers (one per core, at most 4) when the batch has more than 4,096 keys.
    /// - Thread safety: safe from any thread; small lookups take the readers in turn, so
    ///   concurrent callers rarely wait for each other.
    func load(_ keys: [CacheKey]) -> [CachedResult?] {
        var out = [CachedResult?](repeating: nil, count: keys.count)
        guard !keys.isEmpty else { return out }
        var wanted = keys.enumerated().map { Wanted(key: $1, index: $0) }
        wanted.sort { PersistentRecord.precedes($0.key, $1.key) }
        let scanning = keys.count * Self.scanShare >= estimatedRows.load(ordering: .relaxed)
        let parts = scanning ? max(1, min(readers.count, keys.count / Self.keysPerScanPart)) : 1
        let outcomes = Lock<[PartOutcome]>([])
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer  // each index is written by the part holding its key
            wanted.withUnsafeBufferPointer { all in
                nonisolated(unsafe) let all = all  // read-only while the parts run
                let run = { @Sendable (part: Int, reader: Int) in
                    let range = (all.count * part / parts)..<(all.count * (part + 1) / parts)
                    let outcome = self.lookUp(
                        UnsafeBufferPointer(rebasing: all[range]), scanning: scanning, on: self.readers[reader], into: buffer)
                    outcomes.withLock { $0.append(outcome) }
                }
                if parts == 1 {
                    let turn = UInt(bitPattern: nextReader.wrappingAdd(1, ordering: .relaxed).oldValue)
                    run(0, Int(turn % UInt(readers.count)))
                } else {
                    DispatchQueue.concurrentPerform(iterations: parts) { run($0, $0) }
                }
            }
        }
        let all = outcomes.withLock { $0 }
        let hits = all.reduce(0) { $0 + $1.hits }
        counters.hits.add(hits, ordering: .relaxed)
        counters.misses.add(keys.count - hits, ordering: .relaxed)
        for failure in all.compactMap(\.failure) {
            note(failure.isCorrupt ? "the file is damaged (\(failure)): no longer read" : "a lookup failed (\(failure)): measured instead")
        }
        let refresh = all.flatMap(\.refresh)
        if !refresh.isEmpty { enqueue { $0.refreshes += refresh } }
        return out
    }

    /// The stored result for one key.
    ///
    /// - Complexity and thread safety: as `load(_:)` for one key.
    func value(for key: CacheKey) -> CachedResult? {
        load([key])[0]
    }

    /// One reader's part of `load`: the keys of `wanted` (sorted), their results written
    /// into `out` at their indexes.
    private func lookUp(
        _ wanted: UnsafeBufferPointer<Wanted>, scanning: Bool, on slot: ReaderSlot,
        into out: UnsafeMutableBufferPointer<CachedResult?>
    ) -> PartOutcome {
        let threshold = refreshBelow.load(ordering: .relaxed)
        return slot.lock.withLock { reader -> PartOutcome in
            var outcome = PartOutcome()
            guard let r = reader else { return outcome }
            func visit(_ w: Wanted, _ value: CachedResult, _ stamp: Int64) {
                outcome.hits += 1
                if stamp < threshold { outcome.refresh.append(w.key) }
                out[w.index] = value
            }
            do {
                try r.beginRead()
                defer { r.endRead() }
                if scanning {
                    try r.scan(wanted, visit)
                } else {
                    for w in wanted {
                        guard let (value, stamp) = try r.value(for: w.key) else { continue }
                        visit(w, value, stamp)
                    }
                }
            } catch let e as SQLiteError {
                if e.isCorrupt { reader = nil }
                outcome.failure = e
            } catch {}
            return outcome
        }
    }

    // MARK: Writes

    /// Queues a measured result for the file (written off this thread, batched).
    ///
    /// - Complexity: O(1) amortised: an append under a lock.
    /// - Thread safety: safe from any thread.
    func record(_ value: CachedResult, for key: CacheKey, style: CacheKey) {
        guard writable.load(ordering: .relaxed) else { return }
        enqueue { p in
            guard p.results.count < Self.maximumPending else {
                counters.dropped.add(1, ordering: .relaxed)
                return
            }
            p.results.append((key, value, style.low))
        }
    }

    /// Deletes one stored result in the next write (and drops it from the queue).
    func remove(_ key: CacheKey) {
        enqueue { p in
            p.results.removeAll { $0.key == key }
            p.deletedKeys.append(key)
        }
    }

    /// Deletes every stored result of a style (by its layout fingerprint), in the next write.
    /// Results of the style still queued are dropped: the write deletes before it inserts.
    func removeResults(ofStyle style: CacheKey) {
        enqueue { p in
            p.results.removeAll { $0.style == style.low }
            p.deletedStyles.append(style.low)
        }
    }

    /// Writes everything queued now, on the calling thread's behalf (waits for the writer).
    ///
    /// - Thread safety: safe from any thread; concurrent measurements may queue more.
    func flush() {
        queue.sync { flushPending() }
    }

    /// Deletes every stored result (the file stays, emptied).
    func removeAll() {
        pending.withLock { $0 = Pending(flushScheduled: $0.flushScheduled) }
        queue.sync {
            withWriter { w in
                try w.db.execute("DELETE FROM results")
                updateBookkeeping(w)
            }
        }
    }

    /// What the store is doing and has done.
    var status: PersistentCacheStatus {
        let readable = readers[0].lock.withLock { $0 != nil }
        let writable = writer.withLock { $0 != nil }
        return PersistentCacheStatus(
            path: path, mode: writable ? .readWrite : readable ? .readOnly : .bypassed,
            warnings: notes.withLock { $0 },
            hits: counters.hits.load(ordering: .relaxed), misses: counters.misses.load(ordering: .relaxed),
            stored: counters.stored.load(ordering: .relaxed), evicted: counters.evicted.load(ordering: .relaxed),
            dropped: counters.dropped.load(ordering: .relaxed), bytes: usedBytes.load(ordering: .relaxed),
            budget: budgetBytes)
    }

    private func enqueue(_ change: (inout Pending) -> Void) {
        let schedule: DispatchTime? = pending.withLock { p in
            change(&p)
            guard !p.flushScheduled else { return nil }
            p.flushScheduled = true
            return p.results.count >= Self.flushLength ? .now() : .now() + Self.flushDelay
        }
        if let schedule { queue.asyncAfter(deadline: schedule) { [weak self] in self?.flushPending() } }
    }

    /// Writes the queue in one transaction, then evicts if over budget. Runs on `queue` (or
    /// in `deinit`, when nothing else can).
    private func flushPending() {
        let batch = pending.withLock { p -> Pending in
            let out = p
            p = Pending()
            return out
        }
        guard !batch.isEmpty else { return }
        let written = withWriter { w -> Int in
            let n = try w.write(
                batch.results, refreshes: batch.refreshes, deletedStyles: batch.deletedStyles, deletedKeys: batch.deletedKeys)
            updateBookkeeping(w)
            return n
        }
        if let written {
            counters.stored.add(written, ordering: .relaxed)
        } else {
            counters.dropped.add(batch.results.count, ordering: .relaxed)
        }
    }

    /// Evicts down to 80 % of the budget when over it, then sets the refresh threshold and
    /// the bytes in use.
    private func updateBookkeeping(_ w: Writer) {
        do {
            var used = try w.db.usedBytes()
            // Stamps are write batches, so deleting the oldest share of the stamp range deletes
            // about that share of the rows; a few rounds reach the target whatever the mix.
            var rounds = 0
            while used > budgetBytes * 8 / 10 && (rounds > 0 || used > budgetBytes) && rounds < 4 {
                counters.evicted.add(try w.evict(keeping: Double(budgetBytes) * 0.8 / Double(used)), ordering: .relaxed)
                used = try w.db.usedBytes()
                rounds += 1
            }
            usedBytes.store(used, ordering: .relaxed)
            estimatedRows.store(used / Self.bytesPerRow, ordering: .relaxed)
            refreshBelow.store(used * 2 >= budgetBytes ? try w.middleStamp() : 0, ordering: .relaxed)
        } catch let e as SQLiteError {
            note("bookkeeping failed (\(e))")
        } catch {}
    }

    /// Runs `body` with the write connection; on failure notes why, and stops writing when
    /// the failure will last (read-only, full, damaged). Nil when there is no writer or it
    /// failed.
    @discardableResult
    private func withWriter<R>(_ body: (Writer) throws -> R) -> R? {
        let outcome: Result<R, SQLiteError>? = writer.withLock { writer in
            guard let w = writer else { return nil }
            do { return .success(try body(w)) } catch let e as SQLiteError {
                if !e.isBusy {
                    writer = nil
                    writable.store(false, ordering: .relaxed)
                }
                return .failure(e)
            } catch { return nil }
        }
        switch outcome {
        case .success(let r): return r
        case .failure(let e):
            if e.isBusy {
                note("the file is locked by another process (\(e)): some results were not stored")
            } else if e.isCorrupt {
                note("the file is damaged (\(e)): no longer written")
            } else if e.isFull {
                note("the file cannot grow (\(e)): no longer written; lookups continue")
            } else {
                note("a write failed (\(e)): no longer written; lookups continue")
            }
            return nil
        case nil: return nil
        }
    }

    private func note(_ message: String) {
        notes.withLock { if !$0.contains(message) { $0.append(message) } }
    }
}

// MARK: Opening

extension PersistentResultStore {
    /// The write and read connections, rebuilding a damaged or foreign file once; either is
    /// nil when it cannot be had (with a warning).
    private static func open(path: String, warnings: inout [String]) -> (Reader?, Writer?) {
        do {
            return try openReadWrite(path: path, warnings: &warnings)
        } catch let e as SQLiteError where e.isCorrupt {
            warnings.append("\(path) is not a Plumb cache or is damaged (\(e)): rebuilt")
            removeFiles(path)
            do { return try openReadWrite(path: path, warnings: &warnings) } catch {
                warnings.append("\(path) could not be rebuilt (\(error)): measuring without it")
                return (nil, nil)
            }
        } catch let e as SQLiteError where e.isReadOnly {
            do {
                let reader = try Reader(path: path)
                if let found = try reader.format(), found != format {
                    warnings.append("\(path) is not writable and was written by another version (format \(found)): measuring without it")
                    return (nil, nil)
                }
                warnings.append("\(path) is not writable (\(e)): read only")
                return (reader, nil)
            } catch {
                warnings.append("\(path) cannot be opened (\(e); read only: \(error)): measuring without it")
                return (nil, nil)
            }
        } catch {
            warnings.append("\(path) cannot be used (\(error)): measuring without it")
            return (nil, nil)
        }
    }

    private static func openReadWrite(path: String, warnings: inout [String]) throws -> (Reader?, Writer?) {
        let writer = try Writer(path: path)
        if let found = try writer.prepareSchema(), found != format {
            warnings.append("\(path) was written by another version (format \(found)): rebuilt")
        }
        return (try Reader(path: path), writer)
    }

    /// Deletes the database and its WAL and shared-memory files.
    private static func removeFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}

// MARK: Connections

extension PersistentResultStore {
    /// The read connection and its statements (reached only under the store's `reader` lock).
    fileprivate final class Reader: @unchecked Sendable {
        let db: SQLiteDatabase
        let begin: SQLiteStatement
        let commit: SQLiteStatement
        let select: SQLiteStatement
        let scanFrom: SQLiteStatement

        init(path: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: true, create: false)
            db.setBusyTimeout(milliseconds: 50)
            // 8 MiB of pages per reader (SQLite's default is 2 MiB): a reader's share of a
            // feed's rows stays in memory.
            try db.execute("PRAGMA cache_size = -8192")
            begin = try db.prepare("BEGIN")
            commit = try db.prepare("COMMIT")
            select = try db.prepare("SELECT value, stamp FROM results WHERE key = ?1")
            scanFrom = try db.prepare("SELECT key, value, stamp FROM results WHERE key >= ?1 ORDER BY key")
        }

        /// Reads the rows from the first of `wanted` (sorted by `PersistentRecord.precedes`) on
        /// in key order, merged with `wanted`; stops after the last.
        func scan(_ wanted: UnsafeBufferPointer<Wanted>, _ visit: (Wanted, CachedResult, Int64) -> Void) throws {
            guard let first = wanted.first else { return }
            try PersistentRecord.withBytes(of: first.key) { bytes in
                scanFrom.bind(staticBytes: bytes, at: 1)
                defer { scanFrom.reset() }
                var j = 0
                while j < wanted.count, try scanFrom.step() {
                    guard let rowKey = PersistentRecord.key(scanFrom.blob(0)) else { continue }
                    while j < wanted.count, PersistentRecord.precedes(wanted[j].key, rowKey) { j += 1 }
                    guard j < wanted.count, wanted[j].key == rowKey else { continue }
                    if let value = PersistentRecord.decode(scanFrom.blob(1), key: rowKey) {
                        visit(wanted[j], value, scanFrom.int64(2))
                    }
                    j += 1
                }
            }
        }

        /// Starts a read transaction: every lookup until `endRead` sees one snapshot, and
        /// pays for the WAL's shared lock once.
        func beginRead() throws {
            defer { begin.reset() }
            try begin.step()
        }

        /// Ends the read transaction.
        func endRead() {
            defer { commit.reset() }
            _ = try? commit.step()
        }

        /// The file's format (nil when it has none).
        func format() throws -> String? {
            try db.text("SELECT value FROM meta WHERE name = 'format'")
        }

        /// The valid stored result for `key` and its stamp (nil when absent or failing its
        /// checksum).
        func value(for key: CacheKey) throws -> (CachedResult, Int64)? {
            try PersistentRecord.withBytes(of: key) { bytes in
                select.bind(staticBytes: bytes, at: 1)
                defer { select.reset() }
                guard try select.step() else { return nil }
                guard let value = PersistentRecord.decode(select.blob(0), key: key) else { return nil }
                return (value, select.int64(1))
            }
        }
    }

    /// The write connection and its statements (reached only under the store's `writer` lock).
    fileprivate final class Writer: @unchecked Sendable {
        let db: SQLiteDatabase
        private let insert: SQLiteStatement
        private let refresh: SQLiteStatement
        private let deleteStyle: SQLiteStatement
        private let deleteKey: SQLiteStatement
        private let newestStamp: SQLiteStatement
        private let setNewest: SQLiteStatement
        private let evictOldest: SQLiteStatement

        init(path: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: false, create: true)
            db.setBusyTimeout(milliseconds: 2000)
            // 32 MiB of pages: the B-tree's inner pages and most leaves of a feed stay cached.
            try db.execute("PRAGMA cache_size = -32768")
            // WAL: readers in any process never wait for a writer, and a process killed while
            // writing leaves the last committed state. NORMAL: a commit is durable across a
            // process crash (a power cut may lose the last ones: a cache's loss, not damage).
            _ = try db.text("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            // Checkpoints every 16 MiB of WAL rather than 4: each copies the changed pages
            // into the file, so rarer ones write a page touched by several commits once.
            try db.execute("PRAGMA wal_autocheckpoint = 4096")
            try db.execute("CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID")
            try db.execute(Self.createResults)
            // A key stored again (a width-range answer of a stored cell) keeps its value (the
            // same bits) and takes the new stamp.
            insert = try db.prepare("""
                INSERT INTO results(key, value, stamp, style) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT(key) DO UPDATE SET stamp = excluded.stamp
                """)
            refresh = try db.prepare("UPDATE results SET stamp = ?1 WHERE key = ?2")
            deleteStyle = try db.prepare("DELETE FROM results WHERE style = ?1")
            deleteKey = try db.prepare("DELETE FROM results WHERE key = ?1")
            newestStamp = try db.prepare("SELECT value FROM meta WHERE name = 'newest'")
            setNewest = try db.prepare("INSERT OR REPLACE INTO meta(name, value) VALUES ('newest', ?1)")
            evictOldest = try db.prepare("DELETE FROM results WHERE stamp < ?1")
        }

        /// The results table (one B-tree, no index).
        static let createResults = """
            CREATE TABLE IF NOT EXISTS results(
                key BLOB PRIMARY KEY, value BLOB NOT NULL, stamp INTEGER NOT NULL, style INTEGER NOT NULL
            ) WITHOUT ROWID
            """

        /// Checks the file's format, writing it into a new file and emptying a file of another
        /// format. Returns the format found (nil for a new file).
        func prepareSchema() throws -> String? {
            let found = try db.text("SELECT value FROM meta WHERE name = 'format'")
            guard found != PersistentResultStore.format else { return found }
            try db.transaction {
                try db.execute("DROP TABLE IF EXISTS results")
                try db.execute(Self.createResults)
                try db.execute("DELETE FROM meta")
                try db.execute("INSERT INTO meta(name, value) VALUES ('format', '\(PersistentResultStore.format)')")
            }
            return found
        }

        /// Writes one batch in one transaction under a new stamp; returns the results written.
        func write(
            _ results: [(key: CacheKey, value: CachedResult, style: UInt64)], refreshes: [CacheKey],
            deletedStyles: [UInt64], deletedKeys: [CacheKey]
        ) throws -> Int {
            try db.transaction {
                let stamp = try newest() + 1
                setNewest.bind(stamp, at: 1)
                defer { setNewest.reset() }
                try setNewest.step()
                for style in deletedStyles {
                    deleteStyle.bind(Int64(bitPattern: style), at: 1)
                    try deleteStyle.step()
                    deleteStyle.reset()
                }
                for key in deletedKeys {
                    try PersistentRecord.withBytes(of: key) { kb in
                        deleteKey.bind(staticBytes: kb, at: 1)
                        defer { deleteKey.reset() }
                        try deleteKey.step()
                    }
                }
                // In key order: each insert lands next to the one before (the B-tree's pages
                // come in order), ~2.5× less CPU than in arrival order.
                for r in results.sorted(by: { PersistentRecord.precedes($0.key, $1.key) }) {
                    var v = PersistentRecord.encode(r.value, key: r.key)
                    try PersistentRecord.withBytes(of: r.key) { kb in
                        try withUnsafeBytes(of: &v) { vb in
                            insert.bind(staticBytes: kb, at: 1)
                            insert.bind(staticBytes: vb, at: 2)
                            insert.bind(stamp, at: 3)
                            insert.bind(Int64(bitPattern: r.style), at: 4)
                            defer { insert.reset() }
                            try insert.step()
                        }
                    }
                }
                for key in refreshes {
                    try PersistentRecord.withBytes(of: key) { kb in
                        refresh.bind(stamp, at: 1)
                        refresh.bind(staticBytes: kb, at: 2)
                        defer { refresh.reset() }
                        try refresh.step()
                    }
                }
                return results.count
            }
        }


        /// The newest stamp written (0 for a new file).
        func newest() throws -> Int64 {
            defer { newestStamp.reset() }
            return try newestStamp.step() ? newestStamp.int64(0) : 0
        }

        /// The oldest stamp that may be in the file (eviction deleted every older one).
        func oldest() throws -> Int64 {
            try db.integer("SELECT value FROM meta WHERE name = 'oldest'") ?? 1
        }

        /// Deletes the oldest stamps, keeping about `fraction` of the stamp range (a scan of
        /// the table); returns the rows deleted.
        func evict(keeping fraction: Double) throws -> Int {
            try db.transaction {
                let oldest = try oldest(), newest = try newest()
                let span = Double(newest - oldest + 1) * (1 - max(0, min(1, fraction)))
                let cut = min(newest + 1, oldest + max(1, Int64(span.rounded(.up))))
                evictOldest.bind(cut, at: 1)
                defer { evictOldest.reset() }
                try evictOldest.step()
                let removed = db.changes
                try db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES ('oldest', \(cut))")
                return removed
            }
        }

        /// The stamp halfway between the oldest and the newest.
        func middleStamp() throws -> Int64 {
            let oldest = try oldest(), newest = try newest()
            return oldest + (newest - oldest) / 2
        }
    }
}

/// The bytes of a stored result: the result (heights and widths in device pixels, line
/// count, flags without the CLOCK bit, the two widths of width-range reuse) and an XXH3
/// checksum over the key and those 32 bytes.
enum PersistentRecord {
    typealias Bytes = (UInt64, UInt64, UInt64, UInt64, UInt64)
    typealias KeyBytes = (UInt64, UInt64)

    /// The key's 16 bytes: high word, then low, big-endian, so that SQLite's byte order of
    /// keys is `precedes`.
    static func keyBytes(_ key: CacheKey) -> KeyBytes { (key.high.bigEndian, key.low.bigEndian) }

    /// `body` with the key's 16 stored bytes (to bind to a statement while it runs).
    static func withBytes<R>(of key: CacheKey, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var bytes = keyBytes(key)
        return try withUnsafeBytes(of: &bytes, body)
    }

    /// The key in 16 stored bytes (nil for another length).
    static func key(_ bytes: UnsafeRawBufferPointer) -> CacheKey? {
        guard bytes.count == 16 else { return nil }
        return CacheKey(
            low: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            high: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)))
    }

    /// The stored order of keys: by high word, then low word.
    @inline(__always)
    static func precedes(_ a: CacheKey, _ b: CacheKey) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    static func encode(_ v: CachedResult, key: CacheKey) -> Bytes {
        let sizes = UInt64(v.heightPixels) | UInt64(v.widthPixels) << 32
        let counts = UInt64(v.lineCount) | UInt64(v.flags & ~CachedResult.referenced) << 32
        let payload = (sizes, counts, v.widestLine.bitPattern, v.layoutWidth.bitPattern)
        return (sizes.littleEndian, counts.littleEndian, v.widestLine.bitPattern.littleEndian,
                v.layoutWidth.bitPattern.littleEndian, checksum(payload, key: key).littleEndian)
    }

    /// The result in `bytes`, or nil when they are not a record of `key` (wrong length, or
    /// the checksum does not match).
    static func decode(_ bytes: UnsafeRawBufferPointer, key: CacheKey) -> CachedResult? {
        guard bytes.count == MemoryLayout<Bytes>.size else { return nil }
        func word(_ i: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
        let payload = (word(0), word(1), word(2), word(3))
        guard checksum(payload, key: key) == word(4) else { return nil }
        return CachedResult(
            heightPixels: UInt32(truncatingIfNeeded: payload.0), widthPixels: UInt32(truncatingIfNeeded: payload.0 >> 32),
            lineCount: UInt32(truncatingIfNeeded: payload.1), flags: UInt32(truncatingIfNeeded: payload.1 >> 32),
            widestLine: Double(bitPattern: payload.2), layoutWidth: Double(bitPattern: payload.3))
    }

    private static func checksum(_ payload: (UInt64, UInt64, UInt64, UInt64), key: CacheKey) -> UInt64 {
        var words = (key.low, key.high, payload.0, payload.1, payload.2, payload.3)
        return withUnsafeBytes(of: &words) { CacheKey(bytes: $0).low }
    }
}
