import BacktestCore
import BacktestData

/// What a live session's rules read with `@`: its own symbol at its interval or a higher
/// timeframe, made from the bars it holds (the warm-up, then the stream's closed bars) and
/// followed bar by bar (`OtherSeriesStream`), so a higher bar's value changes at the bar of the
/// interval that closes it, as the replay (`bt run` over the stored bars) shows it; and other
/// symbols (`close@ETHUSDT`, `sma(close, 50)@ETHUSDT@1h`), from their stored bars at the
/// interval and then the bars of their streams as the session makes them final (`feeds`,
/// `LiveOtherSymbol`), aligned as the batch aligns them (an as-of join on close times, stale
/// after their bar length or `--max-stale`).
///
/// A store from which the replay would read a series otherwise than from the bars the session
/// holds at the interval is refused: one holding a symbol read at the timeframe read or at a
/// finer one than the interval, or holding the interval's bars with a trading session.
package struct LiveOtherSeries: OtherSeriesSource {
    let symbol: String
    let interval: Timeframe
    /// The bars held when the session starts, by symbol: the stored interval series of the
    /// session's symbol and of each other symbol read.
    let history: [String: CandleSeries]
    /// The timeframe keys of each symbol's stored series.
    let stored: [String: [String]]
    /// The symbols whose stored interval series follows a trading session.
    let withSession: Set<String>
    /// Each other symbol's bars, growing as the session appends its stream's final bars.
    package let feeds: [String: OtherBarFeed]
    /// `--max-stale`, seconds.
    let maxStale: Int64?

    /// The source of a session of `symbol` at `interval` on `store`, holding `history`, and
    /// `others` (each other symbol's stored interval bars) for rules that read other symbols.
    /// - Throws: a store error.
    package init(symbol: String, interval: Timeframe, history: CandleSeries, others: [String: CandleSeries] = [:],
                 store: CandleStore?, maxStale: Int64? = nil) throws {
        self.symbol = symbol
        self.interval = interval
        self.history = others.merging([symbol: history]) { _, own in own }
        self.maxStale = maxStale
        let list = try store?.list() ?? []
        var stored: [String: [String]] = [:]
        var withSession: Set<String> = []
        for name in self.history.keys {
            let keys = list.filter { $0.symbol == name }.map(\.timeframe)
            stored[name] = keys
            if try keys.contains(interval.rawValue) && store?.session(symbol: name, timeframeKey: interval.rawValue) != nil {
                withSession.insert(name)
            }
        }
        self.stored = stored
        self.withSession = withSession
        feeds = others.reduce(into: [:]) { $0[$1.key] = OtherBarFeed(symbol: $1.key, timeframe: interval, history: $1.value) }
    }

    package func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        guard let held = history[symbol] else { return nil }
        if withSession.contains(symbol) {
            throw InputError("\(symbol)'s stored \(interval.rawValue) bars follow a trading session, and a live session makes "
                             + "its \(timeframe.rawValue) bars in UTC buckets; keep the session in another store (--db)")
        }
        let replayReads = stored[symbol, default: []].first { key in
            key != interval.rawValue && (key == timeframe.rawValue || Timeframe(rawValue: key).map { $0 < interval } ?? false)
        }
        if let key = replayReads {
            throw InputError("the store holds \(symbol)@\(key), which the session's replay (bt run) would read for it, while the "
                             + "session makes its \(timeframe.rawValue) bars from its \(interval.rawValue) bars; keep the session "
                             + "in another store (--db), or remove \(symbol)@\(key)")
        }
        return timeframe == interval ? held : held.resampled(to: timeframe)
    }

    package func keys() throws -> [String] {
        stored.sorted { $0.key < $1.key }.flatMap { name, keys in keys.map { "\(name)@\($0)" } }
    }
}

extension Strategy {
    /// The strategy with its rules' `@` series read from a live session (`LiveOtherSeries`);
    /// unchanged when its rules read none.
    package func following(_ source: LiveOtherSeries) -> Strategy {
        readsOtherSeries ? reading(OtherSeriesReader(source, maxStale: source.maxStale, following: source.feeds)) : self
    }

    /// Checks that a live session of `symbol` at `interval` can follow its rules bar by bar:
    /// what they read with `@` is the interval or a higher timeframe (of the symbol or of
    /// another, whose stream the session then follows too), and `store` (when given) holds
    /// nothing the replay would read instead of the bars the session holds.
    /// Without a store it touches nothing, so the command line checks before the store or the
    /// network. The bars themselves are checked when the trader is made over the warm-up: its
    /// indicators of a higher timeframe must have the bars they need, and a bar of it must have
    /// closed (else the replay, `bt run`, would refuse the rule).
    /// - Throws: `InputError` naming the rule and the `@` (a lower timeframe, a stored series
    ///   in the way), or for parameters the strategy refuses; a store error.
    package func checkLive(_ parameters: StrategyParameters, symbol: String, interval: Timeframe,
                           store: CandleStore? = nil) throws {
        guard readsOtherSeries else { return }
        let none = CandleSeries(symbol: symbol, timeframe: interval)
        let others = otherSymbols(besides: symbol).reduce(into: [:]) { $0[$1] = CandleSeries(symbol: $1, timeframe: interval) }
        let source = try LiveOtherSeries(symbol: symbol, interval: interval, history: none, others: others, store: store)
        _ = try following(source).incremental(parameters, run: none)
    }
}
