import BacktestCore

extension WalkForward {
    /// One fold's choice and outcome.
    public struct StepResult: Sendable {
        public var step: Step
        /// The combination chosen in-sample (nil when none could run there).
        public var chosen: Int?
        /// The rank metric of the chosen combination in-sample and out-of-sample.
        public var inSampleValue: Double
        public var outOfSampleValue: Double
    }

    /// In-sample and stitched out-of-sample outcome of a walk-forward optimisation.
    public struct Outcome: Sendable {
        public var steps: [StepResult]
        /// The chosen combinations on their in-sample folds, joined.
        public var inSample: BacktestResult?
        /// The chosen combinations on the following folds, joined: the honest equity curve.
        public var outOfSample: BacktestResult?
    }

    /// For each step: evaluate every combination on the in-sample fold (signals from the data up
    /// to the fold's end only), choose the best by `rankMetric`, then trade that combination on
    /// the next fold, starting flat with the equity the previous out-of-sample fold ended with
    /// (a fold where no combination could run in-sample stays in cash).
    /// A step's choice depends only on bars before its out-of-sample fold.
    public func run(combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                    rankMetric: Metric) throws -> Outcome {
        precondition(rankMetric.sweepColumn != nil, "a sweep does not compute '\(rankMetric)'")
        var results: [StepResult] = []
        var inParts: [BacktestResult] = [], outParts: [BacktestResult] = []
        var inCash = evaluator.config.initialCash, outCash = evaluator.config.initialCash
        for step in steps {
            let prefix = candles.slice(0..<step.inSample.upperBound)
            let cache = IndicatorCache()
            let values = Parallel.map(count: combinations) { combo -> Double in
                let r = try evaluator.run(combo, prefix: prefix, range: step.inSample, cache: cache)
                return RunMetrics(r, periodsPerYear: evaluator.periodsPerYear)[rankMetric]
            }
            var chosen: Int?, best = Double.nan
            for (combo, v) in values.enumerated() {
                guard case .success(let value) = v, value.isFinite else { continue }
                if chosen == nil || rankMetric.ranks(value, before: best) { chosen = combo; best = value }
            }
            var outValue = Double.nan
            if let chosen {
                let inResult = try evaluator.run(chosen, prefix: prefix, range: step.inSample, cache: cache,
                                                 initialCash: inCash)
                inCash = inResult.finalEquity
                inParts.append(inResult)
                let outPrefix = candles.slice(0..<step.outOfSample.upperBound)
                let outResult = try evaluator.run(chosen, prefix: outPrefix, range: step.outOfSample,
                                                  cache: IndicatorCache(), initialCash: outCash)
                outCash = outResult.finalEquity
                outParts.append(outResult)
                outValue = RunMetrics(outResult, periodsPerYear: evaluator.periodsPerYear)[rankMetric]
            } else {
                // Nothing could be chosen: stay in cash through the out-of-sample fold.
                let bars = candles.slice(step.outOfSample)
                let flat = [Double](repeating: outCash, count: bars.count)
                outParts.append(BacktestResult(
                    candles: bars, initialCash: outCash, cash: flat,
                    position: [Double](repeating: 0, count: bars.count), equity: flat,
                    trades: [], fills: [], rejected: [], ambiguousExitBars: 0))
            }
            results.append(StepResult(step: step, chosen: chosen, inSampleValue: best, outOfSampleValue: outValue))
        }
        return Outcome(steps: results, inSample: .stitched(inParts), outOfSample: .stitched(outParts))
    }
}
