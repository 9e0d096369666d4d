import Foundation

/// Uncertainty of the Sharpe ratio: stationary block bootstrap interval and probabilistic Sharpe.
public enum Uncertainty {
    /// Settings for `sharpeInterval`.
    public struct Bootstrap: Sendable, Equatable {
        /// Number of resampled series (at least 1,000 for a usable 95% percentile interval).
        public var resamples: Int
        /// Seed of the GSL Mersenne Twister, so intervals are reproducible.
        public var seed: UInt
        /// Two-sided coverage of the interval.
        public var confidence: Double
        /// Mean block length; nil chooses round(n^(1/3)) (at least 1), the usual rate for
        /// block bootstraps of a mean (Politis and White 2004 give the optimal length growing
        /// as n^(1/3)); it keeps short-range autocorrelation while leaving many blocks.
        public var meanBlockLength: Double?

        public init(resamples: Int = 1_000, seed: UInt = 42, confidence: Double = 0.95, meanBlockLength: Double? = nil) {
            precondition(resamples > 0, "resamples must be positive")
            precondition(confidence > 0 && confidence < 1, "confidence must be in (0, 1)")
            self.resamples = resamples; self.seed = seed; self.confidence = confidence
            self.meanBlockLength = meanBlockLength
        }

        public static let standard = Bootstrap()
    }

    /// Percentile confidence interval of the annualised Sharpe ratio from a stationary block
    /// bootstrap (Politis and Romano 1994): each resample starts at a uniform index and, at every
    /// step, continues the current block (wrapping around the end) with probability 1 - 1/L or
    /// jumps to a new uniform index with probability 1/L, so block lengths are geometric with
    /// mean L. Quantiles come from `gsl_stats_quantile_from_sorted_data`. Resamples whose Sharpe
    /// is undefined (constant) are dropped. NaNs when fewer than 3 returns.
    /// - Complexity: O(resamples x n) time, O(resamples + n) memory.
    public static func sharpeInterval(_ returns: [Double], periodsPerYear: Double,
                                      bootstrap: Bootstrap = .standard) -> (low: Double, high: Double) {
        let n = returns.count
        guard n > 2 else { return (.nan, .nan) }
        let length = bootstrap.meanBlockLength ?? max(1, cbrt(Double(n)).rounded())
        let jump = 1 / max(1, length)
        let rng = GSL.Random(seed: bootstrap.seed)
        var sample = [Double](repeating: 0, count: n)
        var sharpes = [Double]()
        sharpes.reserveCapacity(bootstrap.resamples)
        let annual = periodsPerYear.squareRoot()
        for _ in 0..<bootstrap.resamples {
            var j = rng.int(below: n)
            sample.withUnsafeMutableBufferPointer { out in
                returns.withUnsafeBufferPointer { src in
                    for i in 0..<n {
                        out[i] = src[j]
                        if rng.uniform() < jump { j = rng.int(below: n) } else { j += 1; if j == n { j = 0 } }
                    }
                }
            }
            let sd = GSL.standardDeviation(sample)
            guard sd > 0 else { continue }
            sharpes.append(GSL.mean(sample) / sd * annual)
        }
        guard !sharpes.isEmpty else { return (.nan, .nan) }
        let sorted = GSL.sorted(sharpes)
        let tail = (1 - bootstrap.confidence) / 2
        return (GSL.quantile(sorted: sorted, tail), GSL.quantile(sorted: sorted, 1 - tail))
    }

    /// Probabilistic Sharpe ratio (Bailey and Lopez de Prado 2012, "The Sharpe Ratio Efficient
    /// Frontier", eq. 9): the probability that the true per-period Sharpe exceeds `benchmark`,
    ///
    ///     PSR = Phi( (SR - SR*) sqrt(n - 1) / sqrt(1 - g3 SR + (g4 - 1) / 4 SR^2) )
    ///
    /// with SR the per-period (not annualised) Sharpe, g3 the skewness and g4 the kurtosis
    /// (not excess: normal = 3). Phi is `gsl_cdf_ugaussian_P`. NaN when undefined.
    public static func probabilisticSharpe(sharpe: Double, count n: Int, skew: Double, kurtosis: Double,
                                           benchmark: Double = 0) -> Double {
        guard n > 1, sharpe.isFinite, skew.isFinite, kurtosis.isFinite else { return .nan }
        let variance = 1 - skew * sharpe + (kurtosis - 1) / 4 * sharpe * sharpe
        guard variance > 0 else { return .nan }
        return GSL.normalCDF((sharpe - benchmark) * Double(n - 1).squareRoot() / variance.squareRoot())
    }

    /// PSR against 0 of a return series, with GSL's sample skew and kurtosis (excess + 3).
    public static func probabilisticSharpe(_ returns: [Double]) -> Double {
        guard returns.count > 3 else { return .nan }
        let sd = GSL.standardDeviation(returns)
        guard sd > 0 else { return .nan }
        return probabilisticSharpe(sharpe: GSL.mean(returns) / sd, count: returns.count,
                                   skew: GSL.skew(returns), kurtosis: GSL.kurtosis(returns) + 3)
    }
}
