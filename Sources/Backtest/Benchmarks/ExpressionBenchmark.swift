import Backtest
import Foundation

/// A built-in strategy against ma-cross 10/30 written as expressions
/// (`BenchWorkloads.expressionMACross`): one run and the anchor sweep, for `bt bench expr`;
/// and the expression with a daily trend filter read with `@1d` against it without.
package enum ExpressionBenchmark {
    package struct Result: Sendable {
        /// Best single-run seconds of each.
        package var builtIn: Double, expression: Double
        /// Best single-run seconds of the expression with `and close > sma(close, 20)@1d` in its
        /// entry, the daily bars resampled from the run's in the timed part (as `bt run` does).
        package var filtered: Double
        /// Best sweep seconds of each.
        package var sweepBuiltIn: Double, sweepExpression: Double
        package var sweepCombinations: Int
    }

    /// Single runs (signals plus engine, depth none) on `bars` synthetic 1m bars, best of
    /// `repeats`; sweeps of `BenchWorkloads.anchorPairs` on `sweepBars` daily bars, best of
    /// min(3, `repeats`). Both strategies run on the same data in alternation.
    package static func run(builtIn: Strategy, bars: Int, repeats: Int, sweepBars: Int) throws -> Result {
        let expr = try BenchWorkloads.expressionMACross()

        // One run on many bars.
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1)
        var config = ExecutionConfig()
        config.depth = .none
        func single(_ s: Strategy) throws -> Double {
            let p = try s.parameters([])
            let start = DispatchTime.now().uptimeNanoseconds
            let signals = try s.signals(candles, p)
            _ = try Engine.run(Engine.Request(candles, signals: signals, config: config))
            return BenchWorkloads.seconds(since: start)
        }
        // The filter's rules are parsed once, as the expression's are; each run reads its daily
        // bars through a reader of its own (resampled, aligned and their indicators computed in
        // the timed part, as each `bt run` does), while the workspaces' buffers are reused in
        // both, so the two differ by the filter alone.
        let rules = try dailyFilterRules()
        func filtered() throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            let s = rules.reading(OtherSeriesReader(OwnSeries(candles: candles)))
            let signals = try s.signals(candles, try s.parameters([]))
            _ = try Engine.run(Engine.Request(candles, signals: signals, config: config))
            return BenchWorkloads.seconds(since: start)
        }
        var best = (builtIn: Double.infinity, expr: Double.infinity, filtered: Double.infinity)
        for _ in 0..<repeats {
            best.builtIn = min(best.builtIn, try single(builtIn))
            best.expr = min(best.expr, try single(expr))
            best.filtered = min(best.filtered, try filtered())
        }

        // The sweep of 'bt bench sweep'.
        let sweepCandles = Synth.series(symbol: "BENCH", bars: sweepBars, seed: 1, timeframe: .day1)
        let pairs = BenchWorkloads.anchorPairs
        let sweep = BenchWorkloads.sweep
        func sweepSeconds(_ s: Strategy) throws -> Double {
            let evaluator = try BenchWorkloads.evaluator(s, pairs: pairs)
            let start = DispatchTime.now().uptimeNanoseconds
            let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: sweepCandles) { _ in }
            let seconds = BenchWorkloads.seconds(since: start)
            guard summary.failed == 0 else { throw InternalError("bench expr: \(summary.failed) combinations failed") }
            return seconds
        }
        var sweepBest = (builtIn: Double.infinity, expr: Double.infinity)
        for _ in 0..<min(3, repeats) {
            sweepBest.builtIn = min(sweepBest.builtIn, try sweepSeconds(builtIn))
            sweepBest.expr = min(sweepBest.expr, try sweepSeconds(expr))
        }
        return Result(builtIn: best.builtIn, expression: best.expr, filtered: best.filtered, sweepBuiltIn: sweepBest.builtIn,
                      sweepExpression: sweepBest.expr, sweepCombinations: pairs.count)
    }
}

extension ExpressionBenchmark {
    /// ma-cross 10/30 as expressions, entering only while the close is above the 20-day average,
    /// its daily bars resampled from `candles` by a reader of its own (as each `bt run` has).
    package static func dailyFilter(reading candles: CandleSeries) throws -> Strategy {
        try dailyFilterRules().reading(OtherSeriesReader(OwnSeries(candles: candles)))
    }

    /// The rules of `dailyFilter(reading:)`, reading no series yet.
    static func dailyFilterRules() throws -> Strategy {
        try Strategy.expressions(
            [.entry: "cross_above(sma(close, $fast), sma(close, $slow)) and close > sma(close, 20)@1d",
             .exit: "cross_below(sma(close, $fast), sma(close, $slow))"],
            parameters: ["fast=10", "slow=30"]
        )
    }

    /// The run's own candles as the only series `@` reads, resampled to UTC calendar buckets as
    /// the store does for a series without a session.
    private struct OwnSeries: OtherSeriesSource {
        let candles: CandleSeries
        func candles(symbol: String, timeframe: Timeframe) throws -> CandleSeries? {
            symbol == candles.symbol ? candles.resampled(to: timeframe) : nil
        }
        func keys() throws -> [String] { [] }
    }
}
