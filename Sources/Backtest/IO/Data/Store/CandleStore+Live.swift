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

    /// Bars a live session keeps in the stored series' last chunk before it starts a new one:
    /// a close rewrites at most this many bars (48 KB), and a day of one-minute bars is two
    /// chunks (an import later merges them into chunks of `chunkSize`).
    static let liveChunkBars = 1_024

    /// Appends `bars` to the stored series `symbol` at their timeframe when they simply follow
    /// it (every bar later than the last stored one, in a bucket of its own): into the last
    /// chunk while it holds fewer than `liveChunkBars` bars, else as new chunks, and the
    /// series' index row, without reading the rest of the series. False, with nothing written,
    /// when the series is not stored or the bars do not follow it (the caller merges them).
    /// Call inside `transaction`.
    /// - Complexity: O(bars + liveChunkBars), whatever the length of the stored series.
    func appendBars(_ bars: CandleSeries) throws -> Bool {
        guard let tf = bars.timeframe, let firstNew = bars.time.first, let lastNew = bars.time.last else { return false }
        let key = tf.rawValue
        let meta = try db.prepare("SELECT last, bars FROM series WHERE symbol = ?1 AND timeframe = ?2")
        meta.bind(1, bars.symbol)
        meta.bind(2, key)
        guard try meta.step() else { return false }
        let (last, stored) = (meta.int64(0), meta.int64(1))
        guard firstNew > last, tf.bucketStart(firstNew) != tf.bucketStart(last), !Importer.hasSharedBuckets(bars.time, tf) else {
            return false
        }
        if let bad = bars.firstUnstorableBar {
            throw InputError("live bar \(UTCTime.describe(bars.time[bad.index])) of \(bars.symbol): \(bad.reason)")
        }
        let tail = try db.prepare("""
            SELECT start, time, open, high, low, close, volume FROM chunks
            WHERE symbol = ?1 AND timeframe = ?2 ORDER BY start DESC LIMIT 1
            """)
        tail.bind(1, bars.symbol)
        tail.bind(2, key)
        var chunk = CandleSeries(symbol: bars.symbol, timeframe: tf)
        var chunkStart: Int64?
        if try tail.step(), tail.byteCount(1) / 8 + bars.count <= Self.liveChunkBars {
            chunkStart = tail.int64(0)
            tail.appendBlob(1, to: &chunk.time); tail.appendBlob(2, to: &chunk.open); tail.appendBlob(3, to: &chunk.high)
            tail.appendBlob(4, to: &chunk.low); tail.appendBlob(5, to: &chunk.close); tail.appendBlob(6, to: &chunk.volume)
            guard chunk.time.first == chunkStart, [chunk.open, chunk.high, chunk.low, chunk.close, chunk.volume].allSatisfy({ $0.count == chunk.count }) else {
                throw StoreError(.damaged, path: path, series: "\(bars.symbol) \(key)", reason: "chunk \(chunkStart!) does not hold whole bars")
            }
        }
        for i in 0..<bars.count {
            chunk.append(time: bars.time[i], open: bars.open[i], high: bars.high[i], low: bars.low[i], close: bars.close[i], volume: bars.volume[i])
        }
        if let chunkStart {
            let delete = try db.prepare("DELETE FROM chunks WHERE symbol = ?1 AND timeframe = ?2 AND start = ?3")
            delete.bind(1, bars.symbol)
            delete.bind(2, key)
            delete.bind(3, chunkStart)
            try delete.step()
        }
        try insertChunks(chunk, timeframeKey: key)
        let index = try db.prepare("UPDATE series SET last = ?3, bars = ?4 WHERE symbol = ?1 AND timeframe = ?2")
        index.bind(1, bars.symbol)
        index.bind(2, key)
        index.bind(3, lastNew)
        index.bind(4, stored + Int64(bars.count))
        try index.step()
        return true
    }

    /// What one closed bar of a live session writes, all in one transaction: the bar (appended
    /// to the stored series, or merged into it when it does not simply follow), the prints and
    /// book events recorded up to it, the funding settlements seen since the last (a USD-M
    /// session's, kept as `bt data import --format funding` keeps rows, a stored time replaced),
    /// the bars of other symbols its rules read made final since the last (`others`, each its
    /// symbol's), and the journal. A kill at any moment leaves either all of it or none.
    public func recordLiveBar(symbol: String, bars: CandleSeries, prints: [TradePrint], events: [BookEvent],
                              funding: [FundingRate] = [], others: [CandleSeries] = [], journal: LiveJournal?) throws {
        try transaction {
            try insertFunding(symbol: symbol, rows: funding)
            for series in others + [bars] where !series.isEmpty {
                if try !appendBars(series) {
                    _ = try merge([ImportedFile(file: "live \(series.symbol)", format: nil, symbol: series.symbol, content: .candles(series))])
                }
            }
            try appendTrades(symbol: symbol, prints: prints)
            try appendBookEvents(symbol: symbol, events: events)
            if let journal { try saveLiveJournal(journal) }
        }
    }
}
