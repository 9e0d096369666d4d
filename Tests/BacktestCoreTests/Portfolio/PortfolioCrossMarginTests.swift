import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A cross-margin account of several positions (`PortfolioAccount`): liquidated where its equity,
/// every symbol moving from its open to its own adverse extreme, meets the sum of maintenance
/// margins; the general rule reduces to the single run's closed form for one position; isolated
/// positions are checked alone; equity = cash + Σ quantity × multiplier × close on every row.
@Suite("Portfolio cross margin")
struct PortfolioCrossMarginTests {
    static func bars(_ symbol: String, _ rows: [(Double, Double, Double, Double)]) -> CandleSeries {
        var s = EngineTest.candles(rows.map { ($0.0, $0.1, $0.2, $0.3, 1e9) })
        s.symbol = symbol
        return s
    }

    static func config(_ mode: MarginMode = .cross) -> ExecutionConfig {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.instrument = .perp
        c.leverage = 10
        c.mmr = 0.01
        c.margin = mode
        return c
    }

    /// A and B bought at 100 at 500% of the equity each (10x in all), then falling together.
    static let a = bars("A", [(100, 100, 100, 100), (100, 100, 95, 98), (99, 99, 90, 92), (95, 95, 88, 90), (90, 91, 89, 90)])
    static let b = bars("B", [(100, 100, 100, 100), (100, 101, 97, 99), (99, 99, 92, 95), (95, 96, 89, 91), (91, 92, 90, 91)])
    static let orders = [PortfolioOrder(row: 0, symbol: 0, target: 5, reason: .entry), PortfolioOrder(row: 0, symbol: 1, target: 5, reason: .entry)]

    @Test("two longs are liquidated together where equity meets maintenance, each at its point between open and low")
    func twoLongs() throws {
        let r = try Portfolio.execute([PortfolioSymbol(candles: Self.a), PortfolioSymbol(candles: Self.b)], orders: Self.orders,
                                      config: Self.config())
        PortfolioInvariants.check(r, account: true)
        // 500 units each for 100 000 of notional on 10 000: cash −90 000; a = q (1 − mmr) = 495 per symbol.
        #expect(r.fills.prefix(2).allSatisfy { $0.fill.quantityFilled == 500 })
        // Row 2: f(0) = −90 000 + 495 × 198 > 0 and f(1) = −90 000 + 495 × (90 + 92) > 0: no liquidation.
        // Row 3: f(0) = −90 000 + 495 × 190 = 4 050, f(1) = −90 000 + 495 × 177 = −2 385.
        let lambda = 4_050.0 / (4_050 + 2_385)
        #expect(r.trades.count == 2 && r.trades.allSatisfy { $0.trade.exitKind == .liquidation && $0.trade.exitIndex == 3 })
        let exits = Dictionary(uniqueKeysWithValues: r.trades.map { (r.symbols[$0.symbol], $0.trade.exitPrice) })
        #expect(abs(exits["A"]! - (95 - 7 * lambda)) < 1e-9 && abs(exits["B"]! - (95 - 6 * lambda)) < 1e-9, "\(exits)")
        // There equity equals maintenance: what is left is 1% of the notional closed.
        let maintenance = 0.01 * 500 * (exits["A"]! + exits["B"]!)
        #expect(abs(r.equity[3] - maintenance) < 1e-6 && r.cash[4] == r.equity[3] && r.positions[4] == 0)
        let account = try #require(r.account.account)
        #expect(account.liquidations == 2 && account.stoppedAt == nil)
        // Each alone at 5x would not be liquidated: its own margin covers a fall to 88.
        let alone = try Portfolio.execute([PortfolioSymbol(candles: Self.a)], orders: [Self.orders[0]], config: Self.config())
        #expect(alone.trades.allSatisfy { $0.trade.exitKind != .liquidation })
    }

    @Test("isolated: each position is checked alone against its own margin")
    func isolated() throws {
        let r = try Portfolio.execute([PortfolioSymbol(candles: Self.a), PortfolioSymbol(candles: Self.b)], orders: Self.orders,
                                      config: Self.config(.isolated))
        PortfolioInvariants.check(r, account: true)
        // Isolated at 10x: P* = 100 (1 − 1/10) / (1 − 1%) = 90.909..., reached by A's low 90 on row 2, B's 89 on row 3.
        let price = 100 * (1 - 1.0 / 10) / (1 - 0.01)
        let exits = Dictionary(uniqueKeysWithValues: r.trades.map { (r.symbols[$0.symbol], $0.trade) })
        #expect(exits["A"]?.exitIndex == 2 && exits["B"]?.exitIndex == 3 && exits.values.allSatisfy { $0.exitKind == .liquidation })
        #expect(exits.values.allSatisfy { abs($0.exitPrice - price) < 1e-9 })
    }

    @Test("the cross rule for one position is the single run's closed form (prices and gaps)", arguments: 0..<200)
    func onePosition(_ seed: Int) {
        let rng = GSL.Random(seed: UInt(seed) + 1)
        let long = rng.uniform() < 0.5, mmr = rng.uniform() * 0.05, entry = 50 + rng.uniform() * 100
        let leverage = 2 + rng.uniform() * 20
        let q = (long ? 1 : -1) * (1 + rng.uniform() * 100)
        let cash = abs(q) * entry / leverage * (1 + rng.uniform()) - q * entry  // equity at entry: its margin and some more
        let open = entry * (0.8 + rng.uniform() * 0.4)
        let extreme = long ? open * (1 - rng.uniform() * 0.3) : open * (1 + rng.uniform() * 0.3)
        let level = LiquidationPrice(quantity: q, cash: cash, entryPrice: entry, leverage: leverage, maintenanceRate: mmr, mode: .cross)
        let closed = level.fill(long: long, open: open, high: long ? open : extreme, low: long ? extreme : open)
        let a = q - mmr * abs(q)
        let lambda = LiquidationPrice.crossFraction(atStart: cash + a * open, atExtreme: cash + a * extreme)
        #expect((closed == nil) == (lambda == nil), "closed form \(String(describing: closed)), λ \(String(describing: lambda))")
        if let closed, let lambda {
            #expect(abs(open + lambda * (extreme - open) - closed) <= 1e-9 * closed)
        }
    }

    @Test("random two-symbol books at 5x to 25x: equity = cash + Σ position × close on every row; final equity = initial + trade PnL",
          arguments: [MarginMode.cross, .isolated])
    func randomBooks(_ mode: MarginMode) throws {
        let a = { var c = EngineTest.random(bars: 1_500, seed: 31); c.symbol = "A"; return c }()
        let b = { var c = EngineTest.random(bars: 1_500, seed: 32); c.symbol = "B"; return c }()
        for leverage in [5.0, 12, 25] {
            var config = Self.config(mode)
            config.leverage = leverage
            config.sizing = .equityFraction(leverage)
            config.feeBps = 5
            config.funding = PortfolioMarginTests.funding(a)
            let symbols = [PortfolioSymbol(candles: a, signals: EngineTest.randomSignals(bars: 1_500, seed: 33, p: 0.05)),
                           PortfolioSymbol(candles: b, signals: EngineTest.randomSignals(bars: 1_500, seed: 34, p: 0.05))]
            let r = try Portfolio.run(symbols, rules: PortfolioRules(maxPositions: 2), config: config)
            PortfolioInvariants.check(r, account: true)
            #expect(r.trades.count > 10)
            if leverage == 25 { #expect(r.trades.contains { $0.trade.exitKind == .liquidation }) }
        }
    }
}
