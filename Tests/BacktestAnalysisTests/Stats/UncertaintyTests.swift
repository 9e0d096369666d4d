import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Sharpe uncertainty")
struct UncertaintyTests {
    /// Worked by hand: SR = 0.1 per bar, n = 101, skew -0.5, kurtosis 4 (excess 1):
    /// variance term 1 + 0.05 + (3/4)(0.01) = 1.0575, z = 0.1 x 10 / sqrt(1.0575) = 0.972433,
    /// Phi(z) = 0.834582 (from erf).
    @Test("PSR matches a hand-computed example")
    func psrWorkedExample() {
        let psr = Uncertainty.probabilisticSharpe(sharpe: 0.1, count: 101, skew: -0.5, kurtosis: 4)
        #expect(abs(psr - 0.8345824780464072) < 1e-12)
        // Normal returns (skew 0, kurtosis 3): z = 1 / sqrt(1.005) = 0.997509, Phi = 0.840741.
        let normal = Uncertainty.probabilisticSharpe(sharpe: 0.1, count: 101, skew: 0, kurtosis: 3)
        #expect(abs(normal - 0.8407413278013518) < 1e-12)
    }

    @Test("PSR is 0.5 at the benchmark and grows with the sample")
    func psrShape() {
        #expect(abs(Uncertainty.probabilisticSharpe(sharpe: 0.05, count: 50, skew: 0, kurtosis: 3, benchmark: 0.05) - 0.5) < 1e-15)
        let small = Uncertainty.probabilisticSharpe(sharpe: 0.05, count: 50, skew: 0, kurtosis: 3)
        let large = Uncertainty.probabilisticSharpe(sharpe: 0.05, count: 5_000, skew: 0, kurtosis: 3)
        #expect(small < large && large < 1)
    }

    @Test("PSR of a series uses GSL skew and kurtosis + 3")
    func psrSeries() {
        let r: [Double] = (0..<200).map { (i: Int) -> Double in
            let k = Double((i * 37) % 11 - 5)
            return 0.001 + 0.002 * k
        }
        let sr = GSL.mean(r) / GSL.standardDeviation(r)
        let expected = Uncertainty.probabilisticSharpe(sharpe: sr, count: 200, skew: GSL.skew(r), kurtosis: GSL.kurtosis(r) + 3)
        #expect(Uncertainty.probabilisticSharpe(r) == expected)
        #expect(Uncertainty.probabilisticSharpe([0, 0, 0, 0, 0]).isNaN)
    }

    @Test("bootstrap interval is reproducible, ordered and brackets the Sharpe ratio")
    func bootstrap() throws {
        let result = try StatsFixtures.result(curve: "goog_buy_hold", initial: 10_000)
        let r = ReturnStats.returns(equity: result.equity, initial: 10_000)
        let sharpe = ReturnStats(r).sharpe(periodsPerYear: 252)
        let a = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
        let b = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
        #expect(a.low == b.low && a.high == b.high)
        #expect(a.low < sharpe && sharpe < a.high)
        // About 8.5 years of daily data: the Sharpe standard error is about 1/sqrt(8.5) = 0.34,
        // so the 95% interval is roughly +-0.67 wide on each side.
        #expect(a.high - a.low > 0.8 && a.high - a.low < 2.0)
        let other = Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: .init(seed: 7))
        #expect(other.low != a.low)
    }

    @Test("bootstrap of too few or constant returns is undefined")
    func bootstrapDegenerate() {
        #expect(Uncertainty.sharpeInterval([0.1, 0.2], periodsPerYear: 252).low.isNaN)
        #expect(Uncertainty.sharpeInterval([0, 0, 0, 0], periodsPerYear: 252).high.isNaN)
    }
}

@Suite("Sharpe bootstrap (block sums)")
struct SharpeBootstrapTests {
    static func gaussian(_ n: Int, mean: Double, sigma: Double, seed: UInt) -> [Double] {
        let rng = GSL.Random(seed: seed)
        return (0..<n).map { _ in mean + rng.gaussian(sigma: sigma) }
    }

