import Backtest

extension ParsedArguments {
    /// Opens the existing store named by `--db`/`BT_DB` for reading; a missing store is an
    /// input error (exit 2) and no empty file is created.
    func openStore() throws -> CandleStore {
        try CandleStore(existingAt: databasePath)
    }

    /// Opens the existing store named by `--db`/`BT_DB` read-only: screens, sweeps and their
    /// shards never write to it, so many processes may share one.
    func openStoreReadOnly() throws -> CandleStore {
        try CandleStore(readOnlyAt: databasePath)
    }

    /// Opens the store named by `--db`/`BT_DB` for writing, creating it and its directory.
    func openStoreForWriting() throws -> CandleStore {
        try CandleStore(path: databasePath)
    }

    /// The positional symbol at `i`, upper-cased as the store keeps symbols (`goog` is `GOOG`).
    func symbol(at i: Int) throws -> String {
        try required(i).uppercased()
    }

    /// Loads `symbol` (case-insensitively: the store upper-cases symbols on import) honouring `--timeframe`, `--from` and `--to`; an empty result is an error.
    func loadCandles(symbol: String, store: CandleStore? = nil) throws -> CandleSeries {
        let store = try store ?? openStore()
        let range = try dateRange
        let symbol = symbol.uppercased()
        let series = try store.load(symbol: symbol, timeframe: try timeframe, from: range.from, to: range.to)
        if series.isEmpty { throw InputError("no candles for '\(symbol)' in the requested range") }
        return series
    }
}
