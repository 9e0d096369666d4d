import Foundation
import Testing
@testable import BacktestAnalysis
@testable import BacktestCore
import TestSupport

@Suite("Monte Carlo of a run: the bar bootstrap's blocks")
struct MonteCarloTests {
    @Test("a series of 50-bar regimes: every bar-bootstrap figure within 4 standard errors of numpy's 200,000 resamples")
    func regimes() throws {
        let text = try Repository.text("Tests/Fixtures/montecarlo/goldens.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let golden = try #require(root["synthetic"] as? [String: Any])
        let testResamples = try #require(root["test_resamples"] as? Int), resamples = try #require(root["resamples"] as? Int)
        let mc = MonteCarlo(try Self.regimeResult(golden), periodsPerYear: 252,
                            settings: try MonteCarlo.Settings(resamples: testResamples, seed: 5))
        #expect(mc.blockLength == golden["block_length"] as? Double)
        #expect(mc.trades == nil)
        let bars = try #require(mc.bars)
        let reference = try #require(golden["bars_bootstrap"] as? [String: Any])
        let inflation = (1 + Double(testResamples) / Double(resamples)).squareRoot()
        let figures: [(String, MonteCarlo.Percentiles)] = [("final_equity", bars.finalEquity), ("max_drawdown", bars.maxDrawdown),
                                                           ("cagr", bars.cagr)]
        for (name, ours) in figures {
            let theirs = try #require(reference[name] as? [String: [String: Double]])
            for (q, v) in [("p5", ours.p5), ("p50", ours.p50), ("p95", ours.p95)] {
                let value = theirs[q]!["value"]!, se = theirs[q]!["se"]!
                #expect(abs(v - value) <= 4 * se * inflation, "\(name) \(q): \(v) vs numpy \(value) (se \(se))")
            }
        }
        let ruin = try #require(reference["ruin_probability"] as? [String: Double])
        #expect(abs(bars.ruinProbability - ruin["value"]!) <= 4 * ruin["se"]! * inflation)
    }

    /// The regime series of the goldens: 50 bars up, 50 down, from `initial`.
    static func regimeResult(_ golden: [String: Any]) throws -> BacktestResult {
        let n = try #require(golden["bars"] as? Int), initial = try #require(golden["initial_cash"] as? Double)
        let up = try #require(golden["up"] as? Double), down = try #require(golden["down"] as? Double)
        let regime = try #require(golden["regime"] as? Int)
        var equity: [Double] = [], value = initial
        for i in 0..<n {
            value *= 1 + ((i / regime) % 2 == 0 ? up : down)
            equity.append(value)
        }
        return StatsFixtures.result(time: StatsFixtures.days(n), close: equity, equity: equity, initial: initial)
    }

    @Test("equity bands of the regime series: numpy's checkpoints, and every 25th checkpoint's percentiles within 4 standard errors of numpy's 200,000 paths")
    func bandsAgainstNumpy() throws {
        let text = try Repository.text("Tests/Fixtures/montecarlo/bands.json")
        let golden = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let testResamples = try #require(golden["test_resamples"] as? Int), resamples = try #require(golden["resamples"] as? Int)
        let mc = MonteCarlo(try Self.regimeResult(golden), periodsPerYear: 252,
                            settings: try MonteCarlo.Settings(resamples: testResamples, seed: 5))
        let bands = try #require(mc.bands)
        #expect(bands.bars == golden["checkpoints"] as? [Int])
        #expect(bands.resamples == testResamples)
        let reference = try #require(golden["bands"] as? [String: [String: [Double]]])
        let inflation = (1 + Double(testResamples) / Double(resamples)).squareRoot()
        var compared = 0
        for (q, ours) in [("p5", bands.p5), ("p50", bands.p50), ("p95", bands.p95)] {
            let value = try #require(reference[q]?["value"]), se = try #require(reference[q]?["se"])
            #expect(ours.count == value.count)
            for j in Swift.stride(from: 0, to: value.count, by: 25) + [value.count - 1] {
                // + a rounding margin: at the first bar every path is one of two values (no spread).
                #expect(abs(ours[j] - value[j]) <= 4 * se[j] * inflation + 1e-9 * abs(value[j]), "\(q) at bar \(bands.bars[j]): \(ours[j]) vs numpy \(value[j]) (se \(se[j]))")
                compared += 1
            }
        }
        #expect(compared == 63)
        // The last checkpoint is the last bar: the bands end at the final equity's percentiles.
        let bars = try #require(mc.bars)
        #expect([bands.p5.last, bands.p50.last, bands.p95.last] == [bars.finalEquity.p5, bars.finalEquity.p50, bars.finalEquity.p95])
        #expect(zip(bands.p5, zip(bands.p50, bands.p95)).allSatisfy { $0 <= $1.0 && $1.0 <= $1.1 })
    }

    @Test("bands: a series whose every return is the same gives every path that series; short series keep every bar; beyond the limit the first 10,000 resamples")
    func bandsShape() throws {
        let n = 40, initial = 1_000.0
        let equity = (1...n).map { initial * pow(1.002, Double($0)) }
        let result = StatsFixtures.result(time: StatsFixtures.days(n), close: equity, equity: equity, initial: initial)
        let mc = MonteCarlo(result, periodsPerYear: 252, settings: try MonteCarlo.Settings(resamples: 50, seed: 2))
        let bands = try #require(mc.bands)
        #expect(bands.bars == Array(0..<n))
        for (j, bar) in bands.bars.enumerated() {
            for v in [bands.p5[j], bands.p50[j], bands.p95[j]] { #expect(abs(v - equity[bar]) <= 1e-9 * equity[bar]) }
        }
        #expect(MonteCarlo.Bands.checkpoints(bars: 100_000).count == 500)
        #expect(MonteCarlo.Bands.checkpoints(bars: 100_000).first == 0 && MonteCarlo.Bands.checkpoints(bars: 100_000).last == 99_999)
        let many = MonteCarlo(result, periodsPerYear: 252, settings: try MonteCarlo.Settings(resamples: 10_001, seed: 2))
        #expect(many.bands?.resamples == 10_000)
        let two = StatsFixtures.result(time: StatsFixtures.days(2), close: [1, 2], equity: [1_000, 1_001], initial: 1_000)
        #expect(MonteCarlo(two, periodsPerYear: 252, settings: try MonteCarlo.Settings(resamples: 5)).bands == nil)
    }
}
