import BacktestCore
import BacktestData

/// What a live session's rules read with `@`: its own symbol at its interval or a higher
/// timeframe, made from the bars it holds (the warm-up, then the stream's closed bars) and
/// followed bar by bar (`OtherSeriesStream`), so a higher bar's value changes at the bar of the
/// interval that closes it, as the replay (`bt run` over the stored bars) shows it.
///
/// Another symbol is refused (`OtherSeriesReader.followsStream`): the session streams one
/// symbol, and another's stored bars do not grow with it, so a decision could differ from the
/// replay's. So is a store from which the replay would read the higher timeframe otherwise
/// than from the session's bars: one holding the symbol at that timeframe or at a finer one
/// than the interval, or holding the interval's bars with a trading session.
package struct LiveOtherSeries: OtherSeriesSource {
    let symbol: String
    let interval: Timeframe
    /// The bars held: the stored interval series.
    let history: CandleSeries
    /// The timeframe keys of the symbol's stored series.
    let stored: [String]
    /// Whether the symbol's stored interval series follows a trading session.
    let hasSession: Bool

    /// The source of a session of `symbol` at `interval` on `store`, holding `history`.
    /// - Throws: a store error.
    package init(symbol: String, interval: Timeframe, history: CandleSeries, store: CandleStore?) throws {
        self.symbol = symbol
        self.interval = interval
        self.history = history
        stored = try store?.list().filter { $0.symbol == symbol }.map(\.timeframe) ?? []
        hasSession = try stored.contains(interval.rawValue) && store?.session(symbol: symbol, timeframeKey: interval.rawValue) != nil
    }

    package func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
        guard symbol == self.symbol else { return nil }
        if hasSession {
            throw InputError("\(symbol)'s stored \(interval.rawValue) bars follow a trading session, and a live session makes "
                             + "its \(timeframe.rawValue) bars in UTC buckets; keep the session in another store (--db)")
        }
        let replayReads = stored.first { key in
            key != interval.rawValue && (key == timeframe.rawValue || Timeframe(rawValue: key).map { $0 < interval } ?? false)
        }
        if let key = replayReads {
            throw InputError("the store holds \(symbol)@\(key), which the session's replay (bt run) would read for it, while the "
                             + "session makes its \(timeframe.rawValue) bars from its \(interval.rawValue) bars; keep the session "
                             + "in another store (--db), or remove \(symbol)@\(key)")
        }
        return timeframe == interval ? history : history.resampled(to: timeframe)
    }

    package func keys() throws -> [String] {
        stored.map { "\(symbol)@\($0)" }
    }
}

extension Strategy {
    /// The strategy with its rules' `@` series read from a live session (`LiveOtherSeries`);
    /// unchanged when its rules read none.
    package func following(_ source: LiveOtherSeries) -> Strategy {
        readsOtherSeries ? reading(OtherSeriesReader(source, followsStream: true)) : self
    }

    /// Checks that a live session of `symbol` at `interval` can follow its rules bar by bar:
    /// what they read with `@` is the symbol's own interval or a higher timeframe, and `store`
    /// (when given) holds nothing the replay would read for it instead of the session's bars.
    /// Without a store it touches nothing, so the command line checks before the store or the
    /// network. The bars themselves are checked when the trader is made over the warm-up: its
    /// indicators of a higher timeframe must have the bars they need, and a bar of it must have
    /// closed (else the replay, `bt run`, would refuse the rule).
    /// - Throws: `InputError` naming the rule and the `@` (another symbol, a lower timeframe,
    ///   a stored series in the way), or for parameters the strategy refuses; a store error.
    package func checkLive(_ parameters: StrategyParameters, symbol: String, interval: Timeframe,
                           store: CandleStore? = nil) throws {
        guard readsOtherSeries else { return }
        let none = CandleSeries(symbol: symbol, timeframe: interval)
        let source = try LiveOtherSeries(symbol: symbol, interval: interval, history: none, store: store)
        _ = try following(source).incremental(parameters, run: none)
    }
}
