import BacktestAnalysis
import BacktestCore

/// A symbol's stored funding rates, as `bt data list` shows them.
public struct FundingInfo: Equatable, Sendable {
    public var symbol: String
    /// The first and last settlement times, UTC milliseconds.
    public var firstMs: Int64
    public var lastMs: Int64
    public var count: Int
}

extension CandleStore {
    /// Creates the funding table when missing: one row per settlement of a perpetual future
    /// (`FundingRate`): time in UTC ms, the rate as a fraction per funding period, the mark
    /// price or NULL. A few rows a day per symbol, so plain rows rather than chunks.
    func createFundingTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS funding(
              symbol TEXT NOT NULL, time_ms INTEGER NOT NULL, rate REAL NOT NULL, mark_price REAL,
              PRIMARY KEY(symbol, time_ms)) WITHOUT ROWID;
            """)
    }

    /// The stored funding settlements of `symbol` with `range.contains(timeMs)`, in time order;
    /// empty when none.
    /// - Throws: `StoreError` (`.damaged`) when a stored row is one an import would refuse
    ///   (`FundingRate.problem`), so what an import refuses never comes back from a store.
    public func funding(symbol: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws -> [FundingRate] {
        guard tables.contains("funding") else { return [] }
        let stmt = try db.prepare("""
            SELECT time_ms, rate, mark_price, typeof(rate) IN ('real', 'integer'),
                   mark_price IS NULL OR typeof(mark_price) IN ('real', 'integer')
            FROM funding WHERE symbol = ?1 AND time_ms BETWEEN ?2 AND ?3 ORDER BY time_ms
            """)
        stmt.bind(1, symbol)
        stmt.bind(2, range.lowerBound)
        stmt.bind(3, range.upperBound)
        var out: [FundingRate] = []
        while try stmt.step() {
            let row = FundingRate(timeMs: stmt.int64(0), rate: stmt.double(1), markPrice: stmt.isNull(2) ? nil : stmt.double(2))
            let problem = stmt.int64(3) == 1 && stmt.int64(4) == 1 ? row.problem : "a value is not a number"
            if let problem {
                throw StoreError(.damaged, path: path, series: "\(symbol) funding", reason: "row at \(row.timeMs) ms: \(problem)")
            }
            out.append(row)
        }
        return out
    }

    /// Every symbol with stored funding rates, ordered by symbol.
    public func fundingList() throws -> [FundingInfo] {
        guard tables.contains("funding") else { return [] }
        let stmt = try db.prepare("SELECT symbol, MIN(time_ms), MAX(time_ms), COUNT(*) FROM funding GROUP BY symbol ORDER BY symbol")
        var out: [FundingInfo] = []
        while try stmt.step() {
            out.append(FundingInfo(symbol: stmt.string(0), firstMs: stmt.int64(1), lastMs: stmt.int64(2),
                                   count: Int(clamping: stmt.int64(3))))
        }
        return out
    }

    /// Replaces the stored funding rates of `symbol` with `rows`. Call inside `transaction`.
    func replaceFunding(symbol: String, rows: [FundingRate]) throws {
        try deleteFunding(symbol: symbol)
        try insertFunding(symbol: symbol, rows: rows)
    }

    /// Writes `rows` of `symbol`, each replacing a stored row at its time. Call inside `transaction`.
    func insertFunding(symbol: String, rows: [FundingRate]) throws {
        guard !rows.isEmpty else { return }
        let insert = try db.prepare("INSERT OR REPLACE INTO funding(symbol, time_ms, rate, mark_price) VALUES (?1, ?2, ?3, ?4)")
        for row in rows {
            insert.reset()
            insert.bind(1, symbol)
            insert.bind(2, row.timeMs)
            insert.bind(3, row.rate)
            if let m = row.markPrice { insert.bind(4, m) }
            try insert.step()
        }
    }

    /// Deletes the stored funding rates of `symbol` (no-op when absent).
    func deleteFunding(symbol: String) throws {
        let stmt = try db.prepare("DELETE FROM funding WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }

    /// Merges sorted, unique-time `incoming` into `base` as candles merge: a stored time takes
    /// the file's rate and mark price (counted as updated when they differ), new times are added,
    /// stored times absent from the file are kept. A row without a mark price keeps the stored
    /// one: a file of rates alone says nothing about mark prices.
    static func merge(_ base: [FundingRate], _ incoming: [FundingRate])
        -> (rows: [FundingRate], added: Int, updated: Int, unchanged: Int, largest: BarChange?) {
        var byTime = Dictionary(uniqueKeysWithValues: base.map { ($0.timeMs, $0) })
        var added = 0, updated = 0, unchanged = 0
        var largest: BarChange?
        for var row in incoming {
            guard let old = byTime[row.timeMs] else {
                added += 1
                byTime[row.timeMs] = row
                continue
            }
            row.markPrice = row.markPrice ?? old.markPrice
            if old == row { unchanged += 1; continue }
            updated += 1
            byTime[row.timeMs] = row
            let changes = [("rate", old.rate, row.rate), ("mark_price", old.markPrice ?? .nan, row.markPrice ?? .nan)]
            for (field, a, b) in changes where a != b && !(a.isNaN && b.isNaN) {
                let relative = a.isNaN || b.isNaN ? Double.infinity : Swift.abs(b - a) / Swift.abs(a)
                if largest == nil || relative > largest!.relative {
                    largest = BarChange(time: floorDiv(row.timeMs, 1000), field: field, old: a, new: b, relative: relative)
                }
            }
        }
        return (byTime.values.sorted { $0.timeMs < $1.timeMs }, added, updated, unchanged, largest)
    }
}

extension CandleStore {
    /// `symbol`'s funding rates from `from` through `to` (epoch seconds, both inclusive of their
    /// whole second; nil: open), as `loadRange` takes a range.
    /// - Throws: `InputError` when there are none in the range; `funding(symbol:in:)`'s errors.
    public func loadFunding(symbol: String, from: Int64? = nil, to: Int64? = nil) throws -> [FundingRate] {
        let symbol = try SeriesName.normalized(symbol)
        func ms(_ s: Int64) -> Int64 { s >= Int64.max / 1000 ? .max - 999 : s <= Int64.min / 1000 ? .min : s * 1000 }
        let lo = from.map(ms) ?? .min, hi = to.map { ms($0) + 999 } ?? .max
        let rows = lo > hi ? [] : try funding(symbol: symbol, in: lo...hi)
        if rows.isEmpty { throw InputError("no funding rates for '\(symbol)' in the requested range") }
        return rows
    }
}
