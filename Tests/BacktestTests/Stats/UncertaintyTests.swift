import Testing
@testable import Backtest

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
        let r = Performance.returns(equity: result.equity, initial: 10_000)
        let sharpe = Performance.sharpe(r, periodsPerYear: 252)
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
