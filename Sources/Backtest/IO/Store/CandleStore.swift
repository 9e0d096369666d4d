import BacktestAnalysis
import BacktestCore
import Foundation

/// The embedded candle store: one SQLite file holding every series, keyed by symbol and timeframe.
///
/// Schema for fast whole-series loads: each series is stored as chunks of up to
/// `chunkSize` bars, each chunk holding one little blob per column (`time` as Int64, the
/// prices and volume as Double, native byte order). Loading 1,000,000 bars reads about 16 rows
/// and copies memory, instead of stepping a million rows. WAL mode keeps readers working
/// while an import writes.
public final class CandleStore {
    let db: SQLiteDatabase
    /// Tables of the current schema a read-only opening found missing (a store written by an
    /// older bt, which a writable opening would bring up to date); empty otherwise.
    private(set) var missingTables: Set<String> = []
    public var path: String { db.path }

    /// Bars per stored chunk.
    static let chunkSize = 65_536

    /// Opens or creates the store at `path` (and its directory), creating its tables when missing.
    public convenience init(path: String) throws {
        try self.init(path: path, create: true)
    }

    /// Opens the store at `path` for commands that only read: a missing file is an `InputError` of
    /// kind `.missingStore` and no empty database is left behind.
    public convenience init(existingAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.missingStore, "no candle store here", file: path)
        }
        try self.init(path: path, create: false)
    }

    /// Opens the store at `path` read-only: SQLite is asked for a read-only connection and
    /// nothing is written to the file (no schema, no journal mode), so many processes (a job
    /// array's tasks) can read one store. When a read-only connection cannot be had (a WAL store
    /// in a directory this process cannot write, which WAL's shared-memory file needs), the file
    /// is opened immutable: no locks, no shared memory, the log ignored.
    /// - Throws: `InputError` of kind `.missingStore` when there is no file.
    public convenience init(readOnlyAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.missingStore, "no candle store here", file: path)
        }
        try self.init(readOnly: path)
    }

    private init(readOnly path: String) throws {
        db = try Self.openReadOnly(path)
        try db.execute("PRAGMA mmap_size=1073741824")
        let stmt = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        var present: Set<String> = []
        while try stmt.step() { present.insert(stmt.string(0)) }
        missingTables = Set(["series", "chunks", "books", "trades", "depth_profiles"]).subtracting(present)
        if present.contains("book_events") { missingTables.insert("books") }
    }

    private static func openReadOnly(_ path: String) throws -> SQLiteDatabase {
        do {
            let db = try SQLiteDatabase(path: path, readOnly: true, create: false)
            try db.execute("SELECT count(*) FROM sqlite_master")
            return db
        } catch {
            // Immutable ignores the write-ahead log: refuse rather than read a stale store.
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? nil
            if let wal, wal > 0 {
                throw InputError("cannot be read here: its write-ahead log (\(path)-wal, \(wal) bytes) holds writes that a "
                                 + "read-only opening cannot see; let the writer finish, or open the store once where it "
                                 + "can be written", at: path)
            }
            let db = try SQLiteDatabase(path: path, readOnly: true, immutable: true, create: false)
            try db.execute("SELECT count(*) FROM sqlite_master")
            return db
        }
    }

    private init(path: String, create: Bool) throws {
        if create {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
                do {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                } catch {
                    throw InputError("cannot create the store's directory: \(error.localizedDescription)", at: directory)
                }
            }
        }
        db = try SQLiteDatabase(path: path, create: create)
        // Big pages: chunk blobs span fewer overflow pages (applies only to a new, empty file).
        try db.execute("PRAGMA page_size=65536")
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        // Whole-series loads read large blobs: map the file instead of copying it through read().
        try db.execute("PRAGMA mmap_size=1073741824")
        try db.execute("""
            CREATE TABLE IF NOT EXISTS series(
              symbol TEXT NOT NULL, timeframe TEXT NOT NULL,
              first INTEGER NOT NULL, last INTEGER NOT NULL, bars INTEGER NOT NULL,
              PRIMARY KEY(symbol, timeframe)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS chunks(
              symbol TEXT NOT NULL, timeframe TEXT NOT NULL, start INTEGER NOT NULL,
              time BLOB NOT NULL, open BLOB NOT NULL, high BLOB NOT NULL, low BLOB NOT NULL,
              close BLOB NOT NULL, volume BLOB NOT NULL,
              PRIMARY KEY(symbol, timeframe, start));
            """)
        try createBookTable()
        try createTradeTable()
        try createDepthProfileTable()
    }

    /// One stored series, as `bt data list` shows it.
    public struct SeriesInfo: Equatable, Sendable {
        public var symbol: String
        /// The stored timeframe key: a `Timeframe` raw value.
        public var timeframe: String
        public var first: Int64
        public var last: Int64
        public var bars: Int
    }

    /// Every stored series, ordered by symbol then timeframe (finest first).
    public func list() throws -> [SeriesInfo] {
        let stmt = try db.prepare("SELECT symbol, timeframe, first, last, bars FROM series ORDER BY symbol")
        var out: [SeriesInfo] = []
        while try stmt.step() {
            out.append(SeriesInfo(
                symbol: stmt.string(0), timeframe: stmt.string(1),
                first: stmt.int64(2), last: stmt.int64(3), bars: Int(stmt.int64(4))))
        }
        return out.sorted {
            $0.symbol != $1.symbol ? $0.symbol < $1.symbol : Self.order($0.timeframe) < Self.order($1.timeframe)
        }
    }

    static func order(_ key: String) -> Int64 { Timeframe(rawValue: key)?.seconds ?? .max }

    /// Loads the whole stored series `symbol`/`timeframeKey` exactly as stored.
    /// - Complexity: O(n) memory copies, one row per chunk.
    public func loadStored(symbol: String, timeframeKey: String) throws -> CandleSeries {
        let stmt = try db.prepare("""
            SELECT time, open, high, low, close, volume FROM chunks
            WHERE symbol = ?1 AND timeframe = ?2 ORDER BY start
            """)
        stmt.bind(1, symbol)
        stmt.bind(2, timeframeKey)
        var s = CandleSeries(symbol: symbol, timeframe: Timeframe(rawValue: timeframeKey))
        let meta = try db.prepare("SELECT bars FROM series WHERE symbol = ?1 AND timeframe = ?2")
        meta.bind(1, symbol)
        meta.bind(2, timeframeKey)
        if try meta.step() { s.reserveCapacity(Int(meta.int64(0))) }
        while try stmt.step() {
            stmt.appendBlob(0, to: &s.time)
            stmt.appendBlob(1, to: &s.open)
            stmt.appendBlob(2, to: &s.high)
            stmt.appendBlob(3, to: &s.low)
            stmt.appendBlob(4, to: &s.close)
            stmt.appendBlob(5, to: &s.volume)
        }
        precondition(
            [s.open.count, s.high.count, s.low.count, s.close.count, s.volume.count].allSatisfy { $0 == s.time.count },
            "corrupt chunk in store")
        return s
    }

    /// Replaces the stored series `symbol`/`timeframeKey` with `series` (sorted, unique times).
    /// Call inside `transaction` to combine with other writes.
    func replace(_ series: CandleSeries, timeframeKey: String) throws {
        try delete(symbol: series.symbol, timeframeKey: timeframeKey)
        guard !series.isEmpty else { return }
        let insert = try db.prepare("""
            INSERT INTO chunks(symbol, timeframe, start, time, open, high, low, close, volume)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        var start = 0
        while start < series.count {
            let end = min(start + Self.chunkSize, series.count)
            insert.reset()
            insert.bind(1, series.symbol)
            insert.bind(2, timeframeKey)
            insert.bind(3, series.time[start])
            insert.bind(4, blob: Array(series.time[start..<end]))
            insert.bind(5, blob: Array(series.open[start..<end]))
            insert.bind(6, blob: Array(series.high[start..<end]))
            insert.bind(7, blob: Array(series.low[start..<end]))
            insert.bind(8, blob: Array(series.close[start..<end]))
            insert.bind(9, blob: Array(series.volume[start..<end]))
            try insert.step()
            start = end
        }
        let meta = try db.prepare("INSERT INTO series(symbol, timeframe, first, last, bars) VALUES (?1, ?2, ?3, ?4, ?5)")
        meta.bind(1, series.symbol)
        meta.bind(2, timeframeKey)
        meta.bind(3, series.time[0])
        meta.bind(4, series.time[series.count - 1])
        meta.bind(5, Int64(series.count))
        try meta.step()
    }

    /// Deletes one stored series (no-op when absent).
    func delete(symbol: String, timeframeKey: String) throws {
        for table in ["chunks", "series"] {
            let stmt = try db.prepare("DELETE FROM \(table) WHERE symbol = ?1 AND timeframe = ?2")
            stmt.bind(1, symbol)
            stmt.bind(2, timeframeKey)
            try stmt.step()
        }
    }

    /// Removes `symbol`: every stored timeframe, its recorded book, trade prints and depth
    /// profile, or only the series at `timeframe`. Returns the removed series, as `list()` showed
    /// them, and whether a book was removed.
    /// - Throws: `InputError` when nothing matches.
    @discardableResult
    public func remove(symbol: String, timeframe: Timeframe? = nil) throws -> (series: [SeriesInfo], book: Bool) {
        let matching = try list().filter { $0.symbol == symbol && (timeframe == nil || $0.timeframe == timeframe!.rawValue) }
        let books = try bookList()
        let hasBook = timeframe == nil && books.contains { $0.symbol == symbol }
        guard !matching.isEmpty || hasBook else {
            let what = timeframe.map { "no \($0.rawValue) series" } ?? "nothing"
            let hint = Suggest.closest(to: symbol, among: try list().map(\.symbol)).map { " (did you mean \($0)?)" } ?? ""
            throw InputError("\(what) stored for symbol '\(symbol)'\(hint)")
        }
        try transaction {
            for info in matching { try delete(symbol: symbol, timeframeKey: info.timeframe) }
            if hasBook { try deleteBook(symbol: symbol) }
            if timeframe == nil {
                try deleteTrades(symbol: symbol)
                try deleteDepthProfile(symbol: symbol)
            }
        }
        return (matching, hasBook)
    }

    /// Moves the write-ahead log into the main file and truncates it, so the store is one
    /// self-contained file (for copying, hashing, or tests).
    public func checkpoint() throws {
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Runs `body` as one all-or-nothing write transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(body)
    }
}
