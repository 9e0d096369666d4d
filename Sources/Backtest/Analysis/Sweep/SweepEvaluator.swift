import BacktestCore

/// Runs one parameter combination of a strategy on (part of) a candle series.
///
/// Signals are always computed on the prefix `candles[0..<range.upperBound]` (so indicators warm
/// up on earlier data and nothing after the range is read), then the engine trades only the bars
/// in `range`, starting flat with `initialCash`.
///
/// A sweep over a window of a longer series (`--from`) gives the evaluator that window: the
/// candles it runs on are then `window.candles`, and signals and order expressions are computed
/// from the series' first bar (the bars before the window are their warm-up), also in each fold.
///
/// A portfolio sweep gives its own backtest instead (`init(config:periodsPerYear:backtest:)`):
/// the candles are then the portfolio's clock (`PortfolioResult.account.candles`) and the
/// backtest runs every symbol up to the prefix's last time, trading only the range.
public struct SweepEvaluator: Sendable {
    /// The strategy's signals for combination `combo` on `candles`, with indicators from `cache`.
    public typealias SignalSource = @Sendable (_ candles: CandleSeries, _ cache: IndicatorCache, _ combo: Int) throws -> Signals
    /// Combination `combo` traded over `range` of `prefix` (which ends where the range ends),
    /// starting flat with `initialCash` (nil: the configured cash), reading nothing after the
    /// prefix; `cache` is shared by every combination on the same prefix.
    public typealias Backtest = @Sendable (_ combo: Int, _ prefix: CandleSeries, _ range: Range<Int>,
                                           _ cache: IndicatorCache, _ initialCash: Double?) throws -> BacktestResult

    /// The execution of combination `combo` (a grid that sweeps exits: `sl`, `trail`, ...).
    public typealias Configure = @Sendable (_ combo: Int) throws -> ExecutionConfig

    public let config: ExecutionConfig
    public let periodsPerYear: Double
    /// The strategy's signals; nil for an evaluator with its own backtest.
    public let signals: SignalSource?
    private let backtest: Backtest?
    private let configure: Configure?
    /// The window the candles are, when they are the end of a longer series; nil: no warm-up.
    private let window: CandleWindow?

    /// - Parameters:
    ///   - configure: each combination's execution, when the grid sweeps it (nil: `config`).
    ///   - window: the window the candles are, when bars before them are read as warm-up.
    public init(config: ExecutionConfig, periodsPerYear: Double, signals: @escaping SignalSource, configure: Configure? = nil,
                window: CandleWindow? = nil) {
        self.config = config
        self.periodsPerYear = periodsPerYear
        self.signals = signals
        self.backtest = nil
        self.configure = configure
        self.window = window.flatMap { $0.start > 0 ? $0 : nil }
    }

    /// An evaluator whose combinations run through `backtest` (a portfolio of many symbols).
    public init(config: ExecutionConfig, periodsPerYear: Double, backtest: @escaping Backtest) {
        self.config = config
        self.periodsPerYear = periodsPerYear
        self.signals = nil
        self.backtest = backtest
        self.configure = nil
        self.window = nil
    }

    /// The execution of combination `combo`.
    public func config(of combo: Int) throws -> ExecutionConfig { try configure?(combo) ?? config }

    /// The backtest of `combo` over all of `candles`.
    public func run(_ combo: Int, on candles: CandleSeries, cache: IndicatorCache) throws -> BacktestResult {
        if let backtest { return try backtest(combo, candles, 0..<candles.count, cache, nil) }
        precondition(self.window.map { candles.count == $0.candles.count } ?? true, "the candles must be the evaluator's window")
        let window = self.window ?? CandleWindow(candles)
        return try Engine.run(Engine.Request(window, signals: try signals!(window.series, cache, combo), config: try config(of: combo),
                                             cache: cache))
    }

    /// The backtest of `combo` over `range` of `candles`; `prefix` must be `candles` cut at
    /// `range.upperBound` (pass the same value for every combination so `cache` stays valid).
    /// With a window, `candles` is the window and the signals read the series from its start.
    public func run(_ combo: Int, prefix: CandleSeries, range: Range<Int>, cache: IndicatorCache,
                    initialCash: Double? = nil) throws -> BacktestResult {
        precondition(range.upperBound == prefix.count, "prefix must end where the range ends")
        if let backtest { return try backtest(combo, prefix, range, cache, initialCash) }
        var prefix = prefix, range = range
        if let window {  // the prefix of the window is the end of the series' prefix
            let end = window.start + range.upperBound
            prefix = end == window.series.count ? window.series : window.series.slice(0..<end)
            range = window.start + range.lowerBound..<end
        }
        let all = try signals!(prefix, cache, combo)
        var config = try config(of: combo)
        if let initialCash { config.initialCash = initialCash }
        return try Engine.run(Engine.Request(CandleWindow(prefix, start: range.lowerBound), signals: all, config: config, cache: cache))
    }
}
