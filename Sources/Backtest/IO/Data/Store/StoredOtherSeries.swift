import BacktestCore
import Foundation

/// The other series rules read with `@`, from the store at `path` (opened read-only the first
/// time one is asked for): stored at the timeframe, else the symbol's finest series resampled
/// with its session, as `CandleStore.load` gives every command its candles.
///
/// Unchecked `Sendable`: the store connection is used under `lock` only.
package final class StoredOtherSeries: OtherSeriesSource, @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var store: CandleStore?

    package init(path: String) {
        self.path = path
    }

    private func withStore<T>(_ body: (CandleStore) throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        let opened = try store ?? CandleStore(existingAt: path)
        store = opened
        return try body(opened)
    }

    package func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        try withStore { store in
            guard try store.list().contains(where: { $0.symbol == symbol }) else { return nil }
            return try store.load(symbol: symbol, timeframe: timeframe)
        }
    }

    /// The session of the symbol's finest stored series (the one others are resampled from).
    package func session(symbol: String) throws -> TradingSession? {
        try withStore { store in
            guard let finest = try store.list().first(where: { $0.symbol == symbol }) else { return nil }
            return try store.session(symbol: symbol, timeframeKey: finest.timeframe)
        }
    }

    package func keys() throws -> [String] {
        try withStore { try $0.list().map { "\($0.symbol)@\($0.timeframe)" } }
    }
}
