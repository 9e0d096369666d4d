import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Trade prints per stored chunk.
    static let tradeChunkSize = 65_536

    /// Creates the trade table when missing: the prints of `trades` imports, per symbol in
    /// chunks of up to `tradeChunkSize`, one native-order blob per column (time in UTC ms as
    /// Int64; price, quantity and the taker's side as Doubles, side 0 unknown, 1 buy, 2 sell;
    /// `local_ns`, the recorder's receive times in UTC ns as Int64, `Int64.min` for a print
    /// without one, NULL for a chunk without any: imported prints).
    ///
    /// `local_ns` was added after the table: an older store gains it (NULL in every chunk it
    /// holds) in its first write transaction (`addColumnIfMissing`), and readers of a store
    /// without it read NULL. A bt without the column writes its columns by name, so its chunks
    /// read as prints without local times.
    func createTradeTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS trades(
              symbol TEXT NOT NULL, start_ms INTEGER NOT NULL, count INTEGER NOT NULL,
              time_ms BLOB NOT NULL, price BLOB NOT NULL, qty BLOB NOT NULL, side BLOB NOT NULL, local_ns BLOB,
              PRIMARY KEY(symbol, start_ms));
            """)
        try addColumnIfMissing(table: "trades", column: "local_ns", type: "BLOB")
    }

    /// The columns of stored prints as read, chunk after chunk (`appendTradeChunk`); `local`
    /// holds `Int64.min` for a print without a receive time.
    struct TradeColumns {
        var time: [Int64] = [], price: [Double] = [], qty: [Double] = [], side: [Double] = [], local: [Int64] = []

        var count: Int { time.count }

        mutating func removeAll() {
            time.removeAll(keepingCapacity: true); price.removeAll(keepingCapacity: true); qty.removeAll(keepingCapacity: true)
            side.removeAll(keepingCapacity: true); local.removeAll(keepingCapacity: true)
        }

        /// The print at `i` (side 1: buy, 2: sell, else unknown).
        func print(at i: Int) -> TradePrint {
            TradePrint(timeMs: time[i], price: price[i], quantity: qty[i], side: side[i] == 1 ? .buy : side[i] == 2 ? .sell : nil,
                       localNs: local[i] == .min ? nil : local[i])
        }
    }

    /// The stored trade prints of `symbol` in time order, empty when none.
    /// - Throws: `StoreError` (`.damaged`) when a chunk's columns are not blobs of 8 bytes per
    ///   print with the count its row says, or its prints are out of order; nothing is read past it.
    public func trades(symbol: String) throws -> [TradePrint] {
        guard tables.contains("trades") else { return [] }
        let stmt = try tradeChunks(symbol: symbol)
        var columns = TradeColumns()
        while try stmt.step() {
            try appendTradeChunk(stmt, symbol: symbol, to: &columns, printsBefore: columns.count, lastTimeBefore: columns.time.last)
        }
        return (0..<columns.count).map(columns.print(at:))
    }

    /// The statement reading the stored chunks of `symbol` in order, for `appendTradeChunk`
    /// (`local_ns` read as NULL from a store written before it).
    func tradeChunks(symbol: String) throws -> SQLiteStatement {
        let local = try hasColumn(table: "trades", column: "local_ns") ? "local_ns" : "NULL"
        let stmt = try db.prepare("""
            SELECT time_ms, price, qty, side, count, start_ms,
                   typeof(time_ms) = 'blob' AND typeof(price) = 'blob' AND typeof(qty) = 'blob' AND typeof(side) = 'blob',
                   \(local)
            FROM trades WHERE symbol = ?1 ORDER BY start_ms
            """)
        stmt.bind(1, symbol)
        return stmt
    }

    /// Appends the prints of the chunk `stmt` stands on to `columns`; `printsBefore` chunks'
    /// prints came before it, the last at `lastTimeBefore`.
    /// - Throws: `StoreError` (`.damaged`) when the chunk's columns are not blobs of 8 bytes per
    ///   print with the count its row says (its receive times: NULL or such a blob), or its
    ///   prints are out of order.
    func appendTradeChunk(_ stmt: SQLiteStatement, symbol: String, to columns: inout TradeColumns, printsBefore: Int,
                          lastTimeBefore: Int64?) throws {
        let count = stmt.int64(4), start = stmt.int64(5)
        func damaged(_ reason: String) -> StoreError {
            StoreError(.damaged, path: path, series: "\(symbol) trades", reason: "chunk \(start): " + reason)
        }
        guard stmt.int64(6) == 1 else { throw damaged("a column is not a blob") }
        guard count >= 1, count <= Int64(Self.tradeChunkSize),
              (0...3).allSatisfy({ stmt.byteCount(Int32($0)) == Int(count) * 8 }) else {
            throw damaged("its columns hold \((0...3).map { stmt.byteCount(Int32($0)) }) bytes for \(count) prints")
        }
        let hasLocal = !stmt.isNull(7)
        guard !hasLocal || (stmt.isBlob(7) && stmt.byteCount(7) == Int(count) * 8) else {
            throw damaged("its receive times are not a blob of \(count) times")
        }
        let first = columns.count
        stmt.appendBlob(0, to: &columns.time)
        stmt.appendBlob(1, to: &columns.price)
        stmt.appendBlob(2, to: &columns.qty)
        stmt.appendBlob(3, to: &columns.side)
        if hasLocal {
            stmt.appendBlob(7, to: &columns.local)
        } else {
            columns.local.append(contentsOf: repeatElement(.min, count: Int(count)))
        }
        // `start_ms` holds the chunk's first print's index among the symbol's prints.
        guard start == Int64(printsBefore) else { throw damaged("it starts at print \(start), after \(printsBefore) prints") }
        let time = columns.time
        guard (first..<time.count).allSatisfy({ time[$0] >= ($0 > first ? time[$0 - 1] : lastTimeBefore ?? .min) }) else {
            throw damaged("its prints are out of order")
        }
    }

    /// Replaces the stored prints of `symbol`. Call inside `transaction`.
    func replaceTrades(symbol: String, prints: [TradePrint]) throws {
        try deleteTrades(symbol: symbol)
        try insertTradeChunks(symbol: symbol, prints: prints, firstIndex: 0)
    }

    /// Inserts `prints` as chunks of up to `tradeChunkSize`, the first holding print `firstIndex`
    /// of `symbol` (a chunk's `start_ms` is its first print's index).
    func insertTradeChunks(symbol: String, prints: [TradePrint], firstIndex: Int) throws {
        let insert = try db.prepare(
            "INSERT INTO trades(symbol, start_ms, count, time_ms, price, qty, side, local_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        var k = 0
        while k < prints.count {
            let chunk = prints[k..<min(k + Self.tradeChunkSize, prints.count)]
            insert.reset()
            insert.bind(1, symbol)
            insert.bind(2, Int64(firstIndex + k))
            insert.bind(3, Int64(chunk.count))
            insert.bind(4, blob: chunk.map(\.timeMs))
            insert.bind(5, blob: chunk.map(\.price))
            insert.bind(6, blob: chunk.map(\.quantity))
            insert.bind(7, blob: chunk.map { $0.side == .buy ? 1.0 : $0.side == .sell ? 2.0 : 0.0 })
            if chunk.contains(where: { $0.localNs != nil }) {
                insert.bind(8, blob: chunk.map { $0.localNs ?? .min })
            } else {
                insert.bindNull(8)
            }
            try insert.step()
            k += chunk.count
        }
    }

    /// Deletes the stored prints of `symbol` (no-op when absent).
    func deleteTrades(symbol: String) throws {
        let stmt = try db.prepare("DELETE FROM trades WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }

    /// Prints: `incoming` (sorted) replaces the stored prints within its own time span.
    static func merge(_ base: [TradePrint], _ incoming: [TradePrint]) -> [TradePrint] {
        guard let first = incoming.first?.timeMs, let last = incoming.last?.timeMs else { return base }
        return base.filter { $0.timeMs < first } + incoming + base.filter { $0.timeMs > last }
    }
}
