import BacktestCore
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
    /// bootstrap (Politis and Romano 1994).
    ///
    /// Each resample of length n is a run of circular blocks: a block starts at a uniform index
    /// (`gsl_rng_uniform_int`) and its length is geometric with mean L (`gsl_ran_geometric`,
    /// p = 1/L), wrapping past the end; the last block is cut at n. This is the same process as
    /// stepping element by element and jumping to a new uniform index with probability 1/L, but
    /// costs two draws per block instead of two per element. A resample's Sharpe needs only its
    /// sum and sum of squares, which come from prefix sums (compensated, rounded once) of the
    /// returns shifted by their mean, so no resample is copied: the variance is
    /// `(Sxx - Sx^2/n) / (n - 1)` of the shifted values, where the shift keeps `Sxx` from
    /// cancelling. Resamples whose spread is zero to rounding (variance below 1e-10 of the mean
    /// square, i.e. constant) are dropped. Quantiles come from
    /// `gsl_stats_quantile_from_sorted_data`. NaNs when fewer than 3 returns, when a return is
    /// not finite, or when every resample is constant.
    /// - Complexity: O(n + resamples x n / L) time, O(resamples + n) memory.
    public static func sharpeInterval(_ returns: [Double], periodsPerYear: Double,
                                      bootstrap: Bootstrap = .standard) -> (low: Double, high: Double) {
        guard returns.count > 2, returns.allSatisfy(\.isFinite) else { return (.nan, .nan) }
        var draws = RawDraws(GSL.Random(seed: bootstrap.seed))
        return interval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap, draws: &draws)
    }

    /// `sharpeInterval(_:periodsPerYear:bootstrap:)` with the Mersenne Twister's outputs read
    /// from `tape` (drawn once for every series bootstrapped with the seed): the same interval,
    /// bit for bit. `tape.seed` must be `bootstrap.seed`.
    package static func sharpeInterval(_ returns: [Double], periodsPerYear: Double, bootstrap: Bootstrap,
                                       tape: GSL.DrawTape) -> (low: Double, high: Double) {
        precondition(tape.seed == bootstrap.seed, "sharpeInterval: the tape's seed is not the bootstrap's")
        guard returns.count > 2, returns.allSatisfy(\.isFinite) else { return (.nan, .nan) }
        var reader = RawDraws(tape)
        return interval(returns, periodsPerYear: periodsPerYear, bootstrap: bootstrap, draws: &reader)
    }

    /// The interval with the generator's raw outputs from `draws` (n > 2, every return finite).
    @inline(__always)
    private static func interval(_ returns: [Double], periodsPerYear: Double, bootstrap: Bootstrap,
                                 draws: inout RawDraws) -> (low: Double, high: Double) {
        let n = returns.count
        let resampler = Resampler(count: n, bootstrap: bootstrap)
        var interval = IntervalBuilder(returns, periodsPerYear: periodsPerYear, resamples: bootstrap.resamples)
        if n > longSeries {
            longSeriesResamples(into: &interval, resampler: resampler, draws: &draws, resamples: bootstrap.resamples)
        } else {
            interval.prefix.sums.withUnsafeBufferPointer { sums in
                for _ in 0..<bootstrap.resamples {
                    var total = SIMD2<Double>()
                    resampler.drawResample(&draws) { start, k in
                        total += ShiftedPrefixSums.block(sums, start: start, count: k)
                    }
                    interval.add(total)
                }
            }
        }
        return interval.finish(confidence: bootstrap.confidence)
    }

    /// Past this many returns the prefix sums outgrow L2, and resamples are summed as
    /// `longSeriesResamples` does.
    static let longSeries = 32_768

    /// A long series' resamples, 64 at a time: their blocks drawn in order (one generator),
    /// then summed on all cores, each resample's blocks in order, the Sharpe ratios added in
    /// resample order: the interval of drawing and summing one block at a time, bit for bit.
    /// Drawing a resample's blocks before summing them lets the sums' loads (two a block, at
    /// random places in main memory) go out together instead of each waiting behind the next
    /// block's draws: a 1,000,000-return interval took 1.12 s one block at a time, 0.70 s with
    /// the blocks drawn first on one core, and less on two (docs/guide/benchmarks.md).
    private static func longSeriesResamples(into interval: inout IntervalBuilder, resampler: Resampler,
                                            draws: inout RawDraws, resamples: Int) {
        let chunk = 64
        var run = BlockRun()
        var done = 0
        while done < resamples {
            let size = min(chunk, resamples - done)
            run.removeAll()
            run.draw(size, resampler, &draws)
            let totals = interval.prefix.sums.withUnsafeBufferPointer { sums in
                Parallel.map(count: size) { run.total($0, sums) }
            }
            for total in totals {
                switch total {
                case .success(let t): interval.add(t)
                case .failure: preconditionFailure("summing a resample cannot fail")
                }
            }
            done += size
        }
    }

    /// `sharpeInterval(_:periodsPerYear:bootstrap:)` with the resamples' blocks drawn before
    /// (`ResampleBlocks`, for this series' length): the same interval, bit for bit, without
    /// drawing them again for every series of that length.
    public static func sharpeInterval(_ returns: [Double], periodsPerYear: Double,
                                      blocks: ResampleBlocks) -> (low: Double, high: Double) {
        let n = returns.count
        precondition(n == blocks.seriesCount, "sharpeInterval: blocks drawn for \(blocks.seriesCount) returns, given \(n)")
        guard n > 2, returns.allSatisfy(\.isFinite) else { return (.nan, .nan) }
        var interval = IntervalBuilder(returns, periodsPerYear: periodsPerYear, resamples: blocks.bootstrap.resamples)
        interval.prefix.sums.withUnsafeBufferPointer { sums in
            for r in 0..<blocks.run.resamples { interval.add(blocks.run.total(r, sums)) }
        }
        return interval.finish(confidence: blocks.bootstrap.confidence)
    }

    /// The draws of the stationary block bootstrap for one series length: each resample a run
    /// of blocks with a uniform start and a geometric length, the last cut at n.
    struct Resampler {
        let count: Int
        let starts: GSL.UniformInt
        let geometric: GSL.Geometric

        init(count n: Int, bootstrap: Bootstrap) {
            count = n
            let length = bootstrap.meanBlockLength ?? max(1, cbrt(Double(n)).rounded())
            geometric = GSL.Geometric(p: 1 / max(1, length))
            starts = GSL.UniformInt(below: n)
        }

        /// Draws the next resample's blocks from the generator's raw outputs `draws`
        /// (`gsl_rng_uniform_int`, then `gsl_ran_geometric`, per block), giving each
        /// (start, length) to `block` in order.
        @inline(__always)
        func drawResample(_ draws: inout RawDraws, _ block: (Int, Int) -> Void) {
            var filled = 0
            while filled < count {
                let start = starts.draw(&draws)
                // At least 1 guards against GSL's unsigned overflow for an absurdly long mean.
                let k = min(max(1, geometric.draw(&draws)), count &- filled)
                block(start, k)
                filled &+= k
            }
        }

        /// About how many raw outputs `resamples` resamples take: two a block, n / L blocks
        /// and the last, cut one, a resample (rejections are rarer than 1 in 2^19).
        static func expectedDraws(seriesCount n: Int, bootstrap: Bootstrap) -> Int {
            2 * ResampleBlocks.expectedBlocks(seriesCount: n, bootstrap: bootstrap)
        }
    }

    /// A resample's Sharpe ratio from its shifted sums, then the percentile interval of them.
    struct IntervalBuilder {
        let prefix: ShiftedPrefixSums
        let center: Double, count: Double, annual: Double
        var sharpes: [Double] = []

        init(_ returns: [Double], periodsPerYear: Double, resamples: Int) {
            center = GSL.mean(returns)
            prefix = ShiftedPrefixSums(returns, shift: center)
            count = Double(returns.count)
            annual = periodsPerYear.squareRoot()
            sharpes.reserveCapacity(resamples)
        }

        /// Adds the Sharpe of a resample whose shifted (sum, sum of squares) is `total`; drops a
        /// constant one.
        @inline(__always)
        mutating func add(_ total: SIMD2<Double>) {
            let mean = total[0] / count
            let deviations = total[1] - total[0] * mean
            guard deviations > 1e-10 * total[1] else { return }
            sharpes.append((center + mean) / (deviations / (count - 1)).squareRoot() * annual)
        }

        func finish(confidence: Double) -> (low: Double, high: Double) {
            guard !sharpes.isEmpty else { return (.nan, .nan) }
            let sorted = GSL.sorted(sharpes)
            let tail = (1 - confidence) / 2
            return (GSL.quantile(sorted: sorted, tail), GSL.quantile(sorted: sorted, 1 - tail))
        }
    }

    /// Prefix sums of `x - shift` and `(x - shift)^2`, for O(1) sums over circular blocks.
    struct ShiftedPrefixSums {
        /// `sums[k]` is (sum, sum of squares) over indices `0..<k`; n + 1 entries.
        let sums: [SIMD2<Double>]

        /// Neumaier-compensated running sums, each prefix rounded once to Double.
        init(_ x: [Double], shift: Double) {
            var sums = [SIMD2<Double>](repeating: .zero, count: x.count + 1)
            var s = 0.0, sc = 0.0, q = 0.0, qc = 0.0
            for (i, v) in x.enumerated() {
                let d = v - shift
                Self.add(d, to: &s, compensation: &sc)
                Self.add(d * d, to: &q, compensation: &qc)
                sums[i + 1] = SIMD2(s + sc, q + qc)
            }
            self.sums = sums
        }

        @inline(__always)
        private static func add(_ v: Double, to s: inout Double, compensation c: inout Double) {
            let t = s + v
            c += abs(s) >= abs(v) ? (s - t) + v : (v - t) + s
            s = t
        }

        /// (sum, sum of squares) over `k` indices from `start`, wrapping past the end, where
        /// n = `sums.count - 1`, `0 <= start < n` and `1 <= k <= n`.
        @inline(__always)
        static func block(_ sums: UnsafeBufferPointer<SIMD2<Double>>, start: Int, count k: Int) -> SIMD2<Double> {
            let n = sums.count &- 1, end = start &+ k
            if end <= n { return sums[end] - sums[start] }
            return (sums[n] - sums[start]) + sums[end &- n]
        }
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
        let mean = GSL.mean(returns)
        return probabilisticSharpe(returns, mean: mean, sd: GSL.standardDeviation(returns, mean: mean))
    }

    /// `probabilisticSharpe(_:)` from the returns' `GSL.mean` and standard deviation about it,
    /// already computed: the same value, without passes over the returns for them again.
    static func probabilisticSharpe(_ returns: [Double], mean: Double, sd: Double) -> Double {
        guard returns.count > 3, sd > 0 else { return .nan }
        return probabilisticSharpe(sharpe: mean / sd, count: returns.count,
                                   skew: GSL.skew(returns, mean: mean, sd: sd), kurtosis: GSL.kurtosis(returns, mean: mean, sd: sd) + 3)
    }
}
