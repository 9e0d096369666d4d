import BacktestCore
import Foundation

/// Evaluates many parameter combinations on one candle series, in parallel, streaming rows so
/// memory does not grow with the number of combinations.
///
/// Combinations run in chunks on all cores; each chunk's rows are handed to `consume` in
/// combination order before the next chunk starts. What is kept across the whole sweep is
/// O(combinations) numbers (the rank statistic per combination, for heatmaps) plus the CSCV block
/// statistics of at most `maxOverfittingTrials` trials.
public struct Sweep {
    /// One evaluated combination.
    public struct Row: Sendable {
        /// Index into the caller's list of combinations.
        public var combo: Int
        public var stats: SweepStats?
        /// Why the combination could not run (bad parameters for this data, ...).
        public var error: String?
        /// CSCV's per-block sums and sums of squares of the returns, for the combinations in
        /// PBO's subsample.
        package var blockSums: [Double]?
        package var blockSquares: [Double]?
        /// CPCV's per-segment sums and sums of squares (`CPCVSelection`), likewise.
        package var cvSums: [Double]?
        package var cvSquares: [Double]?

        package init(combo: Int, stats: SweepStats? = nil, error: String? = nil,
                     blockSums: [Double]? = nil, blockSquares: [Double]? = nil) {
            self.combo = combo; self.stats = stats; self.error = error
            self.blockSums = blockSums; self.blockSquares = blockSquares
        }
    }

    /// What the sweep found, beyond the streamed rows.
    public struct Summary: Sendable {
        /// Combinations evaluated, and how many failed.
        public var evaluated = 0
        public var failed = 0
        /// Why the first failed combination failed.
        public var firstError: String?
        /// The best successful combination by the rank statistic, and its statistics.
        public var best: Int?
        public var bestStats: SweepStats?
        /// The rank statistic of every combination, by combination index (NaN: failed or undefined).
        public var rankValues: [Double]
        /// The top rows by the rank statistic, best first.
        public var top: [Row] = []
        /// Sample variance of the per-period Sharpe ratios of the successful trials.
        public var sharpeVariance = Double.nan
        /// Probability of backtest overfitting, when computed.
        public var overfitting: CSCV.Result?
        /// Trials that entered CSCV (all, or an evenly spaced subsample of a huge sweep).
        public var overfittingTrials = 0
        /// Why PBO was not computed, when it was not.
        public var overfittingNote: String?
        /// The selection under combinatorial purged cross-validation, with `cv`.
        public var cpcv: CPCVSelection.Result?
    }

    /// One of `SweepStats.columns`.
    public var rankStat: Stat
    public var chunkSize = 512
    public var topCount = 20
    /// CSCV blocks; 0 turns PBO off.
    public var overfittingBlocks = 16
    /// Above this many combinations, PBO uses an evenly spaced subsample of this many trials
    /// (CSCV costs O(C(S,S/2) x trials x S)).
    public var maxOverfittingTrials = 5_000
    /// Combinatorial purged cross-validation of the selection (on the trials CSCV takes), if any.
    public var cv: CombinatorialPurgedCV?

    /// - Parameter rankStat: one of `SweepStats.columns` (`SweepStats.stat(named:)` checks a name).
    public init(rankStat: Stat) {
        precondition(rankStat.sweepColumn != nil, "a sweep does not compute '\(rankStat)'")
        self.rankStat = rankStat
    }

    /// Runs `combinations` combinations through `evaluator` on `candles`.
    /// - Parameters:
    ///   - consume: called serially with each chunk's rows, in combination order.
    ///   - progress: called with the number of combinations done.
    public func run(combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                    progress: ((Int) -> Void)? = nil,
                    consume: ([Row]) throws -> Void) throws -> Summary {
        var summary = Summarizer(self, combinations: combinations, length: candles.count)
        try evaluate(combinations: combinations, evaluator: evaluator, candles: candles, progress: progress) { rows in
            summary.add(rows)
            try consume(rows)
        }
        return summary.finish()
    }

    /// Evaluates the combinations numbered `numbers` (ascending; nil: all) of a sweep of
    /// `combinations`, in chunks on all cores, handing each chunk's rows to `consume` in order.
    /// Rows carry what `Summarizer` needs (the CSCV block statistics of the combinations in PBO's
    /// subsample), so a sweep split into shards summarises exactly as one that ran whole.
    public func evaluate(_ numbers: [Int]? = nil, combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                         progress: ((Int) -> Void)? = nil, consume: ([Row]) throws -> Void) throws {
        if let numbers {
            precondition(numbers.allSatisfy { $0 >= 0 && $0 < combinations }, "combination number out of range")
            precondition(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "combination numbers must ascend")
        }
        let context = rowContext(combinations: combinations, candles: candles)
        let total = numbers?.count ?? combinations
        var start = 0
        while start < total {
            let end = min(total, start + chunkSize)
            try consume(rows(numbers.map { Array($0[start..<end]) } ?? Array(start..<end), evaluator: evaluator, candles: candles,
                             context: context))
            progress?(end)
            start = end
        }
    }

    /// What evaluating the combinations of one sweep shares: the indicator cache, and the
    /// CSCV and CPCV splits whose statistics the rows of PBO's subsample carry.
    package struct RowContext: Sendable {
        let cache = IndicatorCache()
        let cscv: CSCV?
        let stride: Int
        let cpcv: CPCVSelection?
    }

