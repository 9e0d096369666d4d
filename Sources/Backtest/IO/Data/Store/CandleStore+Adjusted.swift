import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the table of series imported with adjusted prices (`ImportOptions.adjusted`),
    /// whose moves a run does not take for splits (`LikelySplit`).
    func createAdjustedTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS adjusted_series(
              symbol TEXT NOT NULL, timeframe TEXT NOT NULL,
              PRIMARY KEY(symbol, timeframe)) WITHOUT ROWID;
            """)
    }

    /// True when some series of `symbol` was imported with adjusted prices.
    public func holdsAdjustedPrices(symbol: String) throws -> Bool {
        guard tables.contains("adjusted_series") else { return false }
        let stmt = try db.prepare("SELECT 1 FROM adjusted_series WHERE symbol = ?1 LIMIT 1")
        stmt.bind(1, symbol)
        return try stmt.step()
    }

    /// Forgets that the series `symbol`/`timeframeKey` holds adjusted prices (it is removed).
    /// Call inside `transaction`.
    func unmarkAdjusted(symbol: String, timeframeKey: String) throws {
        guard tables.contains("adjusted_series") else { return }
        let delete = try db.prepare("DELETE FROM adjusted_series WHERE symbol = ?1 AND timeframe = ?2")
        delete.bind(1, symbol)
        delete.bind(2, timeframeKey)
        try delete.step()
    }

    /// Records that the series `symbol`/`timeframeKey` holds adjusted prices. Call inside `transaction`.
    func markAdjusted(symbol: String, timeframeKey: String) throws {
        let insert = try db.prepare("INSERT OR IGNORE INTO adjusted_series(symbol, timeframe) VALUES (?1, ?2)")
        insert.bind(1, symbol)
        insert.bind(2, timeframeKey)
        try insert.step()
    }
}
