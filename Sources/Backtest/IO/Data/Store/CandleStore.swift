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
///
/// Opening never changes a file that is not a bt store (see `StoreSchema`): a file without bt's
/// id is judged on its own pages, opened immutable, so nothing beside it is read or made. A log
/// beside a store that is another database's is refused before SQLite opens either
/// (`StoreLog`). Readers of a bt store (or one of before versions)
/// that can be written open it read-write with `PRAGMA query_only`, so that their close removes
/// the `-wal` and `-shm` files SQLite makes (the last connection's close does; a read-only one
/// cannot); any other file, or one that cannot be written, is opened read-only (and immutable
/// when its directory cannot be written, so a store on read-only media stays readable); only
/// writers switch a store to WAL or stamp an older schema, and only inside their write
/// transaction. A file shorter than its pages is refused on open, and every series is checked
/// as it is loaded (the chunks' shapes and the importer's check of every bar): a damaged chunk
/// is a `StoreError` naming the series, never read past.
public final class CandleStore {
    let db: SQLiteDatabase
    public var path: String { db.path }
    /// True when opened for reading only.
    public var isReadOnly: Bool { readOnly }
    private let readOnly: Bool
    /// The tables present when the store was opened (a version-0 store may lack some).
    private(set) var tables: Set<String>

    /// Bars per stored chunk.
    static let chunkSize = 65_536

    /// Opens the store at `path` for reading and writing, creating it (and its directory) when
    /// missing. Creation is not atomic: commands use `updating(at:_:)`, which never leaves a
    /// half-made store or an unused directory behind.
    /// - Throws: `InputError` (setting `.store`) when `path` is not a file path or not a bt store.
    public convenience init(path: String) throws {
        try StorePath.check(path)
        if FileManager.default.fileExists(atPath: path) {
            try self.init(existing: path, writable: true)
        } else {
            _ = try StorePath.createDirectories(StorePath.directory(of: path))
            try self.init(creating: path)
        }
    }

    /// The store at `path` opened read-only (`init(existingAt:)`), or nil when there is no file
    /// yet: what a fetch resumes from before it writes.
    public static func ifPresent(at path: String) throws -> CandleStore? {
        FileManager.default.fileExists(atPath: path) ? try CandleStore(existingAt: path) : nil
    }

