import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

@Suite("No look-ahead")
struct LookAheadTests {
    static let configs: [(String, ExecutionConfig)] = {
        var none = EngineTest.plain()
        none.stopLoss = 0.03
        none.takeProfit = 0.04
        var closeFill = none
        closeFill.fill = .close
        closeFill.allowShort = true
        var synthetic = ExecutionConfig()
        synthetic.stopLoss = 0.02
        synthetic.tick = 0.01
        synthetic.lot = 0.1
        var syntheticShort = synthetic
        syntheticShort.allowShort = true
        syntheticShort.sizing = .equityFraction(0.5)
        return [("none", none), ("close+short", closeFill), ("synthetic", synthetic), ("synthetic+short", syntheticShort)]
    }()

    @Test("changing bars and signals after t changes nothing at or before t", arguments: 0..<4)
    func futureDoesNotLeak(configIndex: Int) throws {
        let (_, config) = Self.configs[configIndex]
        let n = 300
        let base = EngineTest.random(bars: n, seed: 42)
        let signals = EngineTest.randomSignals(bars: n, seed: 7)
        let reference = try EngineTest.run(base, signals, config)
        let rng = GSL.Random(seed: 99)
        for t in stride(from: 10, to: n - 1, by: 37) {
            var changed = base
            var changedSignals = signals
            for i in (t + 1)..<n {
                let k = 0.8 + 0.4 * rng.uniform()
                changed.open[i] *= k; changed.high[i] *= k * 1.01; changed.low[i] *= k * 0.99
                changed.close[i] *= k; changed.volume[i] *= 2 * rng.uniform()
                changedSignals.entries[i] = rng.uniform() < 0.5
                changedSignals.exits[i] = rng.uniform() < 0.5
            }
            let other = try EngineTest.run(changed, changedSignals, config)
            #expect(Array(other.cash[...t]) == Array(reference.cash[...t]), "cash changed at or before \(t)")
            #expect(Array(other.position[...t]) == Array(reference.position[...t]), "position changed at or before \(t)")
            #expect(Array(other.equity[...t]) == Array(reference.equity[...t]), "equity changed at or before \(t)")
            #expect(other.fills.filter { $0.index <= t } == reference.fills.filter { $0.index <= t })
            #expect(other.rejected.filter { $0.index <= t } == reference.rejected.filter { $0.index <= t })
            let closed = { (r: BacktestResult) in r.trades.filter { !$0.isOpen && $0.exitIndex <= t } }
            #expect(closed(other) == closed(reference))
        }
        #expect(reference.fills.count > 10, "the random run should trade")
    }
}
