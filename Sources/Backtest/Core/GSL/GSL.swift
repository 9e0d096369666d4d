import CGSL
import Foundation

/// The one place bt calls the GNU Scientific Library.
///
/// GSL's default error handler aborts the process; `GSL.prepare()` turns it off once, and every
/// call that returns a status is checked and mapped to `GSLError`.
package enum GSL {
    /// Turns off GSL's aborting error handler. Idempotent; called by every entry point below.
    @inline(__always)
    static func prepare() { _ = handlerOff }

    private static let handlerOff: Void = { _ = gsl_set_error_handler_off() }()

    /// Throws `GSLError` when `status` is not `GSL_SUCCESS`.
    static func check(_ status: Int32, _ what: String) throws {
        guard status == GSL_SUCCESS else {
            throw GSLError(status: status, function: what)
        }
    }

    // MARK: - Descriptive statistics

    /// Arithmetic mean (`gsl_stats_mean`); NaN for an empty sample.
    package static func mean(_ x: [Double]) -> Double {
        prepare()
        guard !x.isEmpty else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    }

    /// Sample standard deviation (n-1) about a known `mean` (`gsl_stats_sd_m`): with the
    /// `mean` from `GSL.mean`, the same value as `standardDeviation(_:)`. NaN below two values.
    package static func standardDeviation(_ x: [Double], mean: Double) -> Double {
        prepare()
        guard x.count > 1 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_sd_m($0.baseAddress, 1, $0.count, mean) }
    }

    /// Plain sum (`gsl_vector_sum` over a view of `x`, in order, in double); 0 when empty.
    ///
    /// With `totalSumOfSquares`, the mean and spread of long series where `gsl_stats_mean` and
    /// `gsl_stats_sd_m` are too slow: both divide at every element (`m += (x - m) / (i + 1)`, in
    /// long double), a chain of dependent divisions that was more than half of a sweep's time.
    package static func sum(_ x: UnsafeBufferPointer<Double>) -> Double {
        prepare()
        guard let base = x.baseAddress, !x.isEmpty else { return 0 }
        var view = gsl_vector_const_view_array(base, x.count)
        return gsl_vector_sum(&view.vector)
    }

    /// Total sum of squares about `mean`, sum of (x - mean)^2 (`gsl_stats_tss_m`: accumulated in
    /// long double, no division); 0 when empty.
    package static func totalSumOfSquares(_ x: UnsafeBufferPointer<Double>, mean: Double) -> Double {
        prepare()
        guard let base = x.baseAddress, !x.isEmpty else { return 0 }
        return gsl_stats_tss_m(base, 1, x.count, mean)
    }

    /// Sample standard deviation with the n-1 denominator (`gsl_stats_sd`); NaN below two values.
    package static func standardDeviation(_ x: [Double]) -> Double {
        prepare()
        guard x.count > 1 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_sd($0.baseAddress, 1, $0.count) }
    }

    /// Sample skewness (`gsl_stats_skew`): mean of ((x - mean) / sd)^3 with the n-1 sd; NaN below three values.
    package static func skew(_ x: [Double]) -> Double {
        prepare()
        guard x.count > 2 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_skew($0.baseAddress, 1, $0.count) }
    }

    /// Excess kurtosis (`gsl_stats_kurtosis`): mean of ((x - mean) / sd)^4 minus 3, n-1 sd; NaN below four values.
    package static func kurtosis(_ x: [Double]) -> Double {
        prepare()
        guard x.count > 3 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_kurtosis($0.baseAddress, 1, $0.count) }
    }

    /// `skew(_:)` from the data's `GSL.mean` and `standardDeviation(_:mean:)` already computed
    /// (`gsl_stats_skew_m_sd`, which `gsl_stats_skew` calls with those two): the same bits.
    package static func skew(_ x: [Double], mean: Double, sd: Double) -> Double {
        prepare()
        guard x.count > 2 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_skew_m_sd($0.baseAddress, 1, $0.count, mean, sd) }
    }

    /// `kurtosis(_:)` from the data's mean and standard deviation already computed
    /// (`gsl_stats_kurtosis_m_sd`, as `gsl_stats_kurtosis` calls it): the same bits.
    package static func kurtosis(_ x: [Double], mean: Double, sd: Double) -> Double {
        prepare()
        guard x.count > 3 else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_kurtosis_m_sd($0.baseAddress, 1, $0.count, mean, sd) }
    }

    /// `skew(_:mean:sd:)` and `kurtosis(_:mean:sd:)` in one pass over `x` instead of one each:
    /// GSL's two recurrences (`m += (z^k - m) / (i + 1)` with z = (x - mean) / sd in double, m
    /// in `long double`) side by side, to the bit: on x86-64 `long double` is `Float80`; elsewhere
    /// GSL's own functions are called.
    package static func skewAndKurtosis(_ x: [Double], mean: Double, sd: Double) -> (skew: Double, kurtosis: Double) {
        #if arch(x86_64) && !os(Windows)
        return x.withUnsafeBufferPointer { skewAndKurtosis($0, mean: mean, sd: sd) }
        #else
        return (skew(x, mean: mean, sd: sd), kurtosis(x, mean: mean, sd: sd))
        #endif
    }

    #if arch(x86_64) && !os(Windows)
    /// `skewAndKurtosis(_:mean:sd:)` of a buffer: the pass of both recurrences.
    private static func skewAndKurtosis(_ data: UnsafeBufferPointer<Double>, mean: Double, sd: Double) -> (skew: Double, kurtosis: Double) {
        let n = data.count
        guard n > 2 else { return (.nan, .nan) }
        var skew: Float80 = 0, fourth: Float80 = 0
        for i in 0..<n {
            let z = Float80((data[i] - mean) / sd)
            let count = Float80(i + 1)
            skew += (z * z * z - skew) / count
            fourth += (z * z * z * z - fourth) / count
        }
        return (Double(skew), n > 3 ? Double(fourth - 3.0) : .nan)
    }
    #endif

    /// The moments of `y` (`mean`, `standardDeviation(_:mean:)` about it, `skewAndKurtosis`)
    /// and the least-squares line of `y` on `x(i)` (`line`, nil where it throws), each to the
    /// bit, in three passes over the data instead of six: each GSL recurrence is a chain of
    /// dependent divisions, bound by their latency, so the independent chains run side by side
    /// in one loop for about the cost of one. Pass one: `gsl_stats_mean` (long double) beside
    /// the line's two means (double); pass two: `gsl_stats_sd_m`'s variance (long double, about
    /// the mean rounded to double) beside the line's two sums of products; pass three: the skew
    /// and the kurtosis. On x86-64 `long double` is `Float80`; elsewhere GSL's functions are called.
    /// - Complexity: O(n), no allocation.
    package static func momentsAndLine(count n: Int, x: (Int) -> Double, y: UnsafeBufferPointer<Double>)
        -> (mean: Double, sd: Double, skew: Double, kurtosis: Double, line: (intercept: Double, slope: Double)?) {
        precondition(y.count == n, "momentsAndLine: one y per x")
        #if arch(x86_64) && !os(Windows)
        guard n > 0 else { return (.nan, .nan, .nan, .nan, nil) }
        var mean80: Float80 = 0, meanX = 0.0, meanY = 0.0
        for i in 0..<n {
            let u = x(i), v = y[i]
            mean80 += (Float80(v) - mean80) / Float80(i + 1)
            let count = Double(i) + 1.0
            meanX += (u - meanX) / count
            meanY += (v - meanY) / count
        }
        let mean = Double(mean80)
        guard n > 1 else { return (mean, .nan, .nan, .nan, nil) }
        var variance: Float80 = 0, dx2 = 0.0, dxdy = 0.0
        for i in 0..<n {
            let u = x(i), v = y[i]
            let delta = Float80(v - mean)
            variance += (delta * delta - variance) / Float80(i + 1)
            let dx = u - meanX, dy = v - meanY
            let count = Double(i) + 1.0
            dx2 += (dx * dx - dx2) / count
            dxdy += (dx * dy - dxdy) / count
        }
        let sd = (Double(variance) * (Double(n) / Double(n - 1))).squareRoot()
        let slope = dxdy / dx2
        let intercept = meanY - meanX * slope
        let moments = skewAndKurtosis(y, mean: mean, sd: sd)
        return (mean, sd, moments.skew, moments.kurtosis, intercept.isFinite && slope.isFinite ? (intercept, slope) : nil)
        #else
        let values = Array(y), average = Self.mean(values)
        let sd = standardDeviation(values, mean: average)
        return (average, sd, skew(values, mean: average, sd: sd), kurtosis(values, mean: average, sd: sd), try? line(count: n, x: x, y: y))
        #endif
    }

    /// Pearson correlation (`gsl_stats_correlation`); NaN when the lengths differ or below two values.
    package static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        prepare()
        guard x.count == y.count, x.count > 1 else { return .nan }
        return x.withUnsafeBufferPointer { xb in
            y.withUnsafeBufferPointer { yb in gsl_stats_correlation(xb.baseAddress, 1, yb.baseAddress, 1, xb.count) }
        }
    }

    /// A sorted copy (`gsl_sort`, ascending; NaNs are the caller's to remove).
    package static func sorted(_ x: [Double]) -> [Double] {
        prepare()
        var s = x
        s.withUnsafeMutableBufferPointer { gsl_sort($0.baseAddress, 1, $0.count) }
        return s
    }

    /// The `f` quantile (0...1) of already sorted data (`gsl_stats_quantile_from_sorted_data`):
    /// linear interpolation between order statistics, numpy's default. NaN when empty.
    package static func quantile(sorted x: [Double], _ f: Double) -> Double {
        prepare()
        precondition((0...1).contains(f), "quantile must be in 0...1")
        guard !x.isEmpty else { return .nan }
        return x.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, f) }
    }

    /// The `f` quantile of unsorted data (sorts a copy with `gsl_sort`).
    package static func quantile(_ x: [Double], _ f: Double) -> Double {
        quantile(sorted: sorted(x), f)
    }

    /// The median (`gsl_stats_median`: the middle order statistic, or the mean of the two
    /// middle ones, found by selection in O(n) on a copy, not by sorting). NaN when empty.
    /// - Precondition: no NaN in `x`.
    package static func median(_ x: [Double]) -> Double {
        prepare()
        guard !x.isEmpty else { return .nan }
        var scratch = x
        return scratch.withUnsafeMutableBufferPointer { gsl_stats_median($0.baseAddress, 1, $0.count) }
    }

    /// The `f` quantile of unsorted data, as `quantile(sorted:)` gives it on the sorted data, and
    /// the mean (`mean`) of the values at or below it in ascending order, as of that prefix of
    /// the sorted data (NaN when none): the same bits, without sorting all of it. The order
    /// statistic just above the quantile's is found by `gsl_stats_select` (O(n)); only the values
    /// at or below it, a prefix of the sorted data, are sorted (`f` x n of them).
    /// - Precondition: no NaN in `x` (as for `sorted`).
    package static func lowerTail(_ x: [Double], _ f: Double) -> (quantile: Double, mean: Double) {
        prepare()
        precondition((0...1).contains(f), "quantile must be in 0...1")
        let n = x.count
        guard n > 0 else { return (.nan, .nan) }
        // gsl_stats_quantile_from_sorted_data reads the order statistics lhs and lhs + 1.
        let index = f * Double(n - 1)
        let lhs = Int(index)
        var scratch = x
        let bound = scratch.withUnsafeMutableBufferPointer { gsl_stats_select($0.baseAddress, 1, n, Swift.min(lhs + 1, n - 1)) }
        let prefix = sorted(x.filter { $0 <= bound })
        // The interpolation of gsl_stats_quantile_from_sorted_data (statistics/quantiles_source.c).
        let value: Double
        if lhs == n - 1 {
            value = prefix[lhs]
        } else {
            let delta = index - Double(lhs)
            value = (1 - delta) * prefix[lhs] + delta * prefix[lhs + 1]
        }
        let tail = prefix.prefix { $0 <= value }
        return (value, tail.isEmpty ? .nan : mean(Array(tail)))
    }

    // MARK: - Regression

    /// Least-squares line y = intercept + slope x (`gsl_fit_linear`).
    package struct LinearFit: Sendable, Equatable {
        package var intercept: Double
        package var slope: Double
        /// Residual sum of squares.
        package var sumSquares: Double
    }

    /// Fits y = c0 + c1 x by ordinary least squares; throws `GSLError` when GSL reports a failure
    /// (e.g. constant x) and when the lengths differ or there are fewer than two points.
    package static func fitLinear(x: [Double], y: [Double]) throws -> LinearFit {
        prepare()
        guard x.count == y.count, x.count > 1 else { throw GSLError(status: Int32(GSL_EBADLEN), function: "gsl_fit_linear") }
        var c0 = 0.0, c1 = 0.0, cov00 = 0.0, cov01 = 0.0, cov11 = 0.0, ss = 0.0
        let status = x.withUnsafeBufferPointer { xb in
            y.withUnsafeBufferPointer { yb in
                gsl_fit_linear(xb.baseAddress, 1, yb.baseAddress, 1, xb.count, &c0, &c1, &cov00, &cov01, &cov11, &ss)
            }
        }
        try check(status, "gsl_fit_linear")
        guard c0.isFinite, c1.isFinite else { throw GSLError(status: Int32(GSL_EZERODIV), function: "gsl_fit_linear") }
        return LinearFit(intercept: c0, slope: c1, sumSquares: ss)
    }

    /// The intercept and slope of `fitLinear` (`gsl_fit_linear`'s arithmetic, to the bit), with
    /// `x(i)` computed as it is read rather than stored, and without the residual sum of squares:
    /// two passes over the data instead of three.
    /// - Throws: as `fitLinear`.
    package static func line(count n: Int, x: (Int) -> Double, y: UnsafeBufferPointer<Double>) throws -> (intercept: Double, slope: Double) {
        guard y.count == n, n > 1 else { throw GSLError(status: Int32(GSL_EBADLEN), function: "gsl_fit_linear") }
        var meanX = 0.0, meanY = 0.0
        for i in 0..<n {
            let count = Double(i) + 1.0
            meanX += (x(i) - meanX) / count
            meanY += (y[i] - meanY) / count
        }
        var dx2 = 0.0, dxdy = 0.0
        for i in 0..<n {
            let dx = x(i) - meanX, dy = y[i] - meanY
            let count = Double(i) + 1.0
            dx2 += (dx * dx - dx2) / count
            dxdy += (dx * dy - dxdy) / count
        }
        let slope = dxdy / dx2
        let intercept = meanY - meanX * slope
        guard intercept.isFinite, slope.isFinite else { throw GSLError(status: Int32(GSL_EZERODIV), function: "gsl_fit_linear") }
        return (intercept, slope)
    }

    // MARK: - Normal distribution

    /// Standard normal CDF, P(Z <= z) (`gsl_cdf_ugaussian_P`).
    package static func normalCDF(_ z: Double) -> Double {
        prepare()
        return gsl_cdf_ugaussian_P(z)
    }

    /// Standard normal quantile, the z with P(Z <= z) = p (`gsl_cdf_ugaussian_Pinv`).
    package static func normalQuantile(_ p: Double) -> Double {
        prepare()
        return gsl_cdf_ugaussian_Pinv(p)
    }

    /// Standard normal density, the derivative of `normalCDF` (`gsl_ran_ugaussian_pdf`).
    package static func normalPDF(_ z: Double) -> Double {
        prepare()
        return gsl_ran_ugaussian_pdf(z)
    }

    // MARK: - Linear algebra

    /// The Cholesky factor L of a symmetric positive-definite matrix A = L L^T
    /// (`gsl_linalg_cholesky_decomp1`), for solving with A many times.
    package struct Cholesky: Sendable {
        package let size: Int
        /// Row-major n x n: L in the lower triangle and diagonal (GSL writes L^T above it).
        private var factor: [Double]

        /// Factors the row-major `size` x `size` symmetric `matrix` (only its lower triangle is read).
        /// - Complexity: O(n^3 / 3).
        /// - Throws: `GSLError` (`GSL_EDOM`) when the matrix is not positive definite.
        package init(symmetric matrix: [Double], size: Int) throws {
            GSL.prepare()
            precondition(size > 0 && matrix.count == size * size, "cholesky: the matrix must be size x size")
            var a = matrix
            let status = a.withUnsafeMutableBufferPointer { p in
                var view = gsl_matrix_view_array(p.baseAddress, size, size)
                return gsl_linalg_cholesky_decomp1(&view.matrix)
            }
            try GSL.check(status, "gsl_linalg_cholesky_decomp1")
            self.size = size
            factor = a
        }

        /// log det A = 2 sum log L_ii.
        package var logDeterminant: Double {
            (0..<size).reduce(0.0) { $0 + 2 * Foundation.log(factor[$1 * size + $1]) }
        }

        /// x with A x = b (`gsl_linalg_cholesky_solve`).
        package func solve(_ b: [Double]) throws -> [Double] {
            precondition(b.count == size, "cholesky: the right-hand side must have size elements")
            var x = [Double](repeating: 0, count: size)
            var l = factor, rhs = b
            let status = l.withUnsafeMutableBufferPointer { lp in
                rhs.withUnsafeMutableBufferPointer { bp in
                    x.withUnsafeMutableBufferPointer { xp in
                        var lv = gsl_matrix_view_array(lp.baseAddress, size, size)
                        var bv = gsl_vector_view_array(bp.baseAddress, size)
                        var xv = gsl_vector_view_array(xp.baseAddress, size)
                        return gsl_linalg_cholesky_solve(&lv.matrix, &bv.vector, &xv.vector)
                    }
                }
            }
            try GSL.check(status, "gsl_linalg_cholesky_solve")
            return x
        }

        /// X with L X = B, for the row-major `size` x `columns` matrix `b` (`gsl_blas_dtrsm`,
        /// lower, not transposed): column j of X is L^-1 b_j, so its squared norm is
        /// b_j^T A^-1 b_j.
        package func lowerSolve(_ b: [Double], columns: Int) throws -> [Double] {
            precondition(columns > 0 && b.count == size * columns, "cholesky: the right-hand sides must be size x columns")
            var l = factor, x = b
            let status = l.withUnsafeMutableBufferPointer { lp in
                x.withUnsafeMutableBufferPointer { xp in
                    var lv = gsl_matrix_view_array(lp.baseAddress, size, size)
                    var xv = gsl_matrix_view_array(xp.baseAddress, size, columns)
                    return gsl_blas_dtrsm(CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1, &lv.matrix, &xv.matrix)
                }
            }
            try GSL.check(status, "gsl_blas_dtrsm")
            return x
        }
    }

    // MARK: - Histograms

    /// Counts of `x` in `bins` equal-width bins over `lower..<upper` (`gsl_histogram`); the upper
    /// edge is included in the last bin, NaNs and values outside are ignored.
    package static func histogram(_ x: [Double], bins: Int, lower: Double, upper: Double) throws -> [Double] {
        prepare()
        precondition(bins > 0, "bins must be positive")
        guard lower < upper, lower.isFinite, upper.isFinite else {
            throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_histogram_set_ranges_uniform")
        }
        guard let h = gsl_histogram_alloc(bins) else { throw GSLError(status: Int32(GSL_ENOMEM), function: "gsl_histogram_alloc") }
        defer { gsl_histogram_free(h) }
        try check(gsl_histogram_set_ranges_uniform(h, lower, upper), "gsl_histogram_set_ranges_uniform")
        for v in x where v.isFinite {
            // GSL's ranges are half-open; put the maximum itself into the last bin.
            let status = gsl_histogram_increment(h, v == upper ? upper.nextDown : v)
            if status != Int32(GSL_EDOM) { try check(status, "gsl_histogram_increment") }
        }
        return (0..<bins).map { gsl_histogram_get(h, $0) }
    }

    // MARK: - Random numbers

    /// A seeded Mersenne Twister (`gsl_rng_mt19937`): the same seed gives the same numbers everywhere.
    package final class Random {
        /// Inlinable draws reach it from other modules: a sweep draws millions per second.
        @usableFromInline let rng: UnsafeMutablePointer<gsl_rng>

        package init(seed: UInt) {
            GSL.prepare()
            guard let r = gsl_rng_alloc(bt_gsl_rng_mt19937()) else { fatalError("gsl_rng_alloc failed") }
            // `UniformInt` relies on the Mersenne Twister's range.
            precondition(gsl_rng_min(r) == 0 && gsl_rng_max(r) == UInt(UInt32.max), "mt19937 range changed")
            rng = r
            gsl_rng_set(r, seed)
        }

        deinit { gsl_rng_free(rng) }

        /// Uniform on [0, 1).
        @inlinable package func uniform() -> Double { gsl_rng_uniform(rng) }

        /// Uniform integer in 0..<n.
        @inlinable package func int(below n: Int) -> Int { Int(truncatingIfNeeded: gsl_rng_uniform_int(rng, UInt(n))) }

        /// `gsl_rng_get`: the generator's next raw output (the Mersenne Twister's 32 bits).
        @inlinable package func next32() -> UInt32 { UInt32(truncatingIfNeeded: gsl_rng_get(rng)) }

        /// `gsl_rng_uniform_int` for a prepared `n` (`UniformInt`): the same draws.
        @inlinable package func int(_ u: UniformInt) -> Int {
            var draws = RawDraws(self)
            return u.draw(&draws)
        }

        /// Gaussian with mean 0 and standard deviation `sigma` (Box-Muller-free ziggurat).
        @inlinable package func gaussian(sigma: Double = 1) -> Double { gsl_ran_gaussian_ziggurat(rng, sigma) }

        /// Student-t with `nu` degrees of freedom: fat-tailed shocks.
        package func studentT(nu: Double) -> Double { gsl_ran_tdist(rng, nu) }

        /// Lognormal: `exp(zeta + sigma * N(0, 1))` (`gsl_ran_lognormal`).
        package func lognormal(zeta: Double, sigma: Double) -> Double { gsl_ran_lognormal(rng, zeta, sigma) }

        /// Geometric on 1, 2, 3, ...: the number of Bernoulli(`p`) trials up to and including the
        /// first success, P(k) = p (1 - p)^(k-1), mean 1/p (`gsl_ran_geometric`). Always 1 when p = 1.
        @inlinable package func geometric(p: Double) -> Int {
            precondition(p > 0 && p <= 1, "geometric: p must be in (0, 1]")
            return Int(gsl_ran_geometric(rng, p))
        }

        /// `gsl_ran_geometric` for a prepared `p` (`Geometric`): the same draws, most of them
        /// without a logarithm.
        @inlinable package func geometric(_ g: Geometric) -> Int {
            var draws = RawDraws(self)
            return g.draw(&draws)
        }

        /// True with probability `p` (`gsl_ran_bernoulli`).
        @inlinable package func bernoulli(_ p: Double) -> Bool { gsl_ran_bernoulli(rng, p) == 1 }
    }
}

/// A GSL call failed with a status code.
package struct GSLError: Error, CustomStringConvertible, Sendable {
    package var status: Int32
    package var function: String
    package var description: String {
        let text = gsl_strerror(status).map { String(cString: $0) } ?? "status \(status)"
        return "\(function): \(text)"
    }
}
