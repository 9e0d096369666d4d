import BacktestCore
import Foundation

/// The statistics of a return series, defined exactly as empyrical (empyrical-reloaded 0.7.1,
/// `empyrical/stats.py`) defines them, with the risk-free rate and required return at 0.
///
/// The returns are simple per-period returns (r_t = e_t / e_{t-1} - 1, `returns(equity:initial:)`),
/// flat periods included; `periodsPerYear` is empyrical's `annualization`. One pass over the
/// series keeps what every measure needs, so a caller that wants several (a stats table,
/// thousands of sweep combinations) reads the returns a few times instead of once per measure.
/// Mean and standard deviation come from GSL's sums: the mean is `gsl_vector_sum / n`, the sd
/// `sqrt(gsl_stats_tss_m / (n - 1))` (two passes, the second about the mean), not
/// `gsl_stats_mean` and `gsl_stats_sd_m`, whose division at every element was more than half of
/// a sweep's time; they agree to about 1e-15 relative.
/// - Complexity: O(n), no allocation.
public struct ReturnStats: Sendable {
    /// Simple returns of `equity`, anchored at `initial`: r_0 = e_0 / initial - 1, then
    /// r_t = e_t / e_{t-1} - 1 (0 after a bar at 0). The result has `equity.count` elements, so
    /// compounding it gives final / initial exactly (up to rounding).
    public static func returns(equity: [Double], initial: Double) -> [Double] {
        let n = equity.count
        return equity.withUnsafeBufferPointer { e in
            [Double](unsafeUninitializedCapacity: n) { out, count in
                var previous = initial
                for i in 0..<n {
                    let value = e[i]
                    out[i] = previous == 0 ? 0 : value / previous - 1
                    previous = value
                }
                count = n
            }
        }
    }

    public let count: Int
    /// Arithmetic mean and sample standard deviation (n-1); NaN when undefined.
    public let mean: Double
    public let standardDeviation: Double
    /// True when every return is the same value (empyrical then treats the sd as exactly 0).
    public let isConstant: Bool
    /// prod(1 + r).
    public let growth: Double
    /// Largest drawdown as a negative fraction, the peak starting at 1 before the first return
    /// (empyrical `max_drawdown`); NaN when empty.
    public let maxDrawdown: Double
    let downsideSquares: Double
    let gains: Double
    let losses: Double

    public init(_ returns: [Double]) {
        count = returns.count
        let (mean, squares) = returns.withUnsafeBufferPointer { r -> (Double, Double) in
            let m = GSL.sum(r) / Double(r.count)
            return (m, r.count > 1 ? GSL.totalSumOfSquares(r, mean: m) : .nan)
        }
        self.mean = returns.isEmpty ? .nan : mean
        standardDeviation = returns.count > 1 ? (squares / Double(returns.count - 1)).squareRoot() : .nan
        var value = 1.0, peak = 1.0, worst = Double.infinity
        var range = (lo: Double.infinity, hi: -Double.infinity)
        var down = 0.0, gains = 0.0, losses = 0.0
        returns.withUnsafeBufferPointer { r in
            // Two passes: the compounded value is a chain of dependent multiplies, and keeping
            // the range and the sums out of its loop lets them run four lanes wide.
            (range, down, gains, losses) = Self.rangeAndSums(r)
            // The drawdown (value - peak) / peak is non-decreasing in value for a fixed peak, and
            // so is its rounded result: the worst one while a peak stands is that of the lowest
            // value, so it is divided once per peak instead of once per period (same result bit
            // for bit as the per-period minimum). A NaN value is skipped, as Swift.min/max do.
            var low = Double.infinity
            for i in 0..<r.count {
                value *= 1 + r[i]
                if value > peak {
                    if low < peak { worst = Swift.min(worst, (low - peak) / peak) }
                    peak = value
                    low = .infinity
                } else {
                    low = Swift.min(low, value)
                }
            }
            if low < peak { worst = Swift.min(worst, (low - peak) / peak) }
            if worst == .infinity { worst = 0 }
        }
        let (lo, hi) = range
        isConstant = lo == hi
        growth = value
        maxDrawdown = returns.isEmpty ? .nan : worst
        downsideSquares = down
        self.gains = gains
        self.losses = losses
    }

