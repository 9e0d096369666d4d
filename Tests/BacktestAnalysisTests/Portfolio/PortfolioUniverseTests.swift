import Foundation
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
import TestSupport

/// `PortfolioUniverse`: the sweep evaluator of a portfolio runs what `Portfolio.run` runs, and a
/// walk-forward range reads nothing after its last row.
@Suite("Portfolio universe and sweep evaluator")
struct PortfolioUniverseTests {
    /// Signals of a moving-average cross with period `fast` against 30, rank = 20-bar change.
    static func inputs(fast: Int) -> PortfolioUniverse.Inputs {
        { candles, cache in
            let f = try cache.outputs(IndicatorSpec(.sma, Double(fast)), on: candles)[0]
            let s = try cache.outputs(IndicatorSpec(.sma, 30), on: candles)[0]
            let entries = f.indices.map { $0 > 0 && f[$0] > s[$0] && !(f[$0 - 1] > s[$0 - 1]) }
            let exits = f.indices.map { $0 > 0 && f[$0] < s[$0] && !(f[$0 - 1] < s[$0 - 1]) }
            let rank = try Indicators.roc(candles.close, period: 20)
            return (Signals(entries: entries, exits: exits), rank)
        }
    }

    static func universe() -> PortfolioUniverse {
        PortfolioUniverse(candles: PortfolioFixtures.universe(symbols: 5, bars: 400, seed: 7).map(\.candles))
    }

    static let rules = PortfolioRules(maxPositions: 2, weighting: .inverseVolatility, rebalance: .bars(15))

    @Test("the evaluator's full run is Portfolio.run of the same symbols, bit for bit")
    func evaluatorIsRun() throws {
        let u = Self.universe()
        let evaluator = u.evaluator(config: ExecutionConfig(), periodsPerYear: 252) { combo in
            (PortfolioRules(maxPositions: combo + 1, weighting: .inverseVolatility, rebalance: .bars(15)), Self.inputs(fast: 10),
             ExecutionConfig())
        }
        for combo in 0..<3 {
            let swept = try evaluator.run(combo, on: u.clock, cache: IndicatorCache())
            let direct = try Portfolio.run(try u.symbols(Self.inputs(fast: 10), cache: IndicatorCache(), parallel: false),
                                           rules: PortfolioRules(maxPositions: combo + 1, weighting: .inverseVolatility,
                                                                 rebalance: .bars(15)),
                                           config: ExecutionConfig())
            #expect(swept.equity == direct.equity && swept.cash == direct.cash && swept.fills == direct.account.fills)
            #expect(swept.candles.time == u.clock.time)
        }
    }

    @Test("a walk-forward range: bars after its last row change nothing; it starts flat with the cash given")
    func rangeReadsNothingLater() throws {
        let u = Self.universe()
        let cut = 300
        let range = 200..<cut
        let a = try u.run(rules: Self.rules, config: ExecutionConfig(), inputs: Self.inputs(fast: 10), rows: range,
                          cache: IndicatorCache(), initialCash: 5_000)
        // The same universe with every bar after the cut's time replaced by noise.
        let last = u.clock.time[cut - 1]
        var g = SplitMix64(seed: 99)
        let changed = PortfolioUniverse(candles: u.candles.map { c in
            var out = c
            for i in c.time.indices where c.time[i] > last {
                let p = 10 + 90 * g.unit()
                out.open[i] = p; out.high[i] = p * 1.01; out.low[i] = p * 0.99; out.close[i] = p
            }
            return out
        })
        let b = try changed.run(rules: Self.rules, config: ExecutionConfig(), inputs: Self.inputs(fast: 10), rows: range,
                                cache: IndicatorCache(), initialCash: 5_000)
        #expect(a.time == Array(u.clock.time[range]))
        #expect(a.equity == b.equity && a.fills == b.fills && a.trades == b.trades)
        #expect(a.equity.first == 5_000 && !a.fills.isEmpty)  // next-open: nothing fills at the first row's open
        #expect(a.initialCash == 5_000)
    }

    @Test("a symbol's cache is one object per name")
    func childCaches() {
        let cache = IndicatorCache()
        #expect(cache.child("A") === cache.child("A"))
        #expect(cache.child("A") !== cache.child("B"))
    }
}
