import Backtest
import Foundation

/// A strategy's sweep over the 2,850 SMA window pairs of `BenchWorkloads.anchorPairs` (the
/// vectorbt anchor workload), for `bt bench sweep`.
package enum SweepBenchmark {
    package struct Result: Sendable {
        package var combinations: Int
        /// Best of the runs, in seconds.
        package var seconds: Double
        /// The best combination's Sharpe ratio (of the last run).
        package var bestSharpe: Double
    }

    /// The best of `repeats` sweeps of `strategy` over `bars` synthetic daily bars (seed 1), fees
    /// 10 bps, depth none, Sharpe ranked; generating the bars is not timed.
    package static func run(_ strategy: Strategy, bars: Int, repeats: Int) throws -> Result {
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .day1)
        let pairs = BenchWorkloads.anchorPairs
        let evaluator = try BenchWorkloads.evaluator(strategy, pairs: pairs)
        let sweep = BenchWorkloads.sweep
        var best = Double.infinity
        var bestSharpe = Double.nan
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: candles) { _ in }
            best = min(best, BenchWorkloads.seconds(since: start))
            bestSharpe = summary.bestStats?[.sharpe] ?? .nan
        }
        return Result(combinations: pairs.count, seconds: best, bestSharpe: bestSharpe)
    }
}