    /// Opens the store at `path` for commands that only read: read-only, so the file is never
    /// changed (and no store is created). A missing file is an `InputError` of kind
    /// `.missingStore`; a file that is not a bt store is an `InputError` of setting `.store`.
    public convenience init(existingAt path: String) throws {
        try StorePath.check(path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.missingStore, "no candle store here", file: path)
        }
        try self.init(existing: path, writable: false)
    }

    /// Opens the existing store at `path` for reading and writing.
    public convenience init(writableAt path: String) throws {
        try StorePath.check(path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.missingStore, "no candle store here", file: path)
        }
        try self.init(existing: path, writable: true)
    }

    /// Runs `body` with the store at `path` opened for writing. A missing store is made in a
    /// hidden file beside `path` (`StagingArea`: one a killed run of this machine left is removed
    /// first) and moved into place only when `body` succeeds; when `body` throws, neither the file
    /// nor any directory made for it is left behind, and its errors name `path`. If another
    /// process creates the store meanwhile, `body` runs again on that one, so its writes are
    /// merged, not replaced.
    public static func updating<T>(at path: String, _ body: (CandleStore) throws -> T) throws -> T {
        try StorePath.check(path)
        if FileManager.default.fileExists(atPath: path) { return try body(CandleStore(writableAt: path)) }
        let directory = StorePath.directory(of: path)
        let created = try StorePath.createDirectories(directory)
        let target = (directory as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        if created.isEmpty { StagingArea.clean(beside: target, kind: "new", store: true) }
        let temp = StagingArea.name(for: target, kind: "new")
        var moved = false
        defer {
            StorePath.removeDatabase(temp)
            if !moved { StorePath.removeDirectories(created) }
        }
        let result: T
        let store: CandleStore
        do {
            store = try CandleStore(creating: temp)
            result = try body(store)
            try store.checkpoint()
        } catch var e as StoreError where e.path == temp {
            // Name the store asked for, not the hidden file it was being made in.
            e.path = path
            e.reason = "cannot create the store: " + e.reason
            throw e
        }
        store.db.close()
        if link(temp, path) == 0 {
            moved = true
            return result
        }
        let failure = errno
        if failure == EEXIST { return try body(CandleStore(writableAt: path)) }
        // No hard links on this file system: rename, unless the store appeared meanwhile.
        if !FileManager.default.fileExists(atPath: path), rename(temp, path) == 0 {
            moved = true
            return result
        }
        throw StoreError(.access, path: path, reason: "cannot move the new store into place: \(String(cString: strerror(failure)))")
    }

    /// Opens an existing file after checking it is a bt store this bt can read.
    ///
    /// The checks beside SQLite (the log's name, the files' sizes) look at the file a link
    /// leads to, as SQLite does: a store opened through a symbolic link keeps its log beside
    /// the file itself, and the link's own size is not the store's.
    private init(existing path: String, writable: Bool) throws {
        let file = StorePath.resolvingLinks(path)
        let header = try StoreSchema.header(of: path)
        if header == .unmarked {
            // No id: a store written before versions, or another program's database. Decided on
            // the file alone, opened immutable, so that nothing is read from a log beside it or
            // made beside it (a read-only opening of a file with a log makes its -shm).
            let main = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
            let tables = Set(try main.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
            guard try main.integer("PRAGMA user_version") == 0, try Self.isLegacyStore(main, tables: tables) else {
                let shown = tables.filter { !$0.hasPrefix("sqlite_") }.sorted()
                throw InputError("is an SQLite database but not a bt store (tables: "
                                     + (shown.isEmpty ? "none" : shown.prefix(8).joined(separator: ", ")) + "); bt leaves it as it is",
                                 setting: .store, value: path)
            }
            main.close()
        }
        // A log of another database beside the store is refused before SQLite would merge it.
        try StoreLog.check(store: file)
        // Without a log, the file is all there is: look at it without leaving anything beside it.
        let unlogged = !FileManager.default.fileExists(atPath: file + "-wal")
        let probe = unlogged ? try SQLiteDatabase(path: path, mode: .readOnly(immutable: true)) : try Self.openReadOnly(path)
        let version = try probe.integer("PRAGMA user_version")
        let tables = Set(try probe.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
        if header == .unmarked, try version != 0 || !Self.isLegacyStore(probe, tables: tables) {
            throw InputError("is an SQLite database but not a bt store (its write-ahead log changes its tables); "
                                 + "bt leaves it as it is", setting: .store, value: path)
        }
        if version > StoreSchema.version {
            throw InputError("was written by a newer bt (store schema \(version); this bt reads up to \(StoreSchema.version))",
                             setting: .store, value: path)
        }
        try Self.checkLength(probe, path: path, file: file)
        self.tables = tables
        readOnly = !writable
        if writable {
            probe.close()
            db = try SQLiteDatabase(path: path, mode: .readWrite)
            if try db.strings("PRAGMA journal_mode").first?.lowercased() != "wal" {
                try db.execute("PRAGMA journal_mode=WAL")
            }
            try db.execute("PRAGMA synchronous=NORMAL")
        } else if let reader = Self.openQueryOnly(path) {
            // A bt store, or one of before versions: read so that its close removes -wal and -shm.
            probe.close()
            db = reader
        } else if unlogged {
            probe.close()
            db = try Self.openReadOnly(path)
        } else {
            db = probe
        }
        try db.execute("PRAGMA mmap_size=\(Self.mappedBytes)")
    }

    /// Creates a new store at `path`: id, version and tables in one transaction in the file
    /// itself (rollback journal), then WAL for everything after.
    private init(creating path: String) throws {
        db = try SQLiteDatabase(path: path, mode: .create)
        tables = []
        readOnly = false
        // Big pages: chunk blobs span fewer overflow pages (applies only to a new, empty file).
        try db.execute("PRAGMA page_size=65536")
        try db.transaction {
            try db.execute("PRAGMA application_id=\(StoreSchema.applicationID); PRAGMA user_version=\(StoreSchema.version)")
            try createTables()
        }
        tables = Set(try db.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        try db.execute("PRAGMA mmap_size=\(Self.mappedBytes)")
    }

    /// Every table of the current schema and the store's identity (idempotent).
    func createTables() throws {
        try db.execute(StoreSchema.tables)
        try db.execute(StoreLog.identityView())
        try createBookTable()
        try createTradeTable()
        try createFundingTable()
        try createInstrumentTable()
        try createDepthProfileTable()
        try createSessionTable()
        try createAdjustedTable()
        try createLiveTables()
    }

    /// Whether `table` has `column` (false when there is no such table).
    func hasColumn(table: String, column: String) throws -> Bool {
        let stmt = try db.prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")
        stmt.bind(1, table)
        stmt.bind(2, column)
        return try stmt.step()
    }

    /// Adds a nullable `column` to an existing `table` that lacks it: a change older stores take
    /// without a new schema version, since a bt without the column names the columns it writes
    /// (its rows read NULL there) and never reads it. Call inside a write transaction, so a
    /// failed write leaves the store without it.
    func addColumnIfMissing(table: String, column: String, type: String) throws {
        guard try !hasColumn(table: table, column: column) else { return }
        try db.execute("ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
    }

    /// Brings an older store up to `StoreSchema.version`; call inside a write transaction.
    private func migrate() throws {
        // Tables added to the schema since the store was made (a no-op when all exist), and an
        // older store's book table converted (`createBookTable`).
        try createTables()
        tables = Set(try db.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
        let version = try db.integer("PRAGMA user_version")
        guard version < StoreSchema.version else { return }
        // Version 0 -> 1: the same tables, stamped with the id and version.
        try db.execute("PRAGMA application_id=\(StoreSchema.applicationID); PRAGMA user_version=\(StoreSchema.version)")
    }

    /// A connection for reading a bt store that leaves no `-wal` and `-shm` files behind: a
    /// read-only connection cannot remove the ones it makes, the last read-write one does when it
    /// closes. Only when the file and its directory can be written and no log is there (so its
    /// close has nothing of its own to write back), with `query_only` set so it can change nothing;
    /// nil otherwise (read-only media, a log left by a writer), and the store is read read-only.
    private static func openQueryOnly(_ path: String) -> SQLiteDatabase? {
        let file = StorePath.resolvingLinks(path)
        let wal = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? NSNumber)?.intValue
        guard wal == nil || wal == 0, access(file, W_OK) == 0, access(StorePath.directory(of: file), W_OK) == 0,
              let db = try? SQLiteDatabase(path: path, mode: .readWrite) else { return nil }
        guard (try? db.execute("PRAGMA query_only=1")) != nil, (try? db.integer("SELECT count(*) FROM sqlite_master")) != nil else {
            db.close()
            return nil
        }
        return db
    }

    /// A read-only connection that has read the schema: plain read-only first; when that cannot
    /// work (a WAL store whose directory cannot take the shared-memory file), immutable.
    static func openReadOnly(_ path: String) throws -> SQLiteDatabase {
        do {
            let db = try SQLiteDatabase(path: path, mode: .readOnly(immutable: false))
            _ = try db.integer("SELECT count(*) FROM sqlite_master")
            return db
        } catch let e as StoreError where e.kind == .access {
            // Immutable ignores the write-ahead log: refuse rather than read a stale store.
            let log = StorePath.resolvingLinks(path) + "-wal"
            let wal = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? nil
            if let wal, wal > 0 {
                throw StoreError(.access, path: path, reason: "cannot be read here: its write-ahead log (\(log), \(wal) bytes) "
                                 + "holds writes that a read-only opening cannot see; let the writer finish, or open the store "
                                 + "once where it can be written")
            }
            let db = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
            _ = try db.integer("SELECT count(*) FROM sqlite_master")
            return db
        }
    }

    /// Refuses a file shorter than the pages it holds: SQLite reads past the end of a file cut
    /// short (an interrupted copy) as zeros, and its integrity check passes. Without a
    /// write-ahead log the pages are SQLite's page count; with one (which may hold pages past the
    /// file's end until they are written back), the count in the file's own header. `file` is
    /// `path` with its links resolved (`StorePath.resolvingLinks`).
    private static func checkLength(_ db: SQLiteDatabase, path: String, file: String) throws {
        func size(_ file: String) -> Int64? {
            (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
        }
        guard let bytes = size(file) else { return }
        let logged = (size(file + "-wal") ?? 0) > 32
        let pageSize = try db.integer("PRAGMA page_size")
        guard let pages = logged ? StoreSchema.headerPages(of: path) : try db.integer("PRAGMA page_count"),
              pageSize > 0, pages > 0, pages <= Int64.max / pageSize else { return }
        if bytes < pages * pageSize {
            throw StoreError(.damaged, path: path, reason: "the file is \(bytes) bytes but holds \(pages) pages of \(pageSize) bytes "
                             + "(\(pages * pageSize) bytes): it was cut short, as by an interrupted copy; copy it again from its source")
        }
    }

    /// True when `tables` are exactly version-0 bt tables with their columns.
    private static func isLegacyStore(_ db: SQLiteDatabase, tables: Set<String>) throws -> Bool {
        let own = tables.filter { !$0.hasPrefix("sqlite_") }
        guard own.contains("series"), own.contains("chunks"), own.isSubset(of: Set(StoreSchema.legacyColumns.keys)) else {
            return false
        }
        for table in own {
            let columns = try db.strings("SELECT name FROM pragma_table_info('\(table)')")
            if columns != StoreSchema.legacyColumns[table] { return false }
        }
        return true
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
    /// - Throws: `StoreError` (`.damaged`) when a row is impossible: an unknown timeframe, no
    ///   bars, or a first bar after the last.
    public func list() throws -> [SeriesInfo] {
        let out = try rawList()
        for info in out {
            let name = "\(info.symbol) \(info.timeframe)"
            guard Timeframe(rawValue: info.timeframe) != nil else {
                throw StoreError(.damaged, path: path, series: name, reason: "unknown timeframe")
            }
            guard info.bars >= 1, info.bars <= Self.maximumBars, info.first <= info.last else {
                throw StoreError(.damaged, path: path, series: name,
                                 reason: "its index says \(info.bars) bars from \(info.first) to \(info.last)")
            }
        }
        return out
    }

    /// The `series` rows as stored, unchecked (removing a damaged series needs them).
    func rawList() throws -> [SeriesInfo] {
        let stmt = try db.prepare("SELECT symbol, timeframe, first, last, bars FROM series ORDER BY symbol")
        var out: [SeriesInfo] = []
        while try stmt.step() {
            out.append(SeriesInfo(
                symbol: stmt.string(0), timeframe: stmt.string(1),
                first: stmt.int64(2), last: stmt.int64(3), bars: Int(clamping: stmt.int64(4))))
        }
        return out.sorted {
            $0.symbol != $1.symbol ? $0.symbol < $1.symbol : Self.order($0.timeframe) < Self.order($1.timeframe)
        }
    }

    static func order(_ key: String) -> Int64 { Timeframe(rawValue: key)?.seconds ?? .max }

    /// More bars than any series can hold (about 55 GB of columns): a count above it is damage.
    package static let maximumBars = 1 << 30

    /// Loads the whole stored series `symbol`/`timeframeKey` exactly as stored; empty when it is
    /// not stored.
    ///
    /// Every chunk is checked before its bytes are used: each column a blob of 8 bytes per bar,
    /// the same number of bars in all six, at most `chunkSize`; the chunk's key equal to its
    /// first time; times strictly increasing across the series; every value finite; the total
    /// and the first and last times equal to the series' index row.
    /// - Throws: `StoreError` (`.damaged`) naming the series at the first problem.
    /// - Complexity: O(n) memory copies, one row per chunk.
    public func loadStored(symbol: String, timeframeKey: String) throws -> CandleSeries {
        let series = try readStored(symbol: symbol, timeframeKey: timeframeKey)
        if series.count >= Self.remapAfterBars { try releaseMappedPages() }
        return series
    }

    /// A series at least this long (48 bytes a bar, 48 MB) gives back the file pages its load
    /// mapped (`releaseMappedPages`).
    static let remapAfterBars = 1_000_000

    /// Unmaps the store's file and maps it afresh: the pages a load read through the mapping
    /// (`mmap_size`) stop counting in this process's memory (the kernel keeps them cached), so
    /// a long series is not held twice, as mapped file pages and as the arrays copied from them.
    /// 10,000,000 one-minute bars are a 482 MB file. SQLite remaps when the limit changes and no
    /// page is in use (no statement is stepping).
    private func releaseMappedPages() throws {
        try db.execute("PRAGMA mmap_size=0")
        try db.execute("PRAGMA mmap_size=\(Self.mappedBytes)")
    }

    /// The most of the file mapped (SQLite's `mmap_size`): whole-series loads read large blobs,
    /// so the file is mapped instead of copied through read().
    static let mappedBytes = 1 << 30

    private func readStored(symbol: String, timeframeKey: String) throws -> CandleSeries {
        let name = "\(symbol) \(timeframeKey)"
        func damaged(_ reason: String) -> StoreError { StoreError(.damaged, path: path, series: name, reason: reason) }
        let meta = try db.prepare("SELECT first, last, bars FROM series WHERE symbol = ?1 AND timeframe = ?2")
        meta.bind(1, symbol)
        meta.bind(2, timeframeKey)
        let index: (first: Int64, last: Int64, bars: Int64)? = try meta.step() ? (meta.int64(0), meta.int64(1), meta.int64(2)) : nil
        // Sizes first, so nothing is allocated or copied on the word of a damaged row.
        let sizes = try db.prepare("""
            SELECT start, length(time), length(open), length(high), length(low), length(close), length(volume),
                   typeof(time) = 'blob' AND typeof(open) = 'blob' AND typeof(high) = 'blob' AND typeof(low) = 'blob'
                   AND typeof(close) = 'blob' AND typeof(volume) = 'blob'
            FROM chunks WHERE symbol = ?1 AND timeframe = ?2 ORDER BY start
            """)
        sizes.bind(1, symbol)
        sizes.bind(2, timeframeKey)
        var total = 0
        var chunks: [(start: Int64, count: Int)] = []
        let columns = ["time", "open", "high", "low", "close", "volume"]
        while try sizes.step() {
            let start = sizes.int64(0)
            let at = "chunk \(start)"
            guard sizes.int64(7) == 1 else { throw damaged("\(at) has a column that is not a blob") }
            let bytes = (1...6).map { sizes.int64(Int32($0)) }
            for (k, b) in bytes.enumerated() where b % 8 != 0 {
                throw damaged("\(at): its \(columns[k]) column holds \(b) bytes, not a whole number of 8-byte values")
            }
            let counts = bytes.map { Int($0 / 8) }
            if let k = counts.firstIndex(where: { $0 != counts[0] }) {
                throw damaged("\(at) holds \(counts[0]) times but \(counts[k]) \(columns[k]) values")
            }
            guard counts[0] >= 1, counts[0] <= Self.chunkSize else { throw damaged("\(at) holds \(counts[0]) bars") }
            total += counts[0]
            chunks.append((start, counts[0]))
        }
        guard let index else {
            if chunks.isEmpty { return CandleSeries(symbol: symbol, timeframe: Timeframe(rawValue: timeframeKey)) }
            throw damaged("chunks are stored but the series has no index row")
        }
        guard index.bars == Int64(total) else {
            throw damaged("its index says \(index.bars) bars but its chunks hold \(total)")
        }
        let stmt = try db.prepare("""
            SELECT time, open, high, low, close, volume FROM chunks
            WHERE symbol = ?1 AND timeframe = ?2 ORDER BY start
            """)
        stmt.bind(1, symbol)
        stmt.bind(2, timeframeKey)
        var s = CandleSeries(symbol: symbol, timeframe: Timeframe(rawValue: timeframeKey))
        s.reserveCapacity(total)
        var k = 0
        while try stmt.step() {
            guard k < chunks.count, stmt.byteCount(0) == chunks[k].count * 8,
                  (1...5).allSatisfy({ stmt.byteCount(Int32($0)) == chunks[k].count * 8 }) else {
                throw damaged("the chunks changed while being read")
            }
            let first = s.count
            stmt.appendBlob(0, to: &s.time)
            stmt.appendBlob(1, to: &s.open)
            stmt.appendBlob(2, to: &s.high)
            stmt.appendBlob(3, to: &s.low)
            stmt.appendBlob(4, to: &s.close)
            stmt.appendBlob(5, to: &s.volume)
            guard s.time[first] == chunks[k].start else {
                throw damaged("chunk \(chunks[k].start) starts at time \(s.time[first])")
            }
            k += 1
        }
        guard k == chunks.count, s.count == total else { throw damaged("the chunks changed while being read") }
        try Self.checkContent(s, index: (index.first, index.last), damaged: damaged)
        return s
    }

    /// Times strictly increasing and equal to the index at both ends, and every bar one the
    /// importer would store (`ParsedCandles.accepts`, the branch-free twin of its `problem`).
    /// - Complexity: one branch-free pass over the columns that only says whether a bar fails;
    ///   the slower passes that name the first failure run only then.
    private static func checkContent(_ s: CandleSeries, index: (first: Int64, last: Int64),
                                     damaged: (String) -> StoreError) throws {
        let n = s.count
        var bad: UInt8 = 0
        s.time.withUnsafeBufferPointer { t in
        s.open.withUnsafeBufferPointer { o in
        s.high.withUnsafeBufferPointer { h in
        s.low.withUnsafeBufferPointer { l in
        s.close.withUnsafeBufferPointer { c in
        s.volume.withUnsafeBufferPointer { v in
            for i in 0..<n {
                let ok = ParsedCandles.accepts(time: t[i], open: o[i], high: h[i], low: l[i], close: c[i], volume: v[i])
                    & (i == 0 || t[i] > t[i &- 1] ? 1 : 0)
                bad |= ok ^ 1
            }
        }}}}}}
        if bad != 0, let i = (1..<max(1, n)).first(where: { s.time[$0] <= s.time[$0 - 1] }) {
            throw damaged("bar \(i) at time \(s.time[i]) does not come after bar \(i - 1) at \(s.time[i - 1])")
        }
        guard s.time.first == index.first, s.time.last == index.last else {
            throw damaged("its index says \(index.first)...\(index.last) but its bars run "
                          + "\(s.time.first ?? 0)...\(s.time.last ?? 0)")
        }
        guard bad != 0 else { return }
        for (name, column) in [("open", s.open), ("high", s.high), ("low", s.low), ("close", s.close), ("volume", s.volume)] {
            let flat = { (i: Int) in s.open[i] == s.high[i] && s.high[i] == s.low[i] && s.low[i] == s.close[i] }
            if let bad = column.indices.first(where: { !column[$0].isFinite && !(name == "volume" && column[$0].isNaN && flat($0)) }) {
                throw damaged("bar \(bad) has a \(name) of \(column[bad])")
            }
        }
        // What the importer refuses never comes back: its own check names the bar (a page of
        // zeros or of other bytes reads as bars no import would have stored).
        for i in 0..<n {
            if let problem = ParsedCandles.problem(time: s.time[i], open: s.open[i], high: s.high[i], low: s.low[i],
                                                   close: s.close[i], volume: s.volume[i]) {
                // A consistent bar of finite prices outside the range is what a bt before the
                // range stored; other bars are damage.
                let (o, h, l, c) = (s.open[i], s.high[i], s.low[i], s.close[i])
                let earlier = [o, h, l, c].allSatisfy(\.isFinite) && h >= Swift.max(o, c) && l <= Swift.min(o, c)
                    && ParsedCandles.pricesOutOfRange(open: o, high: h, low: l, close: c) != nil
                throw damaged("bar \(i) (\(UTCTime.describe(s.time[i]))): \(problem)"
                              + (earlier ? " (a bt before the supported price range may have stored it)" : ""))
            }
        }
        throw damaged("a bar fails the store's check")
    }

    /// Replaces the stored series `symbol`/`timeframeKey` with `series` (sorted, unique times).
    /// Call inside `transaction` to combine with other writes.
    func replace(_ series: CandleSeries, timeframeKey: String) throws {
        try delete(symbol: series.symbol, timeframeKey: timeframeKey)
        guard !series.isEmpty else { return }
        try insertChunks(series, timeframeKey: timeframeKey)
        let meta = try db.prepare("INSERT INTO series(symbol, timeframe, first, last, bars) VALUES (?1, ?2, ?3, ?4, ?5)")
        meta.bind(1, series.symbol)
        meta.bind(2, timeframeKey)
        meta.bind(3, series.time[0])
        meta.bind(4, series.time[series.count - 1])
        meta.bind(5, Int64(series.count))
        try meta.step()
    }

    /// Inserts `series` as chunks of up to `chunkSize` bars, each keyed by its first time (no
    /// index row). Call inside `transaction`.
    func insertChunks(_ series: CandleSeries, timeframeKey: String) throws {
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

    /// Removes `symbol`: every stored timeframe, its recorded book, trade prints, funding rates,
    /// instrument settings and depth profile, or only the series at `timeframe`. Returns the
    /// removed series, as `rawList()` showed them, whether a book was removed, how many funding
    /// rates, and whether instrument settings were. Works on a damaged series too (its index row
    /// and chunks are deleted unread).
    /// - Throws: `InputError` when nothing matches.
    @discardableResult
    public func remove(symbol: String, timeframe: Timeframe? = nil) throws
        -> (series: [SeriesInfo], book: Bool, funding: Int, instrument: Bool) {
        try transaction {
            let stored = try rawList()
            let matching = stored.filter { $0.symbol == symbol && (timeframe == nil || $0.timeframe == timeframe!.rawValue) }
            let books = try bookList()
            let hasBook = timeframe == nil && books.contains { $0.symbol == symbol }
            let funding = timeframe == nil ? try fundingList().first { $0.symbol == symbol }?.count ?? 0 : 0
            let instrument = timeframe == nil ? try hasInstrumentRows(symbol: symbol) : false
            guard !matching.isEmpty || hasBook || funding > 0 || instrument else {
                let what = timeframe.map { "no \($0.rawValue) series" } ?? "nothing"
                let hint = Suggest.closest(to: symbol, among: stored.map(\.symbol)).map { " (did you mean \($0)?)" } ?? ""
                throw InputError("\(what) stored for symbol '\(symbol)'\(hint)")
            }
            for info in matching {
                try delete(symbol: symbol, timeframeKey: info.timeframe)
                try setSession(nil, symbol: symbol, timeframeKey: info.timeframe)
                try unmarkAdjusted(symbol: symbol, timeframeKey: info.timeframe)
            }
            if hasBook { try deleteBook(symbol: symbol) }
            if timeframe == nil {
                try deleteTrades(symbol: symbol)
                try deleteFunding(symbol: symbol)
                try deleteInstrument(symbol: symbol)
                try deleteDepthProfile(symbol: symbol)
            }
            return (matching, hasBook, funding, instrument)
        }
    }

    /// Moves the write-ahead log into the main file and truncates it, so the store is one
    /// self-contained file (for copying, hashing, or tests).
    public func checkpoint() throws {
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Runs `body` as one all-or-nothing write transaction. The write lock is taken first, so
    /// everything `body` reads is current and stays so until it commits; an older store is
    /// brought to the current schema inside the same transaction.
    /// - Throws: `StoreError` (`.access`) on a store opened read-only.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isReadOnly { throw StoreError(.access, path: path, reason: "opened read-only, cannot write") }
        return try db.transaction {
            try migrate()
            let result = try body()
            // Page 1 in every transaction of the log, where the store's identity is (`StoreLog`).
            try db.execute("PRAGMA user_version=\(StoreSchema.version)")
            return result
        }
    }
}
