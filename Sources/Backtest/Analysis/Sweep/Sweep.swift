import BacktestCore
import Foundation

/// Evaluates many parameter combinations on one candle series, in parallel, streaming rows so
/// memory does not grow with the number of combinations.
///
/// Combinations run in chunks on all cores; each chunk's rows are handed to `consume` in
/// combination order before the next chunk starts. What is kept across the whole sweep is
/// O(combinations) numbers (the rank metric per combination, for heatmaps) plus the CSCV block
/// statistics of at most `maxOverfittingTrials` trials.
public struct Sweep {
    /// One evaluated combination.
    public struct Row: Sendable {
        /// Index into the caller's list of combinations.
        public var combo: Int
        public var metrics: RunMetrics?
        /// Why the combination could not run (bad parameters for this data, ...).
        public var error: String?
        var blockSums: [Double]?
        var blockSquares: [Double]?
    }

    /// What the sweep found, beyond the streamed rows.
    public struct Summary: Sendable {
        /// Combinations evaluated, and how many failed.
        public var evaluated = 0
        public var failed = 0
        /// Why the first failed combination failed.
        public var firstError: String?
        /// The best successful combination by the rank metric, and its metrics.
        public var best: Int?
        public var bestMetrics: RunMetrics?
        /// The rank metric of every combination, by combination index (NaN: failed or undefined).
        public var rankValues: [Double]
        /// The top rows by the rank metric, best first.
        public var top: [Row] = []
        /// Sample variance of the per-period Sharpe ratios of the successful trials.
        public var sharpeVariance = Double.nan
        /// Probability of backtest overfitting, when computed.
        public var overfitting: CSCV.Result?
        /// Trials that entered CSCV (all, or an evenly spaced subsample of a huge sweep).
        public var overfittingTrials = 0
        /// Why PBO was not computed, when it was not.
        public var overfittingNote: String?
    }

    /// One of `RunMetrics.metrics`.
    public var rankMetric: Metric
    public var chunkSize = 512
    public var topCount = 20
    /// CSCV blocks; 0 turns PBO off.
    public var overfittingBlocks = 16
    /// Above this many combinations, PBO uses an evenly spaced subsample of this many trials
    /// (CSCV costs O(C(S,S/2) x trials x S)).
    public var maxOverfittingTrials = 5_000

    /// - Parameter rankMetric: one of `RunMetrics.metrics` (`RunMetrics.metric(named:)` checks a name).
    public init(rankMetric: Metric) {
        precondition(rankMetric.sweepColumn != nil, "a sweep does not compute '\(rankMetric)'")
        self.rankMetric = rankMetric
    }

    /// Runs `combinations` combinations through `evaluator` on `candles`.
    /// - Parameters:
    ///   - consume: called serially with each chunk's rows, in combination order.
    ///   - progress: called with the number of combinations done.
    public func run(combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                    progress: ((Int) -> Void)? = nil,
                    consume: ([Row]) throws -> Void) throws -> Summary {
        let cache = IndicatorCache()
        let metric = rankMetric
        var summary = Summary(rankValues: [Double](repeating: .nan, count: combinations))
        var cscv: CSCV?
        let stride: Int
        if overfittingBlocks > 0 && combinations >= 2 {
            do {
                cscv = try CSCV(length: candles.count, blocks: overfittingBlocks)
            } catch {
                summary.overfittingNote = "PBO not computed: \(error)"
            }
        }
        stride = max(1, (combinations + maxOverfittingTrials - 1) / maxOverfittingTrials)
        var sharpeMean = 0.0, sharpeM2 = 0.0, sharpeCount = 0.0
        var done = 0
        var start = 0
        while start < combinations {
            let end = min(combinations, start + chunkSize)
            let results = Parallel.map(count: end - start) { k -> Row in
                let combo = start + k
                do {
                    let result = try evaluator.run(combo, on: candles, cache: cache)
                    let returns = Performance.returns(equity: result.equity, initial: result.initialCash)
                    var row = Row(combo: combo, metrics: RunMetrics(result, returns: returns,
                                                                    periodsPerYear: evaluator.periodsPerYear))
                    if let cscv, combo % stride == 0 {
                        let stats = returns.withUnsafeBufferPointer { cscv.blockStatistics(returns: $0) }
                        row.blockSums = stats.sums
                        row.blockSquares = stats.squares
                    }
                    return row
                } catch {
                    return Row(combo: combo, error: "\(error)")
                }
            }
            let rows = results.enumerated().map { k, result -> Row in
                switch result {
                case .success(let row): return row
                case .failure(let error): return Row(combo: start + k, error: "\(error)")
                }
            }
            for row in rows {
                summary.evaluated += 1
                guard let m = row.metrics else {
                    summary.failed += 1
                    if summary.firstError == nil { summary.firstError = row.error }
                    continue
                }
                let v = m[metric]
                summary.rankValues[row.combo] = v
                if v.isFinite {
                    if let best = summary.bestMetrics?[metric], !metric.ranks(v, before: best) {
                    } else {
                        summary.best = row.combo
                        summary.bestMetrics = m
                    }
                    insertTop(row, value: v, into: &summary.top)
                }
                if m.periodSharpe.isFinite {
                    sharpeCount += 1
                    let delta = m.periodSharpe - sharpeMean
                    sharpeMean += delta / sharpeCount
                    sharpeM2 += delta * (m.periodSharpe - sharpeMean)
                }
                if let sums = row.blockSums, let squares = row.blockSquares {
                    cscv?.add(blockSums: sums, blockSquares: squares)
                }
            }
            try consume(rows)
            done = end
            progress?(done)
            start = end
        }
        summary.sharpeVariance = sharpeCount > 1 ? sharpeM2 / (sharpeCount - 1) : .nan
        if let cscv {
            summary.overfittingTrials = cscv.trials
            do {
                summary.overfitting = try cscv.evaluate()
                if stride > 1 {
                    summary.overfittingNote = "PBO on an evenly spaced subsample of \(cscv.trials) of \(combinations) combinations"
                }
            } catch {
                summary.overfittingNote = "PBO not computed: \(error)"
            }
        }
        return summary
    }

    private func insertTop(_ row: Row, value: Double, into top: inout [Row]) {
        let metric = rankMetric
        if top.count == topCount, let last = top.last?.metrics?[metric], !metric.ranks(value, before: last) { return }
        var i = top.count
        while i > 0, let prev = top[i - 1].metrics?[metric], metric.ranks(value, before: prev) { i -= 1 }
        top.insert(row, at: i)
        if top.count > topCount { top.removeLast() }
    }
}
