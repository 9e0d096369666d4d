import Foundation

/// Return-based performance measures, defined exactly as empyrical (empyrical-reloaded 0.7.1,
/// `empyrical/stats.py`) defines them, with the risk-free rate and required return at 0.
///
/// `returns` are simple per-period returns (r_t = e_t / e_{t-1} - 1), flat periods included;
/// `periodsPerYear` is empyrical's `annualization`. Every function is O(n) and allocation-light.
public enum Performance {
    /// Simple returns of `equity`, anchored at `initial`: r_0 = e_0 / initial - 1, then
    /// r_t = e_t / e_{t-1} - 1. The result has `equity.count` elements, so compounding it
    /// gives final / initial exactly (up to rounding).
    public static func returns(equity: [Double], initial: Double) -> [Double] {
        var out = [Double](repeating: 0, count: equity.count)
        var previous = initial
        for i in equity.indices {
            out[i] = previous == 0 ? 0 : equity[i] / previous - 1
            previous = equity[i]
        }
        return out
    }

    /// Drawdown at each period as a negative fraction of the running peak, the peak starting at
    /// 1 before the first return (empyrical `drawdown_series`).
    public static func drawdowns(_ returns: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: returns.count)
        var value = 1.0, peak = 1.0
        for i in returns.indices {
            value *= 1 + returns[i]
            peak = max(peak, value)
            out[i] = (value - peak) / peak
        }
        return out
    }

    /// Drawdown of an equity curve against its running peak, the peak starting at `initial`.
    public static func drawdowns(equity: [Double], initial: Double) -> [Double] {
        var out = [Double](repeating: 0, count: equity.count)
        var peak = initial
        for i in equity.indices {
            peak = max(peak, equity[i])
            out[i] = peak > 0 ? (equity[i] - peak) / peak : 0
        }
        return out
    }

    /// Largest drawdown as a negative fraction (empyrical `max_drawdown`); NaN when empty.
    public static func maxDrawdown(_ returns: [Double]) -> Double {
        guard !returns.isEmpty else { return .nan }
        return drawdowns(returns).min() ?? .nan
    }

    /// Compound annual growth rate: (prod(1 + r)) ^ (periodsPerYear / n) - 1
    /// (empyrical `annual_return`/`cagr`, num_years = n / periodsPerYear). NaN when empty.
    public static func cagr(_ returns: [Double], periodsPerYear: Double) -> Double {
        guard !returns.isEmpty else { return .nan }
        var ending = 1.0
        for r in returns { ending *= 1 + r }
        let years = Double(returns.count) / periodsPerYear
        return pow(ending, 1 / years) - 1
    }

    /// Annualised volatility: sample sd (n-1, `gsl_stats_sd`) x sqrt(periodsPerYear)
    /// (empyrical `annual_volatility`, alpha 2). NaN below two returns.
    public static func annualVolatility(_ returns: [Double], periodsPerYear: Double) -> Double {
        GSL.standardDeviation(returns) * periodsPerYear.squareRoot()
    }

    /// Sharpe ratio: mean / sd(n-1) x sqrt(periodsPerYear) (empyrical `sharpe_ratio`, risk-free 0).
    /// A constant series has sd exactly 0 (empyrical's `_zero_dispersion_std`), giving +-inf or NaN.
    /// NaN below two returns.
    public static func sharpe(_ returns: [Double], periodsPerYear: Double) -> Double {
        guard returns.count > 1 else { return .nan }
        let constant = returns.min() == returns.max()
        let sd = constant ? 0 : GSL.standardDeviation(returns)
        return GSL.mean(returns) / sd * periodsPerYear.squareRoot()
    }

    /// Downside deviation below 0: sqrt(mean(min(r, 0)^2)) x sqrt(periodsPerYear)
    /// (empyrical `downside_risk`; the mean runs over all periods, not only the losing ones).
    public static func downsideRisk(_ returns: [Double], periodsPerYear: Double) -> Double {
        guard !returns.isEmpty else { return .nan }
        var sum = 0.0
        for r in returns where r < 0 { sum += r * r }
        return (sum / Double(returns.count)).squareRoot() * periodsPerYear.squareRoot()
    }

    /// Sortino ratio: mean(r) x periodsPerYear / downside risk (empyrical `sortino_ratio`,
    /// required return 0). +inf with no losing period and a positive mean; NaN below two returns.
    public static func sortino(_ returns: [Double], periodsPerYear: Double) -> Double {
        guard returns.count > 1 else { return .nan }
        return GSL.mean(returns) * periodsPerYear / downsideRisk(returns, periodsPerYear: periodsPerYear)
    }

    /// Calmar ratio: CAGR / |max drawdown| (empyrical `calmar_ratio`); NaN without a drawdown
    /// or when infinite.
    public static func calmar(_ returns: [Double], periodsPerYear: Double) -> Double {
        let dd = maxDrawdown(returns)
        guard dd < 0 else { return .nan }
        let v = cagr(returns, periodsPerYear: periodsPerYear) / abs(dd)
        return v.isInfinite ? .nan : v
    }

    /// Omega ratio at a 0 threshold: sum of gains / sum of losses (empyrical `omega_ratio` with
    /// required_return 0, where the annualisation of the threshold cancels). NaN below two
    /// returns or without a loss.
    public static func omega(_ returns: [Double]) -> Double {
        guard returns.count > 1 else { return .nan }
        var gains = 0.0, losses = 0.0
        for r in returns {
            if r > 0 { gains += r } else if r < 0 { losses -= r }
        }
        return losses > 0 ? gains / losses : .nan
    }
}