    /// The element-by-element stationary bootstrap (the pre-block-sum implementation).
    static func elementwise(_ r: [Double], length: Double, resamples: Int, seed: UInt) -> (low: Double, high: Double) {
        let n = r.count, rng = GSL.Random(seed: seed)
        var sample = [Double](repeating: 0, count: n), sharpes = [Double]()
        for _ in 0..<resamples {
            var j = rng.int(below: n)
            for i in 0..<n {
                sample[i] = r[j]
                if rng.uniform() < 1 / length { j = rng.int(below: n) } else { j = (j + 1) % n }
            }
            let sd = GSL.standardDeviation(sample)
            if sd > 0 { sharpes.append(GSL.mean(sample) / sd) }
        }
        let s = GSL.sorted(sharpes)
        return (GSL.quantile(sorted: s, 0.025), GSL.quantile(sorted: s, 0.975))
    }

    /// The block bootstrap one block at a time, as `sharpeInterval` does for short series:
    /// the reference for its long-series path, which draws a resample's blocks before summing.
    static func oneBlockAtATime(_ r: [Double], periodsPerYear: Double, resamples: Int, seed: UInt) -> (low: Double, high: Double) {
        let n = r.count
        let geometric = GSL.Geometric(p: 1 / max(1, cbrt(Double(n)).rounded())), starts = GSL.UniformInt(below: n)
        let center = GSL.mean(r)
        let sums = Uncertainty.ShiftedPrefixSums(r, shift: center).sums
        let rng = GSL.Random(seed: seed)
        var sharpes: [Double] = []
        sums.withUnsafeBufferPointer { sums in
            for _ in 0..<resamples {
                var filled = 0, total = SIMD2<Double>()
                while filled < n {
                    let start = rng.int(starts)
                    let k = min(max(1, rng.geometric(geometric)), n - filled)
                    total += Uncertainty.ShiftedPrefixSums.block(sums, start: start, count: k)
                    filled += k
                }
                let mean = total[0] / Double(n)
                let deviations = total[1] - total[0] * mean
                guard deviations > 1e-10 * total[1] else { continue }
                sharpes.append((center + mean) / (deviations / Double(n - 1)).squareRoot() * periodsPerYear.squareRoot())
            }
        }
        let sorted = GSL.sorted(sharpes)
        return (GSL.quantile(sorted: sorted, 0.025), GSL.quantile(sorted: sorted, 0.975))
    }

