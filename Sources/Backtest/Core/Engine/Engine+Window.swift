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
}
