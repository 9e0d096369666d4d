import Backtest

extension ParsedArguments {
    /// Opens the store named by `--db`/`BT_DB`.
    func openStore() throws -> CandleStore {
        try CandleStore(path: databasePath)
    }

    /// Loads `symbol` honouring `--timeframe`, `--from` and `--to`; an empty result is an error.
    func loadCandles(symbol: String, store: CandleStore? = nil) throws -> CandleSeries {
        let store = try store ?? openStore()
        let range = try dateRange
        let series = try store.load(symbol: symbol, timeframe: try timeframe, from: range.from, to: range.to)
        if series.isEmpty { throw InputError("no candles for '\(symbol)' in the requested range") }
        return series
    }
}
