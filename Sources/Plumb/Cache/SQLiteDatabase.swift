internal import CSQLite

/// An SQLite failure: the result code (extended) and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …) without its extension.
    var primary: Int32 { code & 0xFF }

    /// Another process holds a lock the operation needed (after the busy timeout).
    var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    /// The file is not a database, or its pages are damaged.
    var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    /// The file cannot be written or grow: disk full, a file size limit, an I/O error.
    var isFull: Bool { primary == SQLITE_FULL || primary == SQLITE_IOERR }
    /// The file or its folder is not writable.
    var isReadOnly: Bool { primary == SQLITE_READONLY || primary == SQLITE_PERM || primary == SQLITE_CANTOPEN }

    var description: String { "\(message) (SQLite code \(code))" }
}

/// One SQLite connection, used by one thread at a time (opened with `SQLITE_OPEN_NOMUTEX`:
/// the owner serialises access, so SQLite takes no mutex per call).
///
/// Memory-mapped I/O stays off (SQLite's default here): a cache file truncated by another
/// process while mapped would raise SIGBUS in this one; with reads through `pread` it is a
/// `SQLITE_CORRUPT` or `SQLITE_IOERR` answer instead.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens (and with `create`, creates) the database file at `path`.
    ///
    /// - Throws: `SQLiteError` when the file cannot be opened as asked.
    init(path: String, readOnly: Bool, create: Bool) throws {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: status, message: message)
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`), committed when it returns and
    /// rolled back when it throws.
    func transaction<R>(_ body: () throws -> R) throws -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Bytes of the file's pages in use (pages minus free pages).
    func usedBytes() throws -> Int {
        let pages = try integer("PRAGMA page_count") ?? 0
        let free = try integer("PRAGMA freelist_count") ?? 0
        let size = try integer("PRAGMA page_size") ?? 4096
        return Int((pages - free) * size)
    }

    /// The first column of the first row of `sql` as text (a pragma's answer), or nil.
    func text(_ sql: String) throws -> String? {
        let s = try prepare(sql)
        guard try s.step() else { return nil }
        return s.text(0)
    }

    /// The first column of the first row of `sql` as an integer, or nil for no row or NULL.
    func integer(_ sql: String) throws -> Int64? {
        let s = try prepare(sql)
        guard try s.step(), !s.isNull(0) else { return nil }
        return s.int64(0)
    }

    /// A prepared statement of this connection (kept for reuse: `SQLITE_PREPARE_PERSISTENT`).
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, owner: self)
    }

    /// The connection's last error with `status` as its code.
    func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle) == 0 ? status : sqlite3_extended_errcode(handle),
                    message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind, step, read columns, reset. Used by its connection's owner only.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let owner: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, owner: SQLiteDatabase) {
        self.statement = statement
        self.owner = owner
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds bytes that stay alive until `reset()` (no copy).
    func bind(staticBytes bytes: UnsafeRawBufferPointer, at index: Int32) {
        plumb_sqlite3_bind_static_blob(statement, index, bytes.baseAddress, Int32(bytes.count))
    }

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(statement, index, value)
    }

    /// Runs to the next row: true for a row, false when done.
    ///
    /// - Throws: `SQLiteError` for any other outcome (the statement is reset).
    @discardableResult
    func step() throws -> Bool {
        let status = sqlite3_step(statement)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        let e = owner.error(status)
        sqlite3_reset(statement)
        throw e
    }

    /// Rewinds the statement for new bindings (the bindings stay until rebound).
    func reset() {
        sqlite3_reset(statement)
    }

    /// Column `i` of the current row as bytes, valid until the next step or reset.
    func blob(_ i: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(statement, i))
        guard let base = sqlite3_column_blob(statement, i), count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Column `i` of the current row as an integer.
    func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(statement, i) }

    /// Whether column `i` of the current row is NULL.
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(statement, i) == SQLITE_NULL }

    /// Column `i` of the current row as text.
    func text(_ i: Int32) -> String? {
        guard let p = sqlite3_column_text(statement, i) else { return nil }
        return String(cString: p)
    }
}
