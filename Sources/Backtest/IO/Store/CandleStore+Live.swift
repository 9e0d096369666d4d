import BacktestAnalysis
import BacktestCore

/// A live paper session's journal, as stored: what `bt live --journal NAME` resumes from.
public struct LiveJournal: Equatable, Sendable {
    public var name: String
    public var symbol: String
    /// The bar interval's key (`1m`).
    public var interval: String
    /// The session's first traded bar, UTC seconds: the `--from` of its replay.
    public var startTime: Int64
    /// The options the session trades with, as typed (a resume must give the same).
    public var settings: String
    /// Fills reported so far, in order.
    public var fills: [JournalFill]
    /// Cash, position and equity after the last bar the session traded.
    public var cash: Double
    public var position: Double
    public var equity: Double

    public init(name: String, symbol: String, interval: String, startTime: Int64, settings: String, fills: [JournalFill] = [],
                cash: Double, position: Double, equity: Double) {
        self.name = name; self.symbol = symbol; self.interval = interval; self.startTime = startTime
        self.settings = settings; self.fills = fills; self.cash = cash; self.position = position; self.equity = equity
    }
}

/// One fill of a journal: the figures a replay must give again, to the last digit.
public struct JournalFill: Equatable, Sendable {
    /// The fill bar's open, UTC seconds.
    public var time: Int64
    public var side: OrderSide
    public var quantity: Double
    public var vwap: Double
    public var fee: Double

    public init(time: Int64, side: OrderSide, quantity: Double, vwap: Double, fee: Double) {
        self.time = time; self.side = side; self.quantity = quantity; self.vwap = vwap; self.fee = fee
    }

    public init(_ fill: Fill) {
        self.init(time: fill.time, side: fill.side, quantity: fill.quantityFilled, vwap: fill.vwap, fee: fill.fee)
    }
}

extension CandleStore {
    /// Creates the journal tables of live sessions when missing: one row per session, one per
    /// fill it reported (in order, `seq` from 0).
    func createLiveTables() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS live_journals(
              name TEXT NOT NULL PRIMARY KEY, symbol TEXT NOT NULL, interval TEXT NOT NULL,
              start_time INTEGER NOT NULL, settings TEXT NOT NULL,
              cash REAL NOT NULL, position REAL NOT NULL, equity REAL NOT NULL) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS live_fills(
              journal TEXT NOT NULL, seq INTEGER NOT NULL, time INTEGER NOT NULL, side TEXT NOT NULL,
              quantity REAL NOT NULL, vwap REAL NOT NULL, fee REAL NOT NULL,
              PRIMARY KEY(journal, seq)) WITHOUT ROWID;
            """)
    }

    /// The journal named `name`, nil when there is none.
    public func liveJournal(_ name: String) throws -> LiveJournal? {
        guard tables.contains("live_journals") else { return nil }
        let row = try db.prepare(
            "SELECT symbol, interval, start_time, settings, cash, position, equity FROM live_journals WHERE name = ?1")
        row.bind(1, name)
        guard try row.step() else { return nil }
        var journal = LiveJournal(name: name, symbol: row.string(0), interval: row.string(1), startTime: row.int64(2),
                                  settings: row.string(3), cash: row.double(4), position: row.double(5), equity: row.double(6))
        let fills = try db.prepare("SELECT time, side, quantity, vwap, fee FROM live_fills WHERE journal = ?1 ORDER BY seq")
        fills.bind(1, name)
        while try fills.step() {
            guard let side = OrderSide(rawValue: fills.string(1)) else {
                throw StoreError(.damaged, path: path, series: "journal \(name)", reason: "a fill's side is '\(fills.string(1))'")
            }
            journal.fills.append(JournalFill(time: fills.int64(0), side: side, quantity: fills.double(2), vwap: fills.double(3),
                                             fee: fills.double(4)))
        }
        return journal
    }

    /// Writes `journal`'s row and the fills it holds beyond those stored. Call inside `transaction`.
    func saveLiveJournal(_ journal: LiveJournal) throws {
        let row = try db.prepare("""
            INSERT OR REPLACE INTO live_journals(name, symbol, interval, start_time, settings, cash, position, equity)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        row.bind(1, journal.name); row.bind(2, journal.symbol); row.bind(3, journal.interval); row.bind(4, journal.startTime)
        row.bind(5, journal.settings); row.bind(6, journal.cash); row.bind(7, journal.position); row.bind(8, journal.equity)
        try row.step()
        let count = try db.prepare("SELECT COUNT(*) FROM live_fills WHERE journal = ?1")
        count.bind(1, journal.name)
        _ = try count.step()
        let stored = Int(count.int64(0))
        let insert = try db.prepare(
            "INSERT INTO live_fills(journal, seq, time, side, quantity, vwap, fee) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        for (seq, fill) in journal.fills.enumerated().dropFirst(stored) {
            insert.reset()
            insert.bind(1, journal.name); insert.bind(2, Int64(seq)); insert.bind(3, fill.time); insert.bind(4, fill.side.rawValue)
            insert.bind(5, fill.quantity); insert.bind(6, fill.vwap); insert.bind(7, fill.fee)
            try insert.step()
        }
    }

    /// Appends `events` (later than every stored event of `symbol`) to its stored book. Call
    /// inside `transaction`.
    func appendBookEvents(symbol: String, events: [BookEvent]) throws {
        guard !events.isEmpty else { return }
        let next = try db.prepare("SELECT COALESCE(MAX(seq) + 1, 0) FROM books WHERE symbol = ?1")
        next.bind(1, symbol)
        _ = try next.step()
        try insertBookEvents(symbol: symbol, events: events, firstSeq: next.int64(0))
    }

    /// Appends `prints` (in time order, none before the stored ones) to the stored prints of
    /// `symbol` as new chunks. Call inside `transaction`.
    func appendTrades(symbol: String, prints: [TradePrint]) throws {
        guard !prints.isEmpty else { return }
        let count = try db.prepare("SELECT COALESCE(SUM(count), 0) FROM trades WHERE symbol = ?1")
        count.bind(1, symbol)
        _ = try count.step()
        try insertTradeChunks(symbol: symbol, prints: prints, firstIndex: Int(count.int64(0)))
    }

    /// What one closed bar of a live session writes, all in one transaction: the bar (merged
    /// into the stored series), the prints and book events recorded up to it, and the journal.
    /// A kill at any moment leaves either all of it or none.
    public func recordLiveBar(symbol: String, bars: CandleSeries, prints: [TradePrint], events: [BookEvent],
                              journal: LiveJournal?) throws {
        try transaction {
            if !bars.isEmpty {
                _ = try merge([ImportedFile(file: "live \(symbol)", format: nil, symbol: symbol, content: .candles(bars))])
            }
            try appendTrades(symbol: symbol, prints: prints)
            try appendBookEvents(symbol: symbol, events: events)
            if let journal { try saveLiveJournal(journal) }
        }
    }
}