    @Test("a long series' interval (its blocks drawn before they are summed) is the one-block-at-a-time interval")
    func longSeriesEqualsOneBlockAtATime() {
        let r = Self.gaussian(50_000, mean: 0.0003, sigma: 0.01, seed: 8)
        let ci = Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: .init(resamples: 60))
        let reference = Self.oneBlockAtATime(r, periodsPerYear: 252, resamples: 60, seed: 42)
        #expect(ci.low == reference.low && ci.high == reference.high, "\(ci) vs \(reference)")
        #expect(ci.low.isFinite && ci.low < ci.high)
    }

    /// AR(1) returns with coefficient 0.4 around a mean of 0.05 (unit innovations).
    static func autoregressive(_ n: Int, seed: UInt) -> [Double] {
        let rng = GSL.Random(seed: seed)
        var x = 0.0
        return (0..<n).map { _ in x = 0.4 * x + rng.gaussian(sigma: 1); return 0.05 + x }
    }

    /// With L = 1 the stationary bootstrap is the i.i.d. bootstrap, whose Sharpe standard error
    /// for normal returns is Lo's (2002) sqrt((1 + SR^2/2) / n), so the 95% interval should be
    /// SR +- 1.96 se. Tolerance: with R = 4,000 resamples a 2.5% quantile has Monte Carlo sd
    /// sqrt(0.025 x 0.975 / R) / phi(1.96) = 0.042 se, so the width 3.92 se is off by about
    /// 0.06 se (1.5%) and the midpoint by 0.03 se; the plug-in (sample) skew and kurtosis move
    /// the bootstrap se by well under 1% at SR = 0.05. 5% on the width and 0.15 se on the
    /// midpoint are over 3 sd; six seeds gave widths 0.976 to 1.006 of the analytic one.
    @Test("L = 1 matches the analytic i.i.d. Sharpe standard error", arguments: [UInt(1), 2, 3])
    func iidMatchesAnalytic(seed: UInt) {
        let n = 1_000
        let r = Self.gaussian(n, mean: 0.05, sigma: 1, seed: seed)
        let sr = GSL.mean(r) / GSL.standardDeviation(r)
        let se = ((1 + sr * sr / 2) / Double(n)).squareRoot()
        let ci = Uncertainty.sharpeInterval(r, periodsPerYear: 1, bootstrap: .init(resamples: 4_000, seed: seed, meanBlockLength: 1))
        let width = (ci.high - ci.low) / (2 * 1.959964 * se)
        #expect(abs(width - 1) < 0.05, "width / analytic = \(width)")
        #expect(abs((ci.high + ci.low) / 2 - sr) < 0.15 * se, "midpoint \((ci.high + ci.low) / 2), SR \(sr)")
    }

    /// Block sums and the element-by-element process are the same stationary bootstrap; with
    /// 4,000 resamples each endpoint has a Monte Carlo sd of about 0.042 se (see above), so two
    /// independent runs differ by about 0.06 se: 0.25 se is 4 sd.
    @Test("same interval as the element-by-element bootstrap on autocorrelated returns")
    func matchesElementwise() {
        let r = Self.autoregressive(400, seed: 9)
        let new = Uncertainty.sharpeInterval(r, periodsPerYear: 1, bootstrap: .init(resamples: 4_000, seed: 3, meanBlockLength: 5))
        let old = Self.elementwise(r, length: 5, resamples: 4_000, seed: 3)
        let se = (new.high - new.low) / (2 * 1.959964)
        #expect(abs(new.low - old.low) < 0.25 * se && abs(new.high - old.high) < 0.25 * se, "new \(new), old \(old)")
    }

    @Test("the same seed gives the same interval, another seed another")
    func deterministic() {
        let r = Self.autoregressive(5_000, seed: 4)
        let a = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
        let b = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
        #expect(a.low == b.low && a.high == b.high)
        let c = Uncertainty.sharpeInterval(r, periodsPerYear: 252, bootstrap: .init(seed: 43))
        #expect(c.low != a.low && c.high != a.high)
    }

    @Test("the interval contains the sample Sharpe of well-behaved series", arguments: [UInt(5), 6, 7])
    func containsSample(seed: UInt) {
        let r = Self.autoregressive(2_000, seed: seed)
        let sharpe = GSL.mean(r) / GSL.standardDeviation(r) * 252.0.squareRoot()
        let ci = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
        #expect(ci.low < sharpe && sharpe < ci.high, "\(ci) vs \(sharpe)")
    }

    @Test("constant, short and non-finite series give NaN; constant resamples are dropped")
    func degenerate() {
        for r in [[], [0.01], [0.01, 0.02], [0.1, 0.1, 0.1, 0.1, 0.1], [Double](repeating: -0.003, count: 5_000), [0.01, .nan, 0.02, 0.03]] {
            let ci = Uncertainty.sharpeInterval(r, periodsPerYear: 252)
            #expect(ci.low.isNaN && ci.high.isNaN, "\(r.prefix(5))")
        }
        let three = Uncertainty.sharpeInterval([0.01, -0.02, 0.03], periodsPerYear: 252)
        #expect(three.low <= three.high)
        // One spike in 300 zeros: with L = 50 many resamples miss it and are constant.
        let spike = [Double](repeating: 0, count: 300) + [0.05]
        let ci = Uncertainty.sharpeInterval(spike, periodsPerYear: 252, bootstrap: .init(meanBlockLength: 50))
        #expect(ci.low.isFinite && ci.high.isFinite && ci.low <= ci.high)
    }

    @Test("block sums wrap past the end and match direct sums")
    func blockSums() {
        let x = Self.gaussian(37, mean: 0.002, sigma: 0.01, seed: 11)
        let shift = GSL.mean(x)
        let prefix = Uncertainty.ShiftedPrefixSums(x, shift: shift)
        prefix.sums.withUnsafeBufferPointer { sums in
            for start in 0..<37 {
                for k in [1, 2, 17, 36, 37] {
                    let got = Uncertainty.ShiftedPrefixSums.block(sums, start: start, count: k)
                    var s = 0.0, q = 0.0
                    for j in 0..<k { let d = x[(start + j) % 37] - shift; s += d; q += d * d }
                    #expect(abs(got[0] - s) < 1e-15 && abs(got[1] - q) < 1e-17, "start \(start), k \(k)")
                }
            }
        }
    }

    @Test("geometric draws have mean 1/p and are 1 when p = 1")
    func geometric() {
        let rng = GSL.Random(seed: 1)
        #expect((0..<100).allSatisfy { _ in rng.geometric(p: 1) == 1 })
        let draws = (0..<20_000).map { _ in Double(rng.geometric(p: 0.1)) }
        // Mean 10, sd sqrt(1 - p) / p = 9.5, so the mean of 20,000 draws has sd 0.067.
        #expect(abs(GSL.mean(draws) - 10) < 0.3)
        #expect(draws.min() == 1)
    }
}
