extension Engine {
    /// What `Engine.run` simulates: the bars (all of a series, or a window at its end whose
    /// earlier bars are warm-up: a `--from` window, a walk-forward fold), the strategy's signals
    /// over the series, the execution settings, and the indicator cache.
    public struct Request: Sendable {
        /// The bars traded, `window.candles`, and the series they end, `window.series`: the
        /// signals, the order and exit expressions and the spread pairs are the series', so
        /// they keep its warm-up; the run starts flat at the window's first bar.
        public var window: CandleWindow
        /// The strategy's decisions, one element per bar of `window.series`.
        public var signals: Signals
        public var config: ExecutionConfig
        /// The order and exit expressions' indicators and the series' spread pairs, computed
        /// once: it belongs to `window.series`, and runs on that series may share it (a sweep's
        /// combinations, a cost table's runs).
        public var cache: IndicatorCache

        /// A run over `window` with `signals` computed on all of `window.series`.
        public init(_ window: CandleWindow, signals: Signals, config: ExecutionConfig, cache: IndicatorCache = IndicatorCache()) {
            self.window = window
            self.signals = signals
            self.config = config
            self.cache = cache
        }

        /// A run over all of `candles`.
        public init(_ candles: CandleSeries, signals: Signals, config: ExecutionConfig, cache: IndicatorCache = IndicatorCache()) {
            self.init(CandleWindow(candles), signals: signals, config: config, cache: cache)
        }
    }
}
