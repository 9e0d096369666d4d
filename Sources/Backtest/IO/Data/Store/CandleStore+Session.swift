import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the session table when missing: the trading session a series was imported with.
    func createSessionTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS sessions(
              symbol TEXT NOT NULL, timeframe TEXT NOT NULL, zone TEXT NOT NULL,
              open INTEGER NOT NULL, close INTEGER NOT NULL,
              PRIMARY KEY(symbol, timeframe)) WITHOUT ROWID;
            """)
    }

    /// The session stored with the series `symbol`/`timeframeKey`, nil when none.
    /// - Throws: `StoreError` (`.damaged`) for impossible hours.
    public func session(symbol: String, timeframeKey: String) throws -> TradingSession? {
        guard tables.contains("sessions") else { return nil }
        let stmt = try db.prepare("SELECT zone, open, close FROM sessions WHERE symbol = ?1 AND timeframe = ?2")
        stmt.bind(1, symbol)
        stmt.bind(2, timeframeKey)
        guard try stmt.step() else { return nil }
        let open = stmt.int64(1), close = stmt.int64(2)
        guard open >= 0, open < close, close <= 1440 else {
            throw StoreError(.damaged, path: path, series: "\(symbol) \(timeframeKey)", reason: "its session hours are impossible")
        }
        return TradingSession(zone: stmt.string(0), open: Int(open), close: Int(close))
    }

    /// Stores `session` with a series (nil removes it). Call inside `transaction`.
    func setSession(_ session: TradingSession?, symbol: String, timeframeKey: String) throws {
        let delete = try db.prepare("DELETE FROM sessions WHERE symbol = ?1 AND timeframe = ?2")
        delete.bind(1, symbol)
        delete.bind(2, timeframeKey)
        try delete.step()
        guard let session else { return }
        let insert = try db.prepare("INSERT INTO sessions(symbol, timeframe, zone, open, close) VALUES (?1, ?2, ?3, ?4, ?5)")
        insert.bind(1, symbol)
        insert.bind(2, timeframeKey)
        insert.bind(3, session.zone)
        insert.bind(4, Int64(session.open))
        insert.bind(5, Int64(session.close))
        try insert.step()
    }
}
