import Dispatch
import Glibc
import Synchronization

/// Tier 3: tier 2's results in an SQLite file that outlives the process and may be shared by
/// several processes (WAL mode: readers never wait for the writer).
///
/// Table `results(key BLOB PRIMARY KEY, value BLOB, stamp INTEGER, style INTEGER) WITHOUT
/// ROWID` with an index on `stamp`: `key` is the cell's 16-byte result key, `value` a
/// ``PersistentRecord`` (the result and a checksum over key and result, so a damaged page
/// SQLite does not notice is a miss, never a wrong answer), `stamp` the write batch that
/// stored or last refreshed it (eviction removes the lowest), `style` the low word of the
/// layout fingerprint (`invalidate(style:)` deletes by it). Table `meta` holds the file
/// format (`PersistentResultStore.format`); a file of another format is rebuilt.
///
/// Writes never run on the measuring threads: `record` appends to a bounded queue that a
/// serial Dispatch queue writes in one transaction at most every `flushDelay` (or at once when
/// the queue is long), then evicts down to 80 % of the budget when the file's pages in use
/// exceed it. A hit whose stamp is in the older half of the file while the file is past half
/// its budget is refreshed in the next write (second chance), so entries in use survive
/// eviction.
///
/// Faults never fail a measurement: an unopenable, damaged or foreign file is rebuilt or
/// bypassed, a read-only one is only read, a full or locked one stops or drops writes; each
/// case adds one warning to `status`.
///
/// - Thread safety: safe from any thread. Lookups share one read connection under a lock
///   (a batch looks all its misses up in one transaction); writes have their own connection.
final class PersistentResultStore: Sendable {
    /// The file format: bump when the tables or ``PersistentRecord`` change.
    static let format = "plumb-results-1"
    /// How long results wait in the queue before a write (a server's stragglers still land).
    static let flushDelay = DispatchTimeInterval.milliseconds(100)
    /// Queue length that triggers a write at once.
    static let flushLength = 8192
    /// Queue length above which new results are dropped (the writer is blocked: a lock held
    /// by another process, a slow disk), so memory stays bounded: ~24 B each.
    static let maximumPending = 1 << 20

