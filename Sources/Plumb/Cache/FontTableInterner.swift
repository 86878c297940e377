import Synchronization

/// One engine's shared `FontTable`s: a text prepared with the faces and styles of a table
/// seen before takes that table instead of a copy.
///
/// Bounded: past ``capacity`` tables it starts again empty (texts keep the tables they hold;
/// new texts get new ones), so a stream of ever-new styles cannot grow it without bound and
/// fonts replaced by a reload are let go. Its bytes (``byteCount``) are not counted against
/// the tier budgets: a few dozen tables of a few hundred bytes in a typical engine, at most
/// ``capacity`` of them.
///
/// - Thread safety: safe from any thread (one `Lock`, taken once per prepared text on a
///   miss of the preparer's own last table).
final class FontTableInterner: Sendable {
    private let state = Lock<State>(State())

    private struct State {
        var tables: [FontTable.Key: FontTable] = [:]
        var bytes = 0
    }

    /// At most this many tables are kept.
    static let capacity = 1024

    init() {}

    /// The shared table of `fonts` and `scales`, made on first use.
    ///
    /// - Complexity: O(fonts) to hash the key; one lock.
    func table(fonts: [PreparedText.FontUse], scales: UnsafeBufferPointer<AdvanceScale>) -> FontTable {
        let key = FontTable.Key(fonts: fonts, scales: scales)
        return state.withLock { s in
            if let hit = s.tables[key] { return hit }
            if s.tables.count >= Self.capacity { s = State() }
            let table = FontTable(fonts: fonts, scales: scales, key: key)
            s.tables[key] = table
            s.bytes += table.byteSize
            return table
        }
    }

    /// Forgets every table (the engine's caches were emptied).
    func removeAll() { state.withLock { $0 = State() } }

    /// How many tables are held, and their heap bytes.
    var statistics: (tables: Int, bytes: Int) { state.withLock { ($0.tables.count, $0.bytes) } }
}
