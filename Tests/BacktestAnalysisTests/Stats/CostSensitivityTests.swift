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
}
