import BacktestAnalysis
import BacktestCore

extension CandleStore {
    /// Loads `symbol` for analysis. A stored series is a symbol and a timeframe: `symbol` may name
    /// one as `AAPL@1d`. With `timeframe`, the series stored at it, else the finest stored series
    /// resampled to it (following the series' session when it has one); without, the symbol's only
    /// series. `from`/`to` (inclusive, epoch seconds) trim the result.
    /// - Throws: `InputError` when the symbol is not stored (kind `.missingSymbol`), when it has
    ///   several series and none is chosen (kind `.needsSetting`, setting `.timeframe`, listing
    ///   them), or when it is stored only coarser than `timeframe`.
    public func load(symbol: String, timeframe: Timeframe? = nil, from: Int64? = nil, to: Int64? = nil) throws -> CandleSeries {
        let all = try list()
        let (symbol, named) = try SeriesName.resolve(symbol, timeframe: timeframe, stored: all)
        let stored = all.filter { $0.symbol == symbol }
        guard let finest = stored.first else {
            let hint = Suggest.closest(to: symbol, among: Array(Set(all.map(\.symbol)))).map { " (did you mean \($0)?)" } ?? ""
            throw InputError(.missingSymbol, "no candles stored for symbol '\(symbol)'\(hint)", value: symbol)
        }
        var series: CandleSeries
        if let timeframe = named, let exact = stored.first(where: { $0.timeframe == timeframe.rawValue }) {
            series = try loadStored(symbol: symbol, timeframeKey: exact.timeframe)
        } else if let timeframe = named {
            guard let base = Timeframe(rawValue: finest.timeframe), base < timeframe else {
                throw InputError(
                    "cannot make \(timeframe.rawValue) candles for '\(symbol)' from its stored "
                        + stored.map(\.timeframe).joined(separator: ", ") + " series")
            }
            let source = try loadStored(symbol: symbol, timeframeKey: finest.timeframe)
            if let session = try session(symbol: symbol, timeframeKey: finest.timeframe) {
                series = try source.resampled(to: timeframe, session: session)
            } else {
                series = source.resampled(to: timeframe)
            }
        } else if stored.count == 1 {
            series = try loadStored(symbol: symbol, timeframeKey: finest.timeframe)
        } else {
            throw SeriesName.ambiguous(symbol, stored.map(\.timeframe))
        }
        if from != nil || to != nil { series = series.between(from: from, to: to) }
        return series
    }

    /// The series `bt screen --all` and `bt sweep --all` use: every stored symbol at `timeframe`
    /// (stored at it or finer), else each symbol's only series, as `SYMBOL@TF` names.
    /// - Throws: `InputError` (setting `.timeframe`) naming the symbols stored at several
    ///   timeframes when no timeframe is given.
    public func allSeries(timeframe: Timeframe?) throws -> [String] {
        let stored = try list()
        var bySymbol: [String: [String]] = [:]
        for info in stored { bySymbol[info.symbol, default: []].append(info.timeframe) }
        let symbols = bySymbol.keys.sorted()
        if let timeframe {
            return symbols.filter { symbol in
                bySymbol[symbol]!.contains { Timeframe(rawValue: $0).map { $0 <= timeframe } ?? false }
            }.map { "\($0)@\(timeframe.rawValue)" }
        }
        let ambiguous = symbols.filter { bySymbol[$0]!.count > 1 }
        if !ambiguous.isEmpty {
            let shown = ambiguous.prefix(10).map { "\($0) (\(bySymbol[$0]!.joined(separator: ", ")))" }
            throw InputError(.needsSetting,
                             "\(ambiguous.count) symbol\(ambiguous.count == 1 ? " is" : "s are") stored at several timeframes: "
                                 + shown.joined(separator: ", ") + (ambiguous.count > 10 ? ", ..." : "")
                                 + "; choose one timeframe for all",
                             setting: .timeframe)
        }
        return symbols.map { "\($0)@\(bySymbol[$0]![0])" }
    }
}
