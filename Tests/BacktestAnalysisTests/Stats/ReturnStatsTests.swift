import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis

/// `ReturnStats`' one pass over the returns against the plain definitions: the mean and spread
/// from GSL's sums against `gsl_stats_mean` and `gsl_stats_sd`, and the maximum drawdown
/// divided once per peak against the per-period minimum.
@Suite("Return statistics")
struct ReturnStatsTests {
    @Test("the mean and spread from GSL's sums agree with gsl_stats_mean and gsl_stats_sd to 1e-13")
    func moments() {
        var g = SplitMix64(seed: 5)
        for (offset, scale) in [(0.0, 0.01), (1e-3, 1e-4), (-0.02, 0.05)] {
            let r = (0..<10_000).map { _ in offset + scale * (g.unit() - 0.5) }
            let returnStats = ReturnStats(r)
            let mean = GSL.mean(r), sd = GSL.standardDeviation(r)
            #expect(abs(returnStats.mean - mean) <= 1e-13 * max(abs(mean), scale), "mean \(returnStats.mean) vs \(mean)")
            #expect(abs(returnStats.standardDeviation - sd) <= 1e-13 * sd, "sd \(returnStats.standardDeviation) vs \(sd)")
        }
        #expect(ReturnStats([0.01]).standardDeviation.isNaN && ReturnStats([]).mean.isNaN)
    }

    /// The per-period definition: the minimum over t of (value_t - peak_t) / peak_t.
    static func naiveMaxDrawdown(_ r: [Double]) -> Double {
        var value = 1.0, peak = 1.0, worst = Double.infinity
        for x in r {
            value *= 1 + x
            peak = Swift.max(peak, value)
            worst = Swift.min(worst, (value - peak) / peak)
        }
        return worst
    }

    @Test("the maximum drawdown, divided once per peak, equals the per-period minimum bit for bit, flat runs, new highs and NaN included")
    func matchesPerPeriod() {
        let rng = GSL.Random(seed: 7)
        for trial in 0..<200 {
            let n = 1 + trial * 7
            var r = (0..<n).map { _ -> Double in
                let u = rng.uniform()
                return u < 0.3 ? 0 : (rng.uniform() - 0.48) * 0.05
            }
            if trial % 10 == 3 { r[n / 2] = .nan }
            if trial % 10 == 5 { r = r.map { abs($0) } }  // only new highs and flat periods
            let returnStats = ReturnStats(r)
            let expected = Self.naiveMaxDrawdown(r)
            #expect(returnStats.maxDrawdown.bitPattern == expected.bitPattern, "trial \(trial): \(returnStats.maxDrawdown) vs \(expected)")
        }
    }
}
