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
    }

    /// Times `Uncertainty.sharpeInterval` (default settings: 1,000 resamples, mean block length
    /// round(n^(1/3))) on `count` seeded Gaussian daily returns, `runs` times after one warm-up call.
    package static func run(count: Int = 5_000, runs: Int = 20) -> Result {
        precondition(count > 0 && runs > 0, "count and runs must be positive")
        let rng = GSL.Random(seed: 2024)
        let returns = (0..<count).map { _ in 0.0004 + rng.gaussian(sigma: 0.01) }
        _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252)
        var times = [Double]()
        for _ in 0..<runs {
            let t0 = DispatchTime.now().uptimeNanoseconds
            _ = Uncertainty.sharpeInterval(returns, periodsPerYear: 252)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        return Result(returns: count, runs: runs, median: GSL.quantile(times, 0.5), best: times.min()!)
    }
}
