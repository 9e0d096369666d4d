import Foundation
import Backtest

extension ParsedArguments {
    /// Opens the existing store named by `--db`/`BT_DB` read-only; a missing store is an input
    /// error (exit 2) and no file is created or changed.
    func openStore() throws -> CandleStore {
        try CandleStore(existingAt: databasePath)
    }

    /// Opens the existing store named by `--db`/`BT_DB` for writing (removing data).
    func openStoreForWriting() throws -> CandleStore {
        try CandleStore(writableAt: databasePath)
    }

    /// Runs `body` on the store named by `--db`/`BT_DB` opened for writing; a missing store is
    /// created only if `body` succeeds (`CandleStore.updating`).
    func updatingStore<T>(_ body: (CandleStore) throws -> T) throws -> T {
        try CandleStore.updating(at: databasePath, body)
    }

    /// The positional symbol at `i`, checked and upper-cased as the store keeps symbols
    /// (`goog` is `GOOG`); a series name keeps its timeframe (`aapl@1m` is `AAPL@1m`).
    func symbol(at i: Int) throws -> String {
        try SeriesName.normalized(try required(i))
    }

    /// A comma-separated list of symbols (`--symbols A,B`), each checked and upper-cased;
    /// empty items are skipped.
    func symbolList(_ option: Option) throws -> [String]? {
        guard let list = value(option) else { return nil }
        return try list.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map(SeriesName.normalized)
    }

    /// Loads `symbol` (case-insensitively: the store upper-cases symbols on import) honouring
    /// `--timeframe`, `--from` and `--to`; an empty result is an error.
    func loadCandles(symbol: String, store: CandleStore? = nil) throws -> CandleSeries {
        let store = try store ?? openStore()
        let range = try dateRange
        return try store.loadRange(symbol: try SeriesName.normalized(symbol), timeframe: try timeframe, from: range.from, to: range.to)
    }

    /// `symbol`'s bars for a run over `--from`...`--to`: the window, with every bar before it
    /// as the warm-up of the indicators (`CandleStore.loadWindow`).
    func loadWindow(symbol: String, store: CandleStore) throws -> CandleWindow {
        let range = try dateRange
        return try store.loadWindow(symbol: try SeriesName.normalized(symbol), timeframe: try timeframe, from: range.from, to: range.to)
    }
}
