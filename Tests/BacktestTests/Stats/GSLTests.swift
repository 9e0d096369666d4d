import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

@Suite("GSL wrappers")
struct GSLTests {
    let x: [Double] = [2, 4, 4, 4, 5, 5, 7, 9]

    @Test("moments")
    func moments() {
        #expect(GSL.mean(x) == 5)
        #expect(close(GSL.standardDeviation(x), (32.0 / 7).squareRoot()))
        #expect(GSL.mean([]).isNaN && GSL.standardDeviation([1]).isNaN)
        #expect(abs(GSL.skew([1, 2, 3])) < 1e-15)
        #expect(GSL.kurtosis([1, 2, 3]).isNaN)
    }

    @Test("quantiles interpolate like numpy")
    func quantiles() {
        #expect(GSL.quantile(x, 0.5) == 4.5)
        #expect(GSL.quantile(x, 0.25) == 4)   // numpy.quantile(x, 0.25) = 4.0
        #expect(close(GSL.quantile(x, 0.05), 2.7)) // position 0.35 between 2 and 4
        #expect(GSL.sorted([3, 1, 2]) == [1, 2, 3])
    }

    @Test("linear fit and correlation")
    func fit() throws {
        let f = try GSL.fitLinear(x: [0, 1, 2, 3], y: [1, 3, 5, 7])
        #expect(close(f.intercept, 1) && close(f.slope, 2))
        #expect(close(GSL.correlation([1, 2, 3], [2, 4, 7]), 0.9933992677987828))
        #expect(throws: GSLError.self) { try GSL.fitLinear(x: [1], y: [1]) }
    }

    @Test("normal distribution")
    func normal() {
        #expect(GSL.normalCDF(0) == 0.5)
        #expect(close(GSL.normalCDF(1.959963984540054), 0.975))
        #expect(close(GSL.normalQuantile(0.975), 1.959963984540054))
    }

    @Test("histogram counts, maximum in the last bin, bad range throws")
    func histogram() throws {
        let h = try GSL.histogram([0, 0.5, 1, 1.5, 2, .nan], bins: 2, lower: 0, upper: 2)
        #expect(h == [2, 3])
        #expect(throws: GSLError.self) { try GSL.histogram([1], bins: 2, lower: 1, upper: 1) }
    }

    @Test("random numbers repeat for a seed")
    func random() {
        let a = GSL.Random(seed: 3), b = GSL.Random(seed: 3)
        #expect((0..<5).map { _ in a.uniform() } == (0..<5).map { _ in b.uniform() })
    }

    @Test("geometric with log(1 - p) precomputed draws what gsl_ran_geometric draws", arguments: [1.0, 0.5, 1.0 / 13, 1e-3, 1e-9])
    func geometricSampler(p: Double) {
        let a = GSL.Random(seed: 11), b = GSL.Random(seed: 11)
        let g = GSL.Geometric(p: p)
        let fast = (0..<20_000).map { _ in a.geometric(g) }
        let gsl = (0..<20_000).map { _ in b.geometric(p: p) }
        #expect(fast == gsl)
        #expect(fast.allSatisfy { $0 >= 1 })
    }
}
