import BacktestCore
import Foundation

/// The deflated Sharpe ratio: the probability that the best of many tried strategies has a true
/// Sharpe ratio above zero, correcting for the number of trials and for non-normal returns.
///
/// Bailey and Lopez de Prado, "The Deflated Sharpe Ratio" (2014), equations (1)-(2):
/// `SR0 = sqrt(V) * ((1 - g) * Z^-1(1 - 1/N) + g * Z^-1(1 - 1/(N e)))`, with `g` the
/// Euler-Mascheroni constant, `V` the variance of the trials' Sharpe ratios and `N` the number of
/// trials; then `DSR = PSR(SR0)` (`Uncertainty.probabilisticSharpe` with SR0 as the benchmark).
/// All Sharpe ratios are per period (not annualised); `kurtosis` is Pearson's (3 for a normal).
public enum DeflatedSharpe {
    static let eulerMascheroni = 0.577_215_664_901_532_9

    /// The Sharpe ratio the best of `trials` unskilled strategies is expected to reach: `SR0`.
    /// Zero for a single trial.
    public static func expectedMaximum(trials: Int, variance: Double) -> Double {
        guard trials > 1, variance > 0 else { return 0 }
        let n = Double(trials)
        let g = eulerMascheroni
        let z1 = GSL.normalQuantile(1 - 1 / n)
        let z2 = GSL.normalQuantile(1 - 1 / (n * M_E))
        return variance.squareRoot() * ((1 - g) * z1 + g * z2)
    }

    /// The deflated Sharpe ratio of the best trial.
    /// - Parameters:
    ///   - sharpe: the best trial's per-period Sharpe ratio.
    ///   - trials: how many combinations were tried (all of them, not only the reported ones).
    ///   - sharpeVariance: variance of the per-period Sharpe ratios across the trials.
    ///   - observations: number of returns behind `sharpe`.
    ///   - skew, kurtosis: of the best trial's returns (Pearson kurtosis, 3 for a normal).
    public static func ratio(
        sharpe: Double, trials: Int, sharpeVariance: Double, observations: Int, skew: Double, kurtosis: Double
    ) -> Double {
        Uncertainty.probabilisticSharpe(
            sharpe: sharpe, count: observations, skew: skew, kurtosis: kurtosis,
            benchmark: expectedMaximum(trials: trials, variance: sharpeVariance))
    }
}
