import BacktestCore

extension WalkForward {
    /// One fold's choice and outcome.
    public struct StepResult: Sendable {
        public var step: Step
        /// The combination chosen in-sample (nil when none could run there).
        public var chosen: Int?
        /// The rank statistic of the chosen combination in-sample and out-of-sample.
        public var inSampleValue: Double
        public var outOfSampleValue: Double
    }

    /// In-sample and stitched out-of-sample outcome of a walk-forward optimisation.
    public struct Outcome: Sendable {
        public var steps: [StepResult]
        /// The chosen combinations on their in-sample folds, joined.
        public var inSample: BacktestResult?
        /// The chosen combinations on the following folds, joined: the honest equity curve.
        public var outOfSample: BacktestResult? {
            didSet { outOfSampleDrawdowns = outOfSample.map(DrawdownEpisodes.init) }
        }
        /// The drawdowns of `outOfSample`, for the reports to draw.
        public private(set) var outOfSampleDrawdowns: DrawdownEpisodes?

        /// `outOfSample` with its drawdowns, nil without it.
        public var outOfSampleRun: (result: BacktestResult, drawdowns: DrawdownEpisodes)? {
            guard let outOfSample, let outOfSampleDrawdowns else { return nil }
            return (outOfSample, outOfSampleDrawdowns)
        }

        init(steps: [StepResult], inSample: BacktestResult?, outOfSample: BacktestResult?) {
            self.steps = steps
            self.inSample = inSample
            self.outOfSample = outOfSample
            outOfSampleDrawdowns = outOfSample.map(DrawdownEpisodes.init)
        }
    }

    /// The best combination of one step's in-sample fold among those evaluated, and its rank
    /// statistic there; `combo` nil when none of them could run.
    public struct Choice: Sendable, Equatable {
        public var combo: Int?
        public var value: Double

        public init(combo: Int?, value: Double) {
            self.combo = combo
            self.value = value
        }

        public static let none = Choice(combo: nil, value: .nan)

        public static func == (a: Choice, b: Choice) -> Bool {
            a.combo == b.combo && a.value.bitPattern == b.value.bitPattern
        }

        /// The choice over the union of the combinations `choices` were made among: the best
        /// value, and among equal values the lowest combination number, which is the one a scan in
        /// combination order keeps.
        public static func best(of choices: [Choice], rankStat: Stat) -> Choice {
            var best = Choice.none
            for c in choices {
                guard let combo = c.combo else { continue }
                if let current = best.combo {
                    if rankStat.ranks(c.value, before: best.value) || (!rankStat.ranks(best.value, before: c.value) && combo < current) {
                        best = c
                    }
                } else {
                    best = c
                }
            }
            return best
        }
    }

    /// For each step: evaluate every combination on the in-sample fold (signals from the data up
    /// to the fold's end only), choose the best by `rankStat`, then trade that combination on
    /// the next fold, starting flat with the equity the previous out-of-sample fold ended with
    /// (a fold where no combination could run in-sample stays in cash).
    /// A step's choice depends only on bars before its out-of-sample fold.
    public func run(combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                    rankStat: Stat) throws -> Outcome {
        let choices = choose(combinations: combinations, evaluator: evaluator, candles: candles, rankStat: rankStat)
        return try trade(choices, evaluator: evaluator, candles: candles, rankStat: rankStat)
    }

    /// Each step's in-sample choice among the combinations numbered `numbers` (nil: all
    /// `combinations`): the first in combination order of those with the best defined value.
    /// Shards choose among their own combinations; `Choice.best(of:)` merges their choices.
    public func choose(_ numbers: [Int]? = nil, combinations: Int, evaluator: SweepEvaluator, candles: CandleSeries,
                       rankStat: Stat) -> [Choice] {
        precondition(rankStat.sweepColumn != nil, "a sweep does not compute '\(rankStat)'")
        return steps.map { step in
            let prefix = candles.slice(0..<step.inSample.upperBound)
            let cache = IndicatorCache()
            let count = numbers?.count ?? combinations
            let values = Parallel.map(count: count) { k -> Double in
                let r = try evaluator.run(numbers?[k] ?? k, prefix: prefix, range: step.inSample, cache: cache)
                return SweepStats(r, periodsPerYear: evaluator.periodsPerYear)[rankStat]
            }
            var choice = Choice.none
            for (k, v) in values.enumerated() {
                guard case .success(let value) = v, value.isFinite else { continue }
                if choice.combo == nil || rankStat.ranks(value, before: choice.value) {
                    choice = Choice(combo: numbers?[k] ?? k, value: value)
                }
            }
            return choice
        }
    }

    /// Trades each step's choice on its out-of-sample fold (and on its in-sample fold, for the
    /// stitched in-sample curve).
    public func trade(_ choices: [Choice], evaluator: SweepEvaluator, candles: CandleSeries,
                      rankStat: Stat) throws -> Outcome {
        precondition(choices.count == steps.count, "one choice per step")
        var results: [StepResult] = []
        var inParts: [BacktestResult] = [], outParts: [BacktestResult] = []
        var inCash = evaluator.config.initialCash, outCash = evaluator.config.initialCash
        for (step, choice) in zip(steps, choices) {
            var outValue = Double.nan
            if let chosen = choice.combo {
                let prefix = candles.slice(0..<step.inSample.upperBound)
                let inResult = try evaluator.run(chosen, prefix: prefix, range: step.inSample, cache: IndicatorCache(),
                                                 initialCash: inCash)
                inCash = inResult.finalEquity
                inParts.append(inResult)
                let outPrefix = candles.slice(0..<step.outOfSample.upperBound)
                let outResult = try evaluator.run(chosen, prefix: outPrefix, range: step.outOfSample,
                                                  cache: IndicatorCache(), initialCash: outCash)
                outCash = outResult.finalEquity
                outParts.append(outResult)
                outValue = SweepStats(outResult, periodsPerYear: evaluator.periodsPerYear)[rankStat]
            } else {
                // Nothing could be chosen: stay in cash through the out-of-sample fold.
                let bars = candles.slice(step.outOfSample)
                let flat = [Double](repeating: outCash, count: bars.count)
                outParts.append(BacktestResult(
                    candles: bars, initialCash: outCash, cash: flat,
                    position: [Double](repeating: 0, count: bars.count), equity: flat,
                    trades: [], fills: [], rejected: [], ambiguousExitBars: 0))
            }
            results.append(StepResult(step: step, chosen: choice.combo, inSampleValue: choice.value, outOfSampleValue: outValue))
        }
        return Outcome(steps: results, inSample: .stitched(inParts), outOfSample: .stitched(outParts))
    }
}
