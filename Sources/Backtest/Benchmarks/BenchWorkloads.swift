import Backtest
import Foundation

/// Set-ups shared by the timed benches (`bt bench sweep`, `expr`, `screen`) and the counted ones
/// (`bt bench kernel`), so that a count and a time measure the same work. The strategy is given
/// by the caller (bt passes the built-in ma-cross, which lives above this layer).
package enum BenchWorkloads {
    /// Every pair fast < slow of the SMA windows {5..50} and {20, 25, ..., 200}: 76 windows,
    /// 2,850 combinations (the vectorbt anchor grid).
    package static let anchorPairs: [(Int, Int)] = {
        let windows = Array(Set(Array(5...50) + Array(Swift.stride(from: 20, through: 200, by: 5)))).sorted()
        var pairs: [(Int, Int)] = []
        for f in windows { for s in windows where f < s { pairs.append((f, s)) } }
        return pairs
    }()

    /// ma-cross 10/30 written as expressions (`bt bench expr` against the built-in).
    package static func expressionMACross() throws -> Strategy {
        try Strategy.expressions(
            [.entry: "cross_above(sma(close, $fast), sma(close, $slow))",
             .exit: "cross_below(sma(close, $fast), sma(close, $slow))"],
            parameters: ["fast=10", "slow=30"])
    }

    /// The default execution at `depth`, with the spread floor's tick inferred from the prices as
    /// `bt run` does once per run (the engine benches do it outside the timed part).
    package static func engineConfig(_ depth: ExecutionConfig.Depth, candles: CandleSeries) -> ExecutionConfig {
        var config = ExecutionConfig()
        config.depth = depth
        config.synthetic.tick = candles.inferredTick
        return config
    }

    /// The exits and entries the orders benches attach to ma-cross 10/30: a limit entry 0.03%
    /// under the signal bar's close working 3 bars, a 0.2% stop, half taken at +0.3% and the
    /// rest at +0.6%, a 0.25% trailing stop, out after 60 bars (distances for the synthetic 1m
    /// bars, where each kind ends trades: on 1M bars 8,648 trades, 6,947 by signal, 927 trailed,
    /// 413 timed out, 260 stopped, 101 at the target). The working-entry and exit paths of the
    /// one execution core (`Engine.simulateWithOrders`), at depth none.
    package static func ordersConfig(candles: CandleSeries) throws -> ExecutionConfig {
        var config = engineConfig(.none, candles: candles)
        let texts: [(Setting, String)] = [(.entryLimit, "close * 0.9997"), (.orderBars, "3"), (.stopLoss, "0.2%"),
                                          (.takeProfit, "0.3%@50%"), (.takeProfit, "0.6%"), (.trail, "0.25%"), (.exitAfter, "60")]
        try OrderSettings(texts.map { OrderSettings.Item($0.0, $0.1, origin: .setting($0.0)) }).apply(to: &config)
        return config
    }

    /// A leveraged perpetual (docs/design/orders.md, "Margin" and "Funding") on the engine benches'
    /// bars: 10x cross margin, 500% of equity a position, maintenance 0.5%, a 0.2% stop (so
    /// positions live through funding times), depth none, and a funding row every 8 hours of
    /// the bars' span (00:00, 08:00, 16:00 UTC as Binance's), the rate cycling through ±0.01%
    /// and ±0.03%: every bar of a position runs the account's events (`Broker.settleOpen`,
    /// `closeAccount`), a funding row settles every 480 one-minute bars.
    package static func perpConfig(candles: CandleSeries) throws -> ExecutionConfig {
        var config = engineConfig(.none, candles: candles)
        config.instrument = .perp
        config.leverage = 10
        config.sizing = .equityFraction(5)
        config.mmr = 0.005
        config.stopLoss = 0.002
        guard let first = candles.time.first, let last = candles.time.last else { return config }
        let period: Int64 = 8 * 3600, start = (first / period) * period
        let rates = [0.0001, 0.0003, -0.0001, -0.0003]
        config.funding = Swift.stride(from: start, through: last, by: Int(period)).enumerated().map { k, t in
            FundingRate(timeMs: t * 1000, rate: rates[k % rates.count])
        }
        return config
    }

    /// Fees 10 bps, depth none: the sweeps' execution.
    static var sweepConfig: ExecutionConfig {
        var config = ExecutionConfig()
        config.depth = .none
        config.feeBps = 10
        return config
    }

    /// A Sharpe-ranked sweep without the overfitting blocks.
    package static var sweep: Sweep {
        var sweep = Sweep(rankStat: .sharpe)
        sweep.overfittingBlocks = 0
        return sweep
    }

    /// The evaluator of `strategy` (parameters `fast` and `slow`) over `pairs`, daily bars.
    package static func evaluator(_ strategy: Strategy, pairs: [(Int, Int)]) throws -> SweepEvaluator {
        let defaults = try strategy.parameters([])
        let parameters = try pairs.map { fast, slow in try Self.parameters(defaults, fast: Double(fast), slow: Double(slow)) }
        return SweepEvaluator(config: sweepConfig, periodsPerYear: 252) { candles, cache, combo in
            try strategy.signals(candles, parameters[combo], cache: cache)
        }
    }

    /// The evaluator of `strategy` with combination `combo` the windows `pair(combo)` (a search
    /// that chooses them as it goes), daily bars.
    package static func evaluator(_ strategy: Strategy, pair: @escaping @Sendable (Int) -> (fast: Double, slow: Double)) throws
    -> SweepEvaluator {
        let defaults = try strategy.parameters([])
        return SweepEvaluator(config: sweepConfig, periodsPerYear: 252) { candles, cache, combo in
            let (fast, slow) = pair(combo)
            return try strategy.signals(candles, try Self.parameters(defaults, fast: fast, slow: slow), cache: cache)
        }
    }

    private static func parameters(_ defaults: StrategyParameters, fast: Double, slow: Double) throws -> StrategyParameters {
        var p = defaults
        try p.set("fast", to: fast)
        try p.set("slow", to: slow)
        return p
    }

    /// `count` synthetic daily series of `bars` bars (seed 1) stored at `db`, and the `strategy`
    /// screen `bt bench screen` times over them (synthetic depth, every statistic, reports), its
    /// errors worded by `reword`.
    package static func screen(_ strategy: Strategy, symbols count: Int, bars: Int, db: String, commandLine: [String],
                              reword: @escaping @Sendable (Error) -> Error) throws -> (run: ScreenRun, symbols: [String]) {
        try Synth.validate(symbols: count, bars: bars, timeframe: .day1)
        let universe = Synth.universe(symbols: count, bars: bars, seed: 1, timeframe: .day1)
        _ = try CandleStore(path: db).write(universe.map { ImportedFile.generated($0, source: "bench") })
        var run = ScreenRun(strategy: strategy, parameters: try strategy.parameters([]),
                            screen: Screen(rankStat: .sharpe), periodsPerYear: nil, top: 20,
                            commandLine: commandLine, execution: [])
        run.reword = reword
        return (run, universe.map(\.symbol))
    }

    /// One screen into `directory` (prepared fresh); the report.
    package static func runScreen(_ run: ScreenRun, symbols: [String], db: String, directory: String) throws -> ScreenReport {
        try OutputDirectory.prepare(directory, force: true)
        return try run.run(symbols: symbols, databasePath: db, directory: directory) { symbol, store in
            (CandleWindow(try store.load(symbol: symbol)), ExecutionConfig())
        }
    }

    /// Seconds since `start` (a `DispatchTime` uptime in nanoseconds).
    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
