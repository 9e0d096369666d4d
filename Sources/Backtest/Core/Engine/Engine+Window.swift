extension Engine {
    /// Trades `signals`, computed on all of `window.series`, over the window's bars only,
    /// starting flat: the order and exit expressions are computed on `window.series` too, so
    /// they keep the warm-up of the bars before the window (`CandleWindow`).
    public static func run(_ window: CandleWindow, signals: Signals, config: ExecutionConfig,
                           cache: IndicatorCache = IndicatorCache()) throws -> BacktestResult {
        precondition(signals.count == window.series.count, "signals must have one element per bar of the window's series")
        guard window.start > 0 else { return try run(window.series, signals: signals, config: config, cache: cache) }
        return try run(window.candles, signals: signals.slice(window.range), config: config, endOf: window.series, cache: cache)
    }

    /// `run(_:signals:config:cache:)` with the signals (of all of `window.series`) computed by
    /// `signals` after the run has started, as `Engine.run(_:config:cache:signals:)`.
    public static func run(_ window: CandleWindow, config: ExecutionConfig, cache: IndicatorCache = IndicatorCache(),
                           signals: () throws -> Signals) throws -> BacktestResult {
        func all() throws -> Signals {
            let s = try signals()
            precondition(s.count == window.series.count, "signals must have one element per bar of the window's series")
            return s
        }
        guard window.start > 0 else { return try run(window.series, config: config, cache: cache, signals: all) }
        return try run(window.candles, config: config, cache: cache, endOf: window.series, signals: { try all().slice(window.range) })
    }
}
