#include <sqlite3.h>

/// sqlite3_bind_blob with SQLITE_STATIC (a macro Swift cannot import): the caller keeps the
/// bytes alive until the statement is reset.
static inline int plumb_sqlite3_bind_static_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_STATIC);
}
