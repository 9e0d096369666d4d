import Backtest
import Foundation

/// A portfolio of synthetic symbols (K=20, equal weight, monthly rebalance, synthetic depth),
/// for `bt bench portfolio`.
package enum PortfolioBenchmark {
    package struct Result: Sendable {
        /// Best of the runs, in seconds, and its parts.
        package var seconds: Double
        package var signals: Double, loop: Double, stats: Double
        /// Of the last run.
        package var rows: Int, fills: Int, trades: Int, skippedEntries: Int
    }

    /// Generates `count` synthetic daily series of `bars` bars (seed 1; not timed), then times,
    /// best of `repeats`: each symbol's signals of `strategy` and its liquidity settings on all
    /// cores, the portfolio loop and every statistic of the portfolio.
    package static func run(_ strategy: Strategy, symbols count: Int, bars: Int, repeats: Int) throws -> Result {
        let universe = Synth.universe(symbols: count, bars: bars, seed: 1, timeframe: .day1)
        let parameters = try strategy.parameters([])
        let rules = PortfolioRules(maxPositions: 20, weighting: .equal, rebalance: .monthly)
        let config = ExecutionConfig()
        var best = Double.infinity, parts = (signals: 0.0, loop: 0.0, stats: 0.0)
        var result: PortfolioResult?
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let symbols = try Parallel.map(count: universe.count) { j -> PortfolioSymbol in
                let candles = universe[j]
                var liquidity = config
                liquidity.synthetic.tick = candles.inferredTick
                return PortfolioSymbol(candles: candles, signals: try strategy.signals(candles, parameters), liquidity: liquidity)
            }.map { try $0.get() }
            let signalsDone = DispatchTime.now().uptimeNanoseconds
            let r = try Portfolio.run(symbols, rules: rules, config: config)
            let loopDone = DispatchTime.now().uptimeNanoseconds
            _ = Stats(r.account)
            let end = DispatchTime.now().uptimeNanoseconds
            let seconds = Double(end - start) / 1e9
            if seconds < best {
                best = seconds
                parts = (Double(signalsDone - start) / 1e9, Double(loopDone - signalsDone) / 1e9, Double(end - loopDone) / 1e9)
            }
            result = r
        }
        let r = result!
        return Result(seconds: best, signals: parts.signals, loop: parts.loop, stats: parts.stats, rows: r.time.count,
                      fills: r.fills.count, trades: r.trades.count, skippedEntries: r.skippedEntries)
    }
}
