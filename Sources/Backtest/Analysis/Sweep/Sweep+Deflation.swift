import BacktestCore

extension Sweep {
    /// The deflated Sharpe ratio of a sweep's best combination (Bailey and Lopez de Prado 2014).
    public struct Deflation: Sendable {
        /// The best combination's annualised and per-period Sharpe ratios.
        public var sharpe: Double
        public var periodSharpe: Double
        /// Successful trials: every combination that ran, not only the ones reported.
        public var trials: Int
        /// Variance of the per-period Sharpe ratios across the trials.
        public var sharpeVariance: Double
        /// The per-period Sharpe the best of `trials` unskilled strategies is expected to reach.
        public var expectedMaximum: Double
        public var observations: Int
        public var skew: Double
        /// Pearson kurtosis (3 for a normal).
        public var kurtosis: Double
        /// Probability that the best combination's true Sharpe is above zero after the correction.
        public var value: Double
    }

    /// The deflation of `summary.best`, re-running it for its return distribution. Nil when the
    /// sweep has no best combination.
    public static func deflation(of summary: Summary, evaluator: SweepEvaluator,
                                 candles: CandleSeries) throws -> Deflation? {
        guard let best = summary.best, let bestStats = summary.bestStats else { return nil }
        let result = try evaluator.run(best, on: candles, cache: IndicatorCache())
        let returns = ReturnStats.returns(equity: result.equity, initial: result.initialCash)
        let trials = summary.evaluated - summary.failed
        let variance = summary.sharpeVariance.isFinite ? summary.sharpeVariance : 0
        let skew = GSL.skew(returns), kurtosis = GSL.kurtosis(returns) + 3
        return Deflation(
            sharpe: bestStats[.sharpe], periodSharpe: bestStats.periodSharpe, trials: trials,
            sharpeVariance: variance,
            expectedMaximum: DeflatedSharpe.expectedMaximum(trials: trials, variance: variance),
            observations: returns.count, skew: skew, kurtosis: kurtosis,
            value: DeflatedSharpe.ratio(sharpe: bestStats.periodSharpe, trials: trials, sharpeVariance: variance,
                                        observations: returns.count, skew: skew, kurtosis: kurtosis))
    }
}
