import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the book table when missing: one row per recorded event keyed by symbol and
    /// sequence, the time in UTC milliseconds, levels packed as native-order Doubles
    /// `[price0, qty0, price1, qty1, ...]`, and `local_ns`, when a `bt live` recording received
    /// the event (UTC nanoseconds; NULL for imported books).
    ///
    /// `local_ns` was added after the table: an older store gains it (NULL in its rows) in its
    /// first write transaction (`addColumnIfMissing`); readers of a store without it read NULL.
    ///
    /// Stores written before books kept milliseconds hold a `book_events` table with times in
    /// whole seconds; it is moved into `books` (times × 1000) and dropped. Call inside a write
    /// transaction (store creation, `migrate`): readers never convert, they read either table
    /// (`bookTable`).
    func createBookTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS books(
              symbol TEXT NOT NULL, seq INTEGER NOT NULL, time_ms INTEGER NOT NULL,
              kind TEXT NOT NULL, bids BLOB NOT NULL, asks BLOB NOT NULL, local_ns INTEGER,
              PRIMARY KEY(symbol, seq)) WITHOUT ROWID;
            """)
        try addColumnIfMissing(table: "books", column: "local_ns", type: "INTEGER")
        let hasLegacy = try { () throws -> Bool in
            let legacy = try db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'book_events'")
            return try legacy.step()
        }()
        if hasLegacy {
            try db.execute("""
                INSERT OR REPLACE INTO books(symbol, seq, time_ms, kind, bids, asks)
                  SELECT symbol, seq, time * 1000, kind, bids, asks FROM book_events;
                DROP TABLE book_events;
                """)
        }
    }

    /// A table books are kept in, with the SQL for an event's time in milliseconds and its
    /// receive time in nanoseconds (`NULL` where the table has none).
    typealias BookTable = (name: String, timeMs: String, localNs: String)

    /// The tables this store keeps books in: `books`, and an older store's `book_events` (whole
    /// seconds) until its next write converts it. A symbol's events come from the first table
    /// that has any.
    var bookTables: [BookTable] {
        get throws {
            var out: [BookTable] = []
            if tables.contains("books") {
                out.append(("books", "time_ms", try hasColumn(table: "books", column: "local_ns") ? "local_ns" : "NULL"))
            }
            if tables.contains("book_events") { out.append(("book_events", "time * 1000", "NULL")) }
            return out
        }
    }

    /// The recorded L2 events of `symbol`, ordered by time (file order within a millisecond),
    /// starting with a snapshot.
    /// - Throws: `InputError` of kind `.missingBook` when no book is stored for `symbol`.
    public func bookEvents(symbol: String) throws -> [BookEvent] {
        let events = try storedBookEvents(symbol: symbol)
        guard !events.isEmpty else { throw try missingBook(symbol: symbol) }
        return events
    }

    /// The error for a symbol without a stored book, suggesting a stored one close to it.
    func missingBook(symbol: String) throws -> InputError {
        let known = try bookList().map(\.symbol)
        let hint = Suggest.closest(to: symbol, among: known).map { " (did you mean \($0)?)" } ?? ""
        return InputError(.missingBook, "no recorded book stored for symbol '\(symbol)'\(hint)", value: symbol)
    }

    /// The stored events of `symbol`, empty when none.
    func storedBookEvents(symbol: String) throws -> [BookEvent] {
        for table in try bookTables {
            let events = try storedBookEvents(symbol: symbol, table: table)
            if !events.isEmpty { return events }
        }
        return []
    }

    private func storedBookEvents(symbol: String, table: BookTable) throws -> [BookEvent] {
        let stmt = try db.prepare(
            "SELECT \(table.timeMs), kind, bids, asks, \(table.localNs) FROM \(table.name) WHERE symbol = ?1 ORDER BY seq")
        stmt.bind(1, symbol)
        var out: [BookEvent] = []
        var buffer: [Double] = []
        while try stmt.step() { out.append(Self.bookEvent(stmt, buffer: &buffer)) }
        return out
    }

    /// The event of the row `stmt` stands on, selected as `time_ms, kind, bids, asks, local_ns`;
    /// `buffer` is scratch space kept across rows.
    static func bookEvent(_ stmt: SQLiteStatement, buffer: inout [Double]) -> BookEvent {
        func levels(_ column: Int32) -> [BookLevel] {
            buffer.removeAll(keepingCapacity: true)
            stmt.appendBlob(column, to: &buffer)
            return stride(from: 0, to: buffer.count - 1, by: 2).map { BookLevel(price: buffer[$0], quantity: buffer[$0 + 1]) }
        }
        let kind = BookEvent.Kind(rawValue: stmt.string(1)) ?? .update
        return BookEvent(timeMs: stmt.int64(0), kind: kind, bids: levels(2), asks: levels(3),
                         localNs: stmt.isNull(4) ? nil : stmt.int64(4))
    }

    /// One stored book, as `bt data list` shows it.
    public struct BookInfo: Equatable, Sendable {
        public var symbol: String
        /// First and last event, UTC milliseconds.
        public var firstMs: Int64
        public var lastMs: Int64
        public var events: Int
    }

    /// Every stored book, ordered by symbol.
    public func bookList() throws -> [BookInfo] {
        var out: [BookInfo] = []
        for table in try bookTables {
            let stmt = try db.prepare(
                "SELECT symbol, MIN(\(table.timeMs)), MAX(\(table.timeMs)), COUNT(*) FROM \(table.name) GROUP BY symbol ORDER BY symbol")
            while try stmt.step() {
                guard !out.contains(where: { $0.symbol == stmt.string(0) }) else { continue }
                out.append(BookInfo(symbol: stmt.string(0), firstMs: stmt.int64(1), lastMs: stmt.int64(2),
                                    events: Int(stmt.int64(3))))
            }
        }
        return out.sorted { $0.symbol < $1.symbol }
    }

    /// Replaces the stored book of `symbol` with `events`. Call inside `transaction`.
    func replaceBook(symbol: String, events: [BookEvent]) throws {
        try deleteBook(symbol: symbol)
        try insertBookEvents(symbol: symbol, events: events, firstSeq: 0)
    }

    /// Inserts `events` as the rows `firstSeq`, `firstSeq + 1`, ... of `symbol`'s book.
    func insertBookEvents(symbol: String, events: [BookEvent], firstSeq: Int64) throws {
        let insert = try db.prepare(
            "INSERT INTO books(symbol, seq, time_ms, kind, bids, asks, local_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        var packed: [Double] = []
        for (k, e) in events.enumerated() {
            insert.reset()
            insert.bind(1, symbol)
            insert.bind(2, firstSeq + Int64(k))
            insert.bind(3, e.timeMs)
            insert.bind(4, e.kind.rawValue)
            for (index, side) in [(Int32(5), e.bids), (Int32(6), e.asks)] {
                packed.removeAll(keepingCapacity: true)
                for level in side { packed.append(level.price); packed.append(level.quantity) }
                insert.bind(index, blob: packed)
            }
            if let local = e.localNs { insert.bind(7, local) } else { insert.bindNull(7) }
            try insert.step()
        }
    }

    /// Deletes the stored book of `symbol` (no-op when absent).
    func deleteBook(symbol: String) throws {
        let stmt = try db.prepare("DELETE FROM books WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }
}
