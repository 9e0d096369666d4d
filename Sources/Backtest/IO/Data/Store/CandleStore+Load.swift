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
        if let timeframe = named {
            series = try CandleSeries.held(symbol, at: timeframe, held: stored.map(\.timeframe),
                                           load: { try loadStored(symbol: symbol, timeframeKey: $0) },
                                           session: { try session(symbol: symbol, timeframeKey: $0) })
        } else if stored.count == 1 {
            series = try loadStored(symbol: symbol, timeframeKey: finest.timeframe)
        } else {
            throw SeriesName.ambiguous(symbol, stored.map(\.timeframe))
        }
        if from != nil || to != nil { series = series.between(from: from, to: to) }
        return series
    }

    /// `load`, with `symbol` checked and upper-cased as the store keeps symbols (`goog` is
    /// `GOOG`, `aapl@1m` is `AAPL@1m`); an empty result (nothing in the range) is an error.
    public func loadRange(symbol: String, timeframe: Timeframe? = nil, from: Int64? = nil, to: Int64? = nil) throws -> CandleSeries {
        let symbol = try SeriesName.normalized(symbol)
        let series = try load(symbol: symbol, timeframe: timeframe, from: from, to: to)
        if series.isEmpty { throw InputError("no candles for '\(symbol)' in the requested range") }
        return series
    }

    /// `symbol`'s bars for a run over the window `from`...`to` (inclusive, epoch seconds; nil:
    /// open): read from the series' first bar through `to` and nothing after, the window from
    /// the first bar at or after `from`; the bars before it are the warm-up of its indicators
    /// (`CandleWindow`). `symbol` as `loadRange` takes it. Unless the symbol was imported with
    /// adjusted prices, the window carries the bars read that look like splits (`LikelySplit`).
    /// - Throws: `loadRange`'s errors; an empty window is one ("no candles ... in the requested
    ///   range", naming `.to` when no bar is at or before it, else `.from`).
    public func loadWindow(symbol: String, timeframe: Timeframe? = nil, from: Int64? = nil, to: Int64? = nil) throws -> CandleWindow {
        let symbol = try SeriesName.normalized(symbol)
        let series = try load(symbol: symbol, timeframe: timeframe, to: to)
        let start = from.map(series.lowerBound(of:)) ?? 0
        guard start < series.count else {
            // Named for the bound that emptied it: nothing through `to`, else nothing from `from`.
            throw InputError("no candles for '\(symbol)' in the requested range", setting: series.isEmpty ? .to : .from)
        }
        var window = CandleWindow(series, start: start)
        if try !holdsAdjustedPrices(symbol: series.symbol) {
            window.likelySplits = LikelySplit.find(series)
        }
        return window
    }

    /// What `bt data summary` shows for `names` (symbols or `SYMBOL@TF` series; empty: every
    /// stored symbol): a symbol stored at several timeframes once per series unless `timeframe`
    /// picks one. With `timeframe` and several series, one that cannot be shown at it (stored
    /// only coarser) is skipped with its error rather than failing the others. Both lists are
    /// empty when the store holds no candles.
    package func summaries(of names: [String], timeframe: Timeframe?, from: Int64?, to: Int64?) throws
    -> (summaries: [SeriesSummary], skipped: [(series: String, error: InputError)]) {
        let stored = try list()
        let storedSymbols = stored.map(\.symbol).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var series: [String] = []
        for name in names.isEmpty ? storedSymbols : names {
            let infos = stored.filter { $0.symbol == name }
            if timeframe == nil, infos.count > 1 {
                series += infos.map { "\($0.symbol)@\($0.timeframe)" }
            } else {
                series.append(name)
            }
        }
        var summaries: [SeriesSummary] = [], skipped: [(series: String, error: InputError)] = []
        for name in series {
            do {
                summaries.append(SeriesSummary(try loadRange(symbol: name, timeframe: timeframe, from: from, to: to)))
            } catch let error as InputError where timeframe != nil && series.count > 1 {
                skipped.append((name, error))
            }
        }
        return (summaries, skipped)
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