    let path: String
    let budgetBytes: Int
    private let reader: Lock<Reader?>
    private let writer: Lock<Writer?>
    private let pending = Lock(Pending())
    private let queue = DispatchQueue(label: "plumb.persistent-cache", qos: .utility)
    private let notes = Lock<[String]>([])
    /// Stamps below this are refreshed when hit (0: none; set by the writer).
    private let refreshBelow = Atomic<Int64>(0)
    private let counters = Counters()
    private let usedBytes = Atomic<Int>(0)

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
        self.reader = Lock(reader)
        self.writer = Lock(writer)
        notes.withLock { $0 = warnings }
        if writer != nil { queue.async { [weak self] in self?.withWriter { self?.updateBookkeeping($0) } } }
    }

    deinit {
        // Nothing else holds the store: the queue's blocks see `nil` and return.
        flushPending()
    }

    // MARK: Lookups

    /// The stored result for each key that has one: `found(i, result)` for `keys[i]`.
    ///
    /// - Complexity: one read transaction; per key a B-tree lookup (O(log n) pages, from
    ///   SQLite's page cache when warm) and a checksum.
    /// - Thread safety: safe from any thread; concurrent calls take turns on the read
    ///   connection.
    func load(_ keys: [CacheKey], found: (Int, CachedResult) -> Void) {
        guard !keys.isEmpty else { return }
        var hits = 0
        var refresh: [CacheKey] = []
        let threshold = refreshBelow.load(ordering: .relaxed)
        let failure: SQLiteError? = reader.withLock { reader in
            guard let r = reader else { return nil }
            do {
                try r.beginRead()
                defer { r.endRead() }
                for (i, key) in keys.enumerated() {
                    guard let (value, stamp) = try r.value(for: key) else { continue }
                    hits += 1
                    if stamp < threshold { refresh.append(key) }
                    found(i, value)
                }
                return nil
            } catch let e as SQLiteError {
                if e.isCorrupt { reader = nil }
                return e
            } catch { return nil }
        }
        counters.hits.add(hits, ordering: .relaxed)
        counters.misses.add(keys.count - hits, ordering: .relaxed)
        if let failure { note(failure.isCorrupt ? "the file is damaged (\(failure)): no longer read" : "a lookup failed (\(failure)): measured instead") }
        if !refresh.isEmpty { enqueue { $0.refreshes += refresh } }
    }

    /// The stored result for one key.
    ///
    /// - Complexity and thread safety: as `load(_:found:)` for one key.
    func value(for key: CacheKey) -> CachedResult? {
        var out: CachedResult?
        load([key]) { _, v in out = v }
        return out
    }

    // MARK: Writes

    /// Queues a measured result for the file (written off this thread, batched).
    ///
    /// - Complexity: O(1) amortised: an append under a lock.
    /// - Thread safety: safe from any thread.
    func record(_ value: CachedResult, for key: CacheKey, style: CacheKey) {
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
        let readable = reader.withLock { $0 != nil }
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
            var used = try w.usedBytes()
            if used > budgetBytes {
                counters.evicted.add(try w.evict(toFraction: Double(budgetBytes) * 0.8 / Double(used)), ordering: .relaxed)
                used = try w.usedBytes()
            }
            usedBytes.store(used, ordering: .relaxed)
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
                if !e.isBusy { writer = nil }
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

        init(path: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: true, create: false)
            db.setBusyTimeout(milliseconds: 50)
            // 16 MiB of pages (SQLite's default is 2 MiB): ~150,000 results stay in memory.
            try db.execute("PRAGMA cache_size = -16384")
            begin = try db.prepare("BEGIN")
            commit = try db.prepare("COMMIT")
            select = try db.prepare("SELECT value, stamp FROM results WHERE key = ?1")
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
            var k = PersistentRecord.keyBytes(key)
            return try withUnsafeBytes(of: &k) { bytes in
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
        private let evictOldest: SQLiteStatement

        init(path: String) throws {
            db = try SQLiteDatabase(path: path, readOnly: false, create: true)
            db.setBusyTimeout(milliseconds: 2000)
            // WAL: readers in any process never wait for a writer, and a process killed while
            // writing leaves the last committed state. NORMAL: a commit is durable across a
            // process crash (a power cut may lose the last ones: a cache's loss, not damage).
            _ = try db.text("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            try db.execute("""
                CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS results(
                    key BLOB PRIMARY KEY, value BLOB NOT NULL, stamp INTEGER NOT NULL, style INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS results_by_stamp ON results(stamp);
                """)
            insert = try db.prepare("INSERT OR REPLACE INTO results(key, value, stamp, style) VALUES (?1, ?2, ?3, ?4)")
            refresh = try db.prepare("UPDATE results SET stamp = ?1 WHERE key = ?2")
            deleteStyle = try db.prepare("DELETE FROM results WHERE style = ?1")
            deleteKey = try db.prepare("DELETE FROM results WHERE key = ?1")
            newestStamp = try db.prepare("SELECT coalesce(max(stamp), 0) FROM results")
            evictOldest = try db.prepare("DELETE FROM results WHERE key IN (SELECT key FROM results ORDER BY stamp LIMIT ?1)")
        }

        /// Checks the file's format, writing it into a new file and emptying a file of another
        /// format. Returns the format found (nil for a new file).
        func prepareSchema() throws -> String? {
            let found = try db.text("SELECT value FROM meta WHERE name = 'format'")
            guard found != PersistentResultStore.format else { return found }
            try db.execute("BEGIN IMMEDIATE")
            do {
                try db.execute("DELETE FROM results")
                try db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES ('format', '\(PersistentResultStore.format)')")
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
            return found
        }

        /// Writes one batch in one transaction under a new stamp; returns the results written.
        func write(
            _ results: [(key: CacheKey, value: CachedResult, style: UInt64)], refreshes: [CacheKey],
            deletedStyles: [UInt64], deletedKeys: [CacheKey]
        ) throws -> Int {
            try db.execute("BEGIN IMMEDIATE")
            do {
                newestStamp.reset()
                guard try newestStamp.step() else { throw SQLiteError(code: 1, message: "no stamp") }
                let stamp = newestStamp.int64(0) + 1
                newestStamp.reset()
                for style in deletedStyles {
                    deleteStyle.bind(Int64(bitPattern: style), at: 1)
                    try deleteStyle.step()
                    deleteStyle.reset()
                }
                for key in deletedKeys {
                    var k = PersistentRecord.keyBytes(key)
                    try withUnsafeBytes(of: &k) { kb in
                        deleteKey.bind(staticBytes: kb, at: 1)
                        defer { deleteKey.reset() }
                        try deleteKey.step()
                    }
                }
                for r in results {
                    var k = PersistentRecord.keyBytes(r.key)
                    var v = PersistentRecord.encode(r.value, key: r.key)
                    try withUnsafeBytes(of: &k) { kb in
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
                    var k = PersistentRecord.keyBytes(key)
                    try withUnsafeBytes(of: &k) { kb in
                        refresh.bind(stamp, at: 1)
                        refresh.bind(staticBytes: kb, at: 2)
                        defer { refresh.reset() }
                        try refresh.step()
                    }
                }
                try db.execute("COMMIT")
                return results.count
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }

        /// Bytes of the file's pages in use (pages minus free pages).
        func usedBytes() throws -> Int {
            let pages = try db.integer("PRAGMA page_count") ?? 0
            let free = try db.integer("PRAGMA freelist_count") ?? 0
            let size = try db.integer("PRAGMA page_size") ?? 4096
            return Int((pages - free) * size)
        }

        /// Deletes the oldest entries, keeping `fraction` of them; returns how many went.
        func evict(toFraction fraction: Double) throws -> Int {
            let count = try db.integer("SELECT count(*) FROM results") ?? 0
            let remove = Int64((Double(count) * (1 - max(0, min(1, fraction)))).rounded(.up))
            guard remove > 0 else { return 0 }
            try db.execute("BEGIN IMMEDIATE")
            do {
                evictOldest.bind(remove, at: 1)
                defer { evictOldest.reset() }
                try evictOldest.step()
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
            return Int(remove)
        }

        /// The stamp halfway between the oldest and the newest entry's.
        func middleStamp() throws -> Int64 {
            let oldest = try db.integer("SELECT min(stamp) FROM results") ?? 0
            let newest = try db.integer("SELECT max(stamp) FROM results") ?? 0
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

    /// The key's 16 bytes: low word, then high (little-endian on every platform Plumb runs).
    static func keyBytes(_ key: CacheKey) -> KeyBytes { (key.low.littleEndian, key.high.littleEndian) }

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
