import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the book table when missing: one row per recorded event, levels packed as
    /// native-order Doubles `[price0, qty0, price1, qty1, ...]`.
    func createBookTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS book_events(
              symbol TEXT NOT NULL, seq INTEGER NOT NULL, time INTEGER NOT NULL,
              kind TEXT NOT NULL, bids BLOB NOT NULL, asks BLOB NOT NULL,
              PRIMARY KEY(symbol, seq)) WITHOUT ROWID;
            """)
    }

    /// The recorded L2 events of `symbol`, ordered by time (file order within a second),
    /// starting with a snapshot.
    /// - Throws: `InputError` of kind `.missingBook` when no book is stored for `symbol`.
    public func bookEvents(symbol: String) throws -> [BookEvent] {
        let events = try storedBookEvents(symbol: symbol)
        guard !events.isEmpty else {
            let known = try bookList().map(\.symbol)
            let hint = Suggest.closest(to: symbol, among: known).map { " (did you mean \($0)?)" } ?? ""
            throw InputError(.missingBook, "no recorded book stored for symbol '\(symbol)'\(hint)", value: symbol)
        }
        return events
    }

    /// The stored events of `symbol`, empty when none.
    func storedBookEvents(symbol: String) throws -> [BookEvent] {
        guard tables.contains("book_events") else { return [] }
        let stmt = try db.prepare("SELECT time, kind, bids, asks FROM book_events WHERE symbol = ?1 ORDER BY seq")
        stmt.bind(1, symbol)
        var out: [BookEvent] = []
        var buffer: [Double] = []
        func levels(_ column: Int32) -> [BookLevel] {
            buffer.removeAll(keepingCapacity: true)
            stmt.appendBlob(column, to: &buffer)
            return stride(from: 0, to: buffer.count - 1, by: 2).map { BookLevel(price: buffer[$0], quantity: buffer[$0 + 1]) }
        }
        while try stmt.step() {
            let kind = BookEvent.Kind(rawValue: stmt.string(1)) ?? .update
            out.append(BookEvent(time: stmt.int64(0), kind: kind, bids: levels(2), asks: levels(3)))
        }
        return out
    }

    /// One stored book, as `bt data list` shows it.
    public struct BookInfo: Equatable, Sendable {
        public var symbol: String
        public var first: Int64
        public var last: Int64
        public var events: Int
    }

    /// Every stored book, ordered by symbol.
    public func bookList() throws -> [BookInfo] {
        guard tables.contains("book_events") else { return [] }
        let stmt = try db.prepare(
            "SELECT symbol, MIN(time), MAX(time), COUNT(*) FROM book_events GROUP BY symbol ORDER BY symbol")
        var out: [BookInfo] = []
        while try stmt.step() {
            out.append(BookInfo(symbol: stmt.string(0), first: stmt.int64(1), last: stmt.int64(2), events: Int(stmt.int64(3))))
        }
        return out
    }

    /// Replaces the stored book of `symbol` with `events`. Call inside `transaction`.
    func replaceBook(symbol: String, events: [BookEvent]) throws {
        try deleteBook(symbol: symbol)
        let insert = try db.prepare("INSERT INTO book_events(symbol, seq, time, kind, bids, asks) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        var packed: [Double] = []
        for (seq, e) in events.enumerated() {
            insert.reset()
            insert.bind(1, symbol)
            insert.bind(2, Int64(seq))
            insert.bind(3, e.time)
            insert.bind(4, e.kind.rawValue)
            for (index, side) in [(Int32(5), e.bids), (Int32(6), e.asks)] {
                packed.removeAll(keepingCapacity: true)
                for level in side { packed.append(level.price); packed.append(level.quantity) }
                insert.bind(index, blob: packed)
            }
            try insert.step()
        }
    }

    /// Deletes the stored book of `symbol` (no-op when absent).
    func deleteBook(symbol: String) throws {
        let stmt = try db.prepare("DELETE FROM book_events WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }
}
