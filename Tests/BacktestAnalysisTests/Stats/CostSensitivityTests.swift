import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Cost sensitivity")
struct CostSensitivityTests {
    /// A toy engine: 10 round trips of 1% gross each, fee `bps` per fill (20 fills).
    static func toyReturn(feeBps: Double) -> Double {
        let perTrade = 1.01 * (1 - feeBps / 10_000) * (1 - feeBps / 10_000)
        return pow(perTrade, 10) - 1
    }

    static func toyResult(multiplier: Double) -> BacktestResult {
        let fee = 10 * multiplier
        let final = 1_000 * (1 + toyReturn(feeBps: fee))
        var r = StatsFixtures.result(time: StatsFixtures.days(3), close: [1, 1, 1],
                                     equity: [1_000, (1_000 + final) / 2, final], initial: 1_000)
        r.fills = [Fill(index: 1, time: 0, side: .buy, referencePrice: 1, vwap: 1, slippageBps: 0,
                        quantityAsked: 1, quantityFilled: 1, fee: fee)]
        return r
    }

    @Test("break-even fee solves 1.01 (1 - f)^2 = 1 to 0.01 bp")
    func breakEven() {
        let c = CostSensitivity(periodsPerYear: 252, run: Self.toyResult, totalReturn: Self.toyReturn)
        // (1 - f)^2 = 1 / 1.01  ->  f = 1 - 1/sqrt(1.01) = 49.6281 bps
        let exact = (1 - 1 / 1.01.squareRoot()) * 10_000
        #expect(abs(c.breakEvenFeeBps! - exact) < 0.01)
    }

    @Test("one row per multiplier, returns falling with costs")
    func rows() {
        let c = CostSensitivity(periodsPerYear: 252, run: Self.toyResult, totalReturn: Self.toyReturn)
        #expect(c.rows.map(\.multiplier) == [0, 0.5, 1, 2])
        #expect(c.rows[0].feesPaid == 0 && c.rows[3].feesPaid == 20)
        #expect(close(c.rows[0].totalReturn, pow(1.01, 10) - 1))
        #expect(c.rows[0].totalReturn > c.rows[1].totalReturn && c.rows[2].totalReturn > c.rows[3].totalReturn)
    }

    @Test("no break-even when losing without fees or winning at any fee")
    func noBreakEven() {
        #expect(CostSensitivity.breakEven(toleranceBps: 0.01) { _ in -0.1 } == nil)
        #expect(CostSensitivity.breakEven(toleranceBps: 0.01) { _ in 0.1 } == nil)
    }

    @Test("a step function still converges by bisection")
    func step() {
        let fee = CostSensitivity.breakEven(toleranceBps: 0.01) { $0 < 123.4 ? 0.05 : -0.02 }
        #expect(abs(fee! - 123.4) < 0.01)
    }

    @Test("a portfolio's break-even fee charges every symbol's own schedule: the same with symbols' configurations as without")
    func portfolioBreakEvenPerSymbol() throws {
        // Two rising symbols held from bar 1 to bar 30: a gross profit, so a break-even fee.
        let symbols: [PortfolioSymbol] = (0..<2).map { j in
            var c = CandleSeries(symbol: "S\(j)", timeframe: .day1)
            for k in 0..<40 {
                let p = (10 + Double(j)) * pow(1.002, Double(k))
                c.append(time: 1_704_067_200 + Int64(k) * 86_400, open: p, high: p * 1.001, low: p * 0.999, close: p, volume: 1e9)
            }
            var entries = [Bool](repeating: false, count: 40), exits = entries
            (entries[0], exits[29]) = (true, true)
            return PortfolioSymbol(candles: c, signals: Signals(entries: entries, exits: exits))
        }
        var config = ExecutionConfig()
        config.depth = .none
        let plain = try CostSensitivity.run(portfolio: symbols, rules: PortfolioRules(), config: config)
        // Each symbol trading its own configuration, equal to the portfolio's (as `bt portfolio` gives them).
        let own = try CostSensitivity.run(portfolio: symbols.map { var s = $0; s.liquidity = config; return s }, rules: PortfolioRules(),
                                          config: config)
        let fee = try #require(plain.breakEvenFeeBps)
        #expect(fee > 10 && own.breakEvenFeeBps == fee, "\(String(describing: own.breakEvenFeeBps)) vs \(fee)")
    }
}