    /// The smallest and largest return (NaN skipped) and the sums of squared losses, losses
    /// (as a positive number) and gains, four lanes at a time (each sum's lanes added at the end,
    /// so a sum differs from the one-by-one sum by rounding alone).
    private static func rangeAndSums(_ r: UnsafeBufferPointer<Double>)
        -> (range: (lo: Double, hi: Double), down: Double, gains: Double, losses: Double) {
        typealias V = SIMD4<Double>
        var lo = V(repeating: .infinity), hi = V(repeating: -.infinity)
        var down = V(), gains = V(), losses = V()
        let zero = V()
        let n = r.count, wide = n / 4 * 4
        if let base = r.baseAddress {
            let raw = UnsafeRawPointer(base)
            var i = 0
            while i < wide {
                let x = raw.loadUnaligned(fromByteOffset: i &* 8, as: V.self)
                lo = lo.replacing(with: x, where: x .< lo)
                hi = hi.replacing(with: x, where: x .> hi)
                let negative = zero.replacing(with: x, where: x .< zero), positive = zero.replacing(with: x, where: x .> zero)
                down += negative * negative
                losses -= negative
                gains += positive
                i &+= 4
            }
        }
        var l = lo.min(), h = hi.max()
        var d = down.sum(), g = gains.sum(), s = losses.sum()
        for i in wide..<n {
            let x = r[i]
            l = Swift.min(l, x); h = Swift.max(h, x)
            let negative = x < 0 ? x : 0, positive = x > 0 ? x : 0
            d += negative * negative; s -= negative; g += positive
        }
        return ((l, h), d, g, s)
    }

    /// Compound annual growth rate: (prod(1 + r)) ^ (periodsPerYear / n) - 1
    /// (empyrical `annual_return`/`cagr`, num_years = n / periodsPerYear). NaN when empty.
    public func cagr(periodsPerYear: Double) -> Double {
        guard count > 0 else { return .nan }
        return pow(growth, 1 / (Double(count) / periodsPerYear)) - 1
    }

    /// Annualised volatility: sample sd (n-1) x sqrt(periodsPerYear) (empyrical
    /// `annual_volatility`, alpha 2). NaN below two returns.
    public func annualVolatility(periodsPerYear: Double) -> Double {
        standardDeviation * periodsPerYear.squareRoot()
    }

    /// Sharpe ratio: mean / sd(n-1) x sqrt(periodsPerYear) (empyrical `sharpe_ratio`, risk-free 0).
    /// A constant series has sd exactly 0 (empyrical's `_zero_dispersion_std`), giving +-inf or NaN.
    /// NaN below two returns.
    public func sharpe(periodsPerYear: Double) -> Double {
        guard count > 1 else { return .nan }
        let sd = isConstant ? 0 : standardDeviation
        return mean / sd * periodsPerYear.squareRoot()
    }

    /// Downside deviation below 0: sqrt(mean(min(r, 0)^2)) x sqrt(periodsPerYear)
    /// (empyrical `downside_risk`; the mean runs over all periods, not only the losing ones).
    public func downsideRisk(periodsPerYear: Double) -> Double {
        guard count > 0 else { return .nan }
        return (downsideSquares / Double(count)).squareRoot() * periodsPerYear.squareRoot()
    }

    /// Sortino ratio: mean(r) x periodsPerYear / downside risk (empyrical `sortino_ratio`,
    /// required return 0). +inf with no losing period and a positive mean; NaN below two returns.
    public func sortino(periodsPerYear: Double) -> Double {
        guard count > 1 else { return .nan }
        return mean * periodsPerYear / downsideRisk(periodsPerYear: periodsPerYear)
    }

    /// Calmar ratio: CAGR / |max drawdown| (empyrical `calmar_ratio`); NaN without a drawdown
    /// or when infinite.
    public func calmar(periodsPerYear: Double) -> Double {
        guard maxDrawdown < 0 else { return .nan }
        let v = cagr(periodsPerYear: periodsPerYear) / abs(maxDrawdown)
        return v.isInfinite ? .nan : v
    }

    /// Omega ratio at a 0 threshold: sum of gains / sum of losses (empyrical `omega_ratio` with
    /// required_return 0, where the annualisation of the threshold cancels). NaN below two
    /// returns or without a loss.
    public var omega: Double {
        guard count > 1 else { return .nan }
        return losses > 0 ? gains / losses : .nan
    }
}
