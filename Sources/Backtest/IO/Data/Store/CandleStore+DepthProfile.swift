import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Creates the depth-profile table when missing: one calibrated profile per symbol, stored
    /// as its JSON object (`DepthProfile.json()`), with the time it was written.
    func createDepthProfileTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS depth_profiles(
              symbol TEXT NOT NULL PRIMARY KEY, profile TEXT NOT NULL, written INTEGER NOT NULL) WITHOUT ROWID;
            """)
    }

    /// The stored profile of `symbol`, nil when none.
    /// - Throws: `InputError` when the stored text is not a valid profile.
    public func depthProfile(symbol: String) throws -> DepthProfile? {
        guard tables.contains("depth_profiles") else { return nil }
        let stmt = try db.prepare("SELECT profile FROM depth_profiles WHERE symbol = ?1")
        stmt.bind(1, symbol)
        guard try stmt.step() else { return nil }
        return try DepthProfileJSON.parse(Array(stmt.string(0).utf8), file: "stored profile of \(symbol)")
    }

    /// Stores `profile` under its symbol, replacing an earlier one.
    public func saveDepthProfile(_ profile: DepthProfile, at time: Int64) throws {
        try transaction {
            let stmt = try db.prepare("INSERT OR REPLACE INTO depth_profiles(symbol, profile, written) VALUES (?1, ?2, ?3)")
            stmt.bind(1, profile.symbol)
            stmt.bind(2, profile.json())
            stmt.bind(3, time)
            try stmt.step()
        }
    }

    /// Deletes the stored profile of `symbol` (no-op when absent). Call inside `transaction`.
    func deleteDepthProfile(symbol: String) throws {
        let stmt = try db.prepare("DELETE FROM depth_profiles WHERE symbol = ?1")
        stmt.bind(1, symbol)
        try stmt.step()
    }

    /// Symbols with a stored profile.
    public func depthProfileSymbols() throws -> [String] {
        guard tables.contains("depth_profiles") else { return [] }
        let stmt = try db.prepare("SELECT symbol FROM depth_profiles ORDER BY symbol")
        var out: [String] = []
        while try stmt.step() { out.append(stmt.string(0)) }
        return out
    }
}
