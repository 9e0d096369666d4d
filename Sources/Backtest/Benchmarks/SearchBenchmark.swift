import Backtest
import Foundation

/// Random and Bayesian searches of the 2,850-combination space of `bt bench sweep` (the 76 SMA
/// windows as a list on both axes, `fast<slow`), for `bt bench sweep`.
package enum SearchBenchmark {
    package struct Result: Sendable {
        package var trials: Int
        /// Best of the runs, in seconds, drawing or choosing the combinations included.
        package var seconds: Double
        /// The best Sharpe ratio the search found (of the last run).
        package var bestSharpe: Double
        package var trialsPerSecond: Double { Double(trials) / seconds }
    }

    /// Trials of each search: a tenth of the space.
    package static let trials = 285

    static var space: SearchSpace {
        get throws {
            let windows = Array(Set(BenchWorkloads.anchorPairs.flatMap { [$0.0, $0.1] })).sorted().map(String.init).joined(separator: ",")
            return try SearchSpace(parsing: ["fast=" + windows, "slow=" + windows])
        }
    }

    static func filter(_ values: [String: Double]) -> Bool { values["fast"]! < values["slow"]! }

    /// The best of `repeats` random searches of `trials` combinations (seed 1) on `bars`
    /// synthetic daily bars (seed 1), evaluated as `SweepBenchmark` evaluates the grid.
    package static func random(_ strategy: Strategy, bars: Int, repeats: Int) throws -> Result {
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .day1)
        let space = try space
        return try timed(repeats) {
            let draws = try RandomSearch(trials: trials, seed: 1).draw(from: space, where: filter)
            let evaluator = try BenchWorkloads.evaluator(strategy) { combo in
                let v = draws.grid.values(at: draws.combos[combo])
                return (v[0], v[1])
            }
            let summary = try BenchWorkloads.sweep.run(combinations: trials, evaluator: evaluator, candles: candles) { _ in }
            return summary.bestStats?[.sharpe] ?? .nan
        }
    }

    /// The best of `repeats` Bayesian searches of `trials` combinations (seed 1), likewise: the
    /// model's fits and expected improvement included, so the rate falls as the trials grow.
    package static func bayes(_ strategy: Strategy, bars: Int, repeats: Int) throws -> Result {
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .day1)
        let space = try space
        return try timed(repeats) {
            let points = Locked<[[Double]]>([])
            let evaluator = try BenchWorkloads.evaluator(strategy) { combo in
                let v = points.withLock { $0[combo] }
                return (v[0], v[1])
            }
            let sweep = BenchWorkloads.sweep
            let context = sweep.rowContext(combinations: trials, candles: candles)
            let result = try BayesSearch(trials: trials, seed: 1).run(space: space, where: filter) { batch in
                let first = points.withLock { $0.append(contentsOf: batch); return $0.count - batch.count }
                return sweep.rows(Array(first..<first + batch.count), evaluator: evaluator, candles: candles, context: context)
                    .map { $0.stats?[.sharpe] ?? .nan }
            }
            return result.values.filter(\.isFinite).max() ?? .nan
        }
    }

    /// The fastest of `repeats` runs of `search`, which returns the best Sharpe found.
    private static func timed(_ repeats: Int, _ search: () throws -> Double) throws -> Result {
        var best = Double.infinity, sharpe = Double.nan
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            sharpe = try search()
            best = min(best, BenchWorkloads.seconds(since: start))
        }
        return Result(trials: trials, seconds: best, bestSharpe: sharpe)
    }
}
