import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Loads `symbol` for analysis: the stored series at `timeframe` when present, else the
    /// finest stored series resampled to it; without `timeframe`, the finest stored series.
    /// `from`/`to` (inclusive, epoch seconds) trim the result.
    /// - Throws: `InputError` when the symbol is not stored (kind `.missingSymbol`), or only coarser
    ///   than `timeframe`.
    public func load(symbol: String, timeframe: Timeframe? = nil, from: Int64? = nil, to: Int64? = nil) throws -> CandleSeries {
        let stored = try list().filter { $0.symbol == symbol }
        guard let finest = stored.first else {
            let known = try list().map(\.symbol)
            let hint = Suggest.closest(to: symbol, among: Array(Set(known))).map { " (did you mean \($0)?)" } ?? ""
            throw InputError(.missingSymbol, "no candles stored for symbol '\(symbol)'\(hint)", value: symbol)
        }
        var series: CandleSeries
        if let timeframe, let exact = stored.first(where: { $0.timeframe == timeframe.rawValue }) {
            series = try loadStored(symbol: symbol, timeframeKey: exact.timeframe)
        } else if let timeframe {
            guard let base = Timeframe(rawValue: finest.timeframe), base < timeframe else {
                throw InputError(
                    "cannot make \(timeframe.rawValue) candles for '\(symbol)' from its stored \(finest.timeframe) series")
            }
            series = try loadStored(symbol: symbol, timeframeKey: finest.timeframe).resampled(to: timeframe)
        } else {
            series = try loadStored(symbol: symbol, timeframeKey: finest.timeframe)
        }
        if from != nil || to != nil { series = series.between(from: from, to: to) }
        return series
    }
}
