import Backtest
import Foundation

/// Timing of the statistics that dominate a screen, for `bt bench stats`.
package enum StatsBenchmark {
    package struct Result: Sendable {
        package var returns: Int
        package var runs: Int
        /// Milliseconds per `Uncertainty.sharpeInterval` call with the standard bootstrap.
        package var median: Double
        package var best: Double
        /// Milliseconds to draw the blocks of every resample once (`Uncertainty.ResampleBlocks`).
        package var drawBlocks: Double
        /// Milliseconds per call summing blocks drawn before, as each symbol of a screen after
        /// the first of its length does.
        package var sharedMedian: Double
        package var sharedBest: Double
        /// Milliseconds per call reading the generator's outputs from a tape drawn before, as a
        /// screen's symbols of lengths whose blocks are not kept do.
        package var tapeMedian: Double
        package var tapeBest: Double
    }

    /// Times `Uncertainty.sharpeInterval` (default settings: 1,000 resamples, mean block length
    /// round(n^(1/3))) on `count` seeded Gaussian daily returns, `runs` times after one warm-up call;
    /// then drawing the blocks once and the interval from them (a screen's symbols of one length),
    /// and the interval from a tape of the generator's outputs drawn before (symbols of other lengths).
    package static func run(count: Int = 5_000, runs: Int = 20) -> Result {
        precondition(count > 0 && runs > 0, "count and runs must be positive")
        let rng = GSL.Random(seed: 2024)
        let returns = (0..<count).map { _ in 0.0004 + rng.gaussian(sigma: 0.01) }
        /// Milliseconds of each of `runs` calls of `body`.
        func timed(_ body: () -> Void) -> [Double] {
            (0..<runs).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                return BenchWorkloads.seconds(since: start) * 1_000
            }
        }
        _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252)
        let times = timed { _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252) }
        let start = DispatchTime.now().uptimeNanoseconds
        let blocks = Uncertainty.ResampleBlocks(seriesCount: count)
        let drawBlocks = BenchWorkloads.seconds(since: start) * 1_000
        let shared = timed { _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252, blocks: blocks) }
        let tape = GSL.DrawTape(seed: Uncertainty.Bootstrap.standard.seed)
        _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252, bootstrap: .standard, tape: tape)
        let taped = timed { _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252, bootstrap: .standard, tape: tape) }
        return Result(returns: count, runs: runs, median: GSL.quantile(times, 0.5), best: times.min()!,
                      drawBlocks: drawBlocks, sharedMedian: GSL.quantile(shared, 0.5), sharedBest: shared.min()!,
                      tapeMedian: GSL.quantile(taped, 0.5), tapeBest: taped.min()!)
    }
}
