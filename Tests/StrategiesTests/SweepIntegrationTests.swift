import Foundation
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
import Strategies
import TestSupport

@Suite("Sweeps and walk-forward with real strategies")
struct SweepIntegrationTests {
    static func goog() throws -> CandleSeries {
        var c = try ShippedData.candles("GOOG")
        c.timeframe = .day1
        return c
    }

    /// ma-cross over fast 5..25 x slow 20..80 with fast < slow, as `bt sweep` builds it.
    static func setup(depth: ExecutionConfig.Depth) throws -> (SweepEvaluator, [StrategyParameters]) {
        var combos: [StrategyParameters] = []
        for fast in stride(from: 5, through: 25, by: 5) {
            for slow in stride(from: 20, through: 80, by: 20) where fast < slow {
                combos.append(try Strategy.maCross.parameters(["fast=\(fast)", "slow=\(slow)"]))
            }
        }
        var config = ExecutionConfig()
        config.depth = depth
        let list = combos
        let evaluator = SweepEvaluator(config: config, periodsPerYear: 252) { candles, cache, combo in
            try Strategy.maCross.signals(candles, list[combo], cache: cache)
        }
        return (evaluator, combos)
    }

    @Test("every sweep row equals a direct run of that combination (what bt run reports)",
          arguments: ["none", "synthetic"])
    func sweepEqualsDirectRuns(depthName: String) throws {
        let candles = try Self.goog()
        let depth: ExecutionConfig.Depth = depthName == "none" ? .none : .synthetic
        let (evaluator, combos) = try Self.setup(depth: depth)
        var rows: [Sweep.Row] = []
        let summary = try Sweep(rankStat: .sharpe).run(
            combinations: combos.count, evaluator: evaluator, candles: candles) { rows += $0 }
        #expect(rows.map(\.combo) == Array(0..<combos.count))
        #expect(summary.failed == 0)
        for row in rows {
            var config = ExecutionConfig()
            config.depth = depth
            let direct = try Engine.run(Engine.Request(candles, signals: try Strategy.maCross.signals(candles, combos[row.combo]),
                                        config: config))
            let stats = Stats(direct, periodsPerYear: 252)
            let m = try #require(row.stats)
            for metric in SweepStats.columns {
                let a = m[metric], b = stats[metric]
                #expect(a == b || (a.isNaN && b.isNaN), "combo \(row.combo) \(metric): sweep \(a) vs run \(b)")
            }
        }
        // The best row really is the best, and the sharpe variance is the sample variance.
        let sharpes = rows.map { $0.stats![.sharpe] }
        #expect(summary.bestStats?[.sharpe] == sharpes.max())
        let perBar = rows.map { $0.stats!.periodSharpe }
        let mean = perBar.reduce(0, +) / Double(perBar.count)
        let variance = perBar.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(perBar.count - 1)
        #expect(abs(summary.sharpeVariance - variance) <= 1e-12 * variance)
        #expect(summary.overfitting != nil)
        let deflation = try #require(try Sweep.deflation(of: summary, evaluator: evaluator, candles: candles))
        #expect(deflation.trials == combos.count)
        #expect(deflation.value > 0 && deflation.value < 1)
    }

    @Test("walk-forward: a fold's choice depends only on data before its out-of-sample fold")
    func walkForwardNoLeak() throws {
        let candles = try Self.goog()
        let (evaluator, combos) = try Self.setup(depth: .none)
        let wf = try WalkForward(bars: candles.count, folds: 4)
        let base = try wf.run(combinations: combos.count, evaluator: evaluator, candles: candles, rankStat: .sharpe)
        #expect(base.steps.count == 3)
        for (k, step) in wf.steps.enumerated() {
            // Scramble every bar after this step's in-sample fold.
            var changed = candles
            for i in step.inSample.upperBound..<changed.count {
                let f = 1 + 0.3 * sin(Double(i))
                changed.open[i] *= f; changed.high[i] *= f * 1.01; changed.low[i] *= f * 0.99; changed.close[i] *= f
            }
            let other = try wf.run(combinations: combos.count, evaluator: evaluator, candles: changed, rankStat: .sharpe)
            #expect(other.steps[k].chosen == base.steps[k].chosen, "step \(k) choice leaked future data")
            #expect(other.steps[k].inSampleValue == base.steps[k].inSampleValue)
            for j in 0..<k {
                #expect(other.steps[j].outOfSampleValue == base.steps[j].outOfSampleValue)
            }
        }
        // Stitched out-of-sample: one bar per out-of-sample bar, cash carried across folds.
        let out = try #require(base.outOfSample)
        #expect(out.candles.count == wf.steps.map(\.outOfSample.count).reduce(0, +))
        #expect(out.initialCash == evaluator.config.initialCash)
        for i in out.equity.indices {
            #expect(abs(out.equity[i] - (out.cash[i] + out.position[i] * out.candles.close[i])) <= 1e-6 * out.equity[i])
        }
    }
}
