import BacktestCore

extension CandleStore {
    /// The recorded trades and depth of `symbol` an event-level replay of `fromMs...toMs` reads
    /// (`EventReplay`), merged in replay order and read from the store as they are taken: one
    /// book row, one chunk of prints at a time, so memory stays flat however long the range.
    ///
    /// The events start at the last stored snapshot at or before `fromMs` (the first event when
    /// none), so the book is whole at the start; the replay quotes from `fromMs` on
    /// (`ReplaySettings.startMs`). Prints before that snapshot are left out.
    /// - Throws: `InputError` (`.missingBook`) when no depth message of `symbol` falls in the
    ///   range; `StoreError` while reading.
    package func replayEvents(symbol: String, fromMs: Int64?, toMs: Int64?) throws -> MergedMarketEvents {
        let from = fromMs ?? .min, to = toMs ?? .max
        guard let table = try bookTables.first(where: { try hasBook(symbol: symbol, table: $0) }) else {
            throw try missingBook(symbol: symbol)
        }
        let first = try db.prepare("SELECT \(table.timeMs) FROM \(table.name) WHERE symbol = ?1 AND \(table.timeMs) >= ?2 ORDER BY seq LIMIT 1")
        first.bind(1, symbol)
        first.bind(2, from)
        guard try first.step(), first.int64(0) <= to else {
            throw InputError(.missingBook, "no recorded depth of '\(symbol)' in the range", value: symbol)
        }
        let start = try db.prepare("""
            SELECT seq, \(table.timeMs) FROM \(table.name) WHERE symbol = ?1 AND kind = 'snapshot' AND \(table.timeMs) <= ?2
            ORDER BY seq DESC LIMIT 1
            """)
        start.bind(1, symbol)
        start.bind(2, from)
        let (startSeq, startMs) = try start.step() ? (start.int64(0), start.int64(1)) : (Int64.min, Int64.min)

        let books = try db.prepare("""
            SELECT \(table.timeMs), kind, bids, asks, \(table.localNs) FROM \(table.name)
            WHERE symbol = ?1 AND seq >= ?2 AND \(table.timeMs) <= ?3 ORDER BY seq
            """)
        books.bind(1, symbol)
        books.bind(2, startSeq)
        books.bind(3, to)
        var buffer: [Double] = []
        let nextBook: () throws -> BookEvent? = {
            try books.step() ? Self.bookEvent(books, buffer: &buffer) : nil
        }

        let chunks = tables.contains("trades") ? try tradeChunks(symbol: symbol) : nil
        var columns = TradeColumns()
        var index = 0, printsBefore = 0
        var lastTime: Int64?
        var ended = chunks == nil
        let nextTrade: () throws -> TradePrint? = { [self] in
            while !ended {
                while index < columns.count {
                    let i = index
                    index += 1
                    if columns.time[i] > to { ended = true; return nil }
                    if columns.time[i] >= startMs { return columns.print(at: i) }
                }
                guard let chunks, try chunks.step() else { ended = true; return nil }
                printsBefore += columns.count
                lastTime = columns.time.last ?? lastTime
                columns.removeAll()
                index = 0
                try appendTradeChunk(chunks, symbol: symbol, to: &columns, printsBefore: printsBefore, lastTimeBefore: lastTime)
            }
            return nil
        }
        return MergedMarketEvents(trades: nextTrade, books: nextBook)
    }

    private func hasBook(symbol: String, table: BookTable) throws -> Bool {
        let stmt = try db.prepare("SELECT 1 FROM \(table.name) WHERE symbol = ?1 LIMIT 1")
        stmt.bind(1, symbol)
        return try stmt.step()
    }
}
