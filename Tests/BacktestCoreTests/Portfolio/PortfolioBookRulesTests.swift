import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A long/short book under the long-only book's rules: rank and inverse-volatility weights per
/// leg (the short leg mirrored: lowest rank first), rotation into the top K long and the bottom K
/// short, both with and without `neutral`; on hand-made universes with hand-computed targets.
@Suite("Portfolio long/short book: weights and rotation")
struct PortfolioBookRulesTests {
    /// Four symbols at constant prices 10, 20, 40, 50 and ranks 4, 3, 1, 2: S0 and S1 enter long
    /// at bar 0, S2 and S3 short (their exit signals, without short rules).
    static func universe(bars: Int = 12, rank: @escaping (Int, Int) -> Double = { j, _ in [4, 3, 1, 2][j] }) -> [PortfolioSymbol] {
        PortfolioRuleTests.symbols(4, bars: bars, price: { j, _ in [10, 20, 40, 50][j] }, entries: [0: [0], 1: [0]], exits: [2: [0], 3: [0]],
                                   rank: rank)
    }

    static var config: ExecutionConfig {
        var c = PortfolioNeutralTests.frictionless
        c.leverage = 2
        return c
    }

    @Test("rank weights: longs 2/3 and 1/3 highest first, shorts -2/3 and -1/3 lowest first")
    func rankWeights() throws {
        let r = try Portfolio.run(Self.universe(), rules: PortfolioRules(maxPositions: 2, weighting: .rank), config: Self.config)
        PortfolioInvariants.check(r, account: true)
        let q = PortfolioNeutralTests.positions(r)[1]
        let expected = [2.0 / 3 * 10_000 / 10, 1.0 / 3 * 10_000 / 20, -2.0 / 3 * 10_000 / 40, -1.0 / 3 * 10_000 / 50]
        #expect(zip(q, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(q)")
        // Neutral: the legs are the same size (m = 2), so the weights are the same.
        let neutral = try Portfolio.run(Self.universe(), rules: PortfolioRules(maxPositions: 2, weighting: .rank, neutral: true), config: Self.config)
        #expect(zip(PortfolioNeutralTests.positions(neutral)[1], expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test("rank weights in a neutral book with one short: the long leg's 2/3 and 1/3 scaled to the short's 1/2")
    func rankWeightsNeutral() throws {
        var s = Self.universe()
        s[3].signals = Signals(entries: s[3].signals!.entries, exits: [Bool](repeating: false, count: 12))
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, weighting: .rank, neutral: true), config: Self.config)
        let q = PortfolioNeutralTests.positions(r)[1]
        // m = 1: each leg holds 1/2; longs 2/3 and 1/3 of that; the one short all of it.
        let expected = [1.0 / 3 * 10_000 / 10, 1.0 / 6 * 10_000 / 20, -0.5 * 10_000 / 40, 0]
        #expect(zip(q, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(q)")
    }

    @Test("inverse-vol weights: each leg sums to its members / K")
    func inverseVolatility() throws {
        let s: [PortfolioSymbol] = (0..<6).map { j in
            var c = EngineTest.random(bars: 300, seed: UInt(60 + j))
            c.symbol = "V\(j)"
            return PortfolioSymbol(candles: c, signals: EngineTest.randomSignals(bars: 300, seed: UInt(70 + j), p: 0.05))
        }
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, weighting: .inverseVolatility, rebalance: .bars(10)), config: Self.config)
        PortfolioInvariants.check(r, account: true)
        #expect(r.orders.contains { $0.target < 0 } && r.orders.contains { $0.target > 0 })
        for row in Set(r.orders.map(\.row)) where r.orders.contains(where: { $0.row == row && $0.reason == .rebalance }) {
            // A rebalance row orders every held member: a full leg of 2 sums to 1 (or -1), one of 1 to 1/2.
            let shorts = r.orders.filter { $0.row == row && $0.target < 0 }.map(\.target)
            let sum = shorts.reduce(0, +)
            #expect(shorts.isEmpty || abs(sum + Double(shorts.count) / 2) < 1e-12, "row \(row): \(shorts)")
        }
    }

    @Test("rotation: top 2 long, bottom 2 short at each rebalance; a symbol whose rank crosses is reversed")
    func rotation() throws {
        // Ranks 4, 3, 1, 2 until bar 5, then S0 and S2 swap (S0 = 1, S2 = 4).
        let s = Self.universe(bars: 12) { j, k in k < 5 ? [4, 3, 1, 2][j] : [1, 3, 4, 2][j] }
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, rebalance: .bars(5), rotate: true), config: Self.config)
        PortfolioInvariants.check(r, account: true)
        let q = PortfolioNeutralTests.positions(r)
        // Rows 5 and 10 rebalance (decided at the previous close).
        #expect(q[5].map { $0 > 0 ? 1 : $0 < 0 ? -1 : 0 } == [1, 1, -1, -1], "\(q[5])")
        #expect(q[10].map { $0 > 0 ? 1 : $0 < 0 ? -1 : 0 } == [-1, 1, 1, -1], "\(q[10])")
        #expect(abs(q[10][0] + 0.5 * r.equity[9] / 10) < 1e-6 && abs(q[10][2] - 0.5 * r.equity[9] / 40) < 1e-6, "\(q[10])")
        let reversed = r.trades.filter { $0.symbol == 0 || $0.symbol == 2 }.filter { $0.exitBar == 10 }
        #expect(reversed.count == 2 && reversed.allSatisfy { $0.trade.exitKind == .rebalance }, "\(reversed.map(\.trade.exitKind))")
        // Three symbols, neutral: 2 longs and 1 short, each leg 1/2.
        let three = try Portfolio.run(Array(s.prefix(3)), rules: PortfolioRules(maxPositions: 2, rebalance: .bars(5), rotate: true, neutral: true),
                                      config: Self.config)
        let q3 = PortfolioNeutralTests.positions(three)[5]
        #expect(abs(q3[0] * 10 + q3[1] * 20 + q3[2] * 40) < 1e-6 && q3[2] < 0 && abs(q3[2] * 40 + 5_000) < 1e-6, "\(q3)")
    }

    @Test("pyramid: a second short entry adds a weight to the short, a second long entry to the long, up to N entries")
    func pyramid() throws {
        // S0 at 10: short entries (exit signals) at bars 0, 2, 4, 6; S1 at 20: long entries at bars 0 and 3. K = 2, pyramid 3.
        let s = PortfolioRuleTests.symbols(2, bars: 10, price: { j, _ in j == 0 ? 10 : 20 }, entries: [1: [0, 3]], exits: [0: [0, 2, 4, 6]])
        var config = Self.config
        config.entries.pyramid = 3
        config.leverage = 3  // 150% short beside 100% long
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2), config: config)
        PortfolioInvariants.check(r, account: true)
        let q = PortfolioNeutralTests.positions(r)
        #expect(q[1] == [-500, 250] && q[3] == [-1_000, 250] && q[4] == [-1_000, 500] && q[5] == [-1_500, 500] && q[7] == [-1_500, 500],
                "\(q)")
        let short = try #require(r.trades.first { $0.trade.side == .short })
        #expect(short.buys == 3, "\(short)")  // its entries (the round trip is open at the end)
    }
}