    /// The context of a sweep of `combinations` on `candles`.
    package func rowContext(combinations: Int, candles: CandleSeries) -> RowContext {
        // Every combination at synthetic depth reads the series' spread pairs from the cache.
        RowContext(cscv: overfittingBlocks > 0 && combinations >= 2 ? try? CSCV(length: candles.count, blocks: overfittingBlocks) : nil,
                   stride: overfittingStride(combinations), cpcv: cv.map(CPCVSelection.init))
    }

    /// The rows of combinations `numbers`, run in parallel, in the order given: what `evaluate`
    /// hands on for each chunk, and a sequential search for each step.
    package func rows(_ numbers: [Int], evaluator: SweepEvaluator, candles: CandleSeries, context: RowContext) -> [Row] {
        let results = Parallel.map(count: numbers.count) { k -> Row in
            let combo = numbers[k]
            do {
                let result = try evaluator.run(combo, on: candles, cache: context.cache)
                let returns = ReturnStats.returns(equity: result.equity, initial: result.initialCash)
                var row = Row(combo: combo, stats: SweepStats(result, returns: returns,
                                                                periodsPerYear: evaluator.periodsPerYear))
                if let cscv = context.cscv, combo % context.stride == 0 {
                    let stats = returns.withUnsafeBufferPointer { cscv.blockStatistics(returns: $0) }
                    row.blockSums = stats.sums
                    row.blockSquares = stats.squares
                }
                if let cpcv = context.cpcv, combo % context.stride == 0 {
                    (row.cvSums, row.cvSquares) = returns.withUnsafeBufferPointer { cpcv.segmentStatistics(returns: $0) }
                }
                return row
            } catch {
                return Row(combo: combo, error: "\(error)")
            }
        }
        return results.enumerated().map { k, result -> Row in
            switch result {
            case .success(let row): return row
            case .failure(let error): return Row(combo: numbers[k], error: "\(error)")
            }
        }
    }

    /// Every `overfittingStride`-th combination enters CSCV.
    func overfittingStride(_ combinations: Int) -> Int {
        max(1, (combinations + maxOverfittingTrials - 1) / maxOverfittingTrials)
    }

    /// Builds a sweep's `Summary` from its rows, taken in combination order (the rows of one
    /// process, or of every shard's partial results merged back into order): best, top rows,
    /// rank values, the variance of the per-period Sharpe ratios and PBO. Every figure depends
    /// on the order of the rows only through the order of floating-point operations, which is
    /// always combination order, so the result is the same bit for bit however the sweep ran.
    public struct Summarizer {
        private let sweep: Sweep
        private let combinations: Int
        private var summary: Summary
        private var cscv: CSCV?
        private var cpcv: CPCVSelection?
        private var sharpeMean = 0.0, sharpeM2 = 0.0, sharpeCount = 0.0
        private var next = 0

        /// - Parameter length: bars of the candles the sweep runs on (CSCV's block boundaries).
        public init(_ sweep: Sweep, combinations: Int, length: Int) {
            self.sweep = sweep
            self.combinations = combinations
            summary = Summary(rankValues: [Double](repeating: .nan, count: combinations))
            cpcv = sweep.cv.map(CPCVSelection.init)
            if sweep.overfittingBlocks > 0 && combinations >= 2 {
                do {
                    cscv = try CSCV(length: length, blocks: sweep.overfittingBlocks)
                } catch {
                    summary.overfittingNote = "PBO not computed: \(error)"
                }
            }
        }

        /// Takes the next rows, in combination order.
        public mutating func add(_ rows: [Row]) {
            let stat = sweep.rankStat
            for row in rows {
                precondition(row.combo == next, "rows must come in combination order (expected \(next), got \(row.combo))")
                next += 1
                summary.evaluated += 1
                guard let m = row.stats else {
                    summary.failed += 1
                    if summary.firstError == nil { summary.firstError = row.error }
                    continue
                }
                let v = m[stat]
                summary.rankValues[row.combo] = v
                if v.isFinite {
                    if let best = summary.bestStats?[stat], !stat.ranks(v, before: best) {
                    } else {
                        summary.best = row.combo
                        summary.bestStats = m
                    }
                    sweep.insertTop(row, value: v, into: &summary.top)
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
                if let sums = row.cvSums, let squares = row.cvSquares {
                    cpcv?.add(combo: row.combo, sums: sums, squares: squares)
                }
            }
        }

        /// The summary once every row was added.
        public func finish() -> Summary {
            precondition(next == combinations, "\(combinations - next) of \(combinations) rows missing")
            var summary = self.summary
            summary.cpcv = cpcv?.evaluate()
            summary.sharpeVariance = sharpeCount > 1 ? sharpeM2 / (sharpeCount - 1) : .nan
            if let cscv {
                summary.overfittingTrials = cscv.trials
                do {
                    summary.overfitting = try cscv.evaluate()
                    if sweep.overfittingStride(combinations) > 1 {
                        summary.overfittingNote = "PBO on an evenly spaced subsample of \(cscv.trials) of \(combinations) combinations"
                    }
                } catch {
                    summary.overfittingNote = "PBO not computed: \(error)"
                }
            }
            return summary
        }
    }

    private func insertTop(_ row: Row, value: Double, into top: inout [Row]) {
        let stat = rankStat
        if top.count == topCount, let last = top.last?.stats?[stat], !stat.ranks(value, before: last) { return }
        var i = top.count
        while i > 0, let prev = top[i - 1].stats?[stat], stat.ranks(value, before: prev) { i -= 1 }
        top.insert(row, at: i)
        if top.count > topCount { top.removeLast() }
    }
}
