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
        let n = try #require(golden["bars"] as? Int), initial = try #require(golden["initial_cash"] as? Double)
        let up = try #require(golden["up"] as? Double), down = try #require(golden["down"] as? Double)
        let regime = try #require(golden["regime"] as? Int)
        var equity: [Double] = [], value = initial
        for i in 0..<n {
            value *= 1 + ((i / regime) % 2 == 0 ? up : down)
            equity.append(value)
        }
        let result = StatsFixtures.result(time: StatsFixtures.days(n), close: equity, equity: equity, initial: initial)
        let mc = MonteCarlo(result, periodsPerYear: 252, settings: try MonteCarlo.Settings(resamples: testResamples, seed: 5))
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
}
