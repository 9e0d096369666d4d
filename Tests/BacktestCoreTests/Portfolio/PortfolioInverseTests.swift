import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// Inverse (coin-margined) contracts in a portfolio: one account settles in one currency, so a
/// portfolio of inverse contracts of one coin is kept in that coin (positions worth
/// −quantity × multiplier / price) and any other mix is refused; the cross-margin liquidation of
/// several inverse positions is where the account's equity meets maintenance. A one-symbol
/// inverse portfolio equals `bt run` (`PortfolioMarginTests`).
@Suite("Portfolio of inverse contracts")
struct PortfolioInverseTests {
    static var config: ExecutionConfig {
        var c = PortfolioRuleTests.plain
        c.instrument = .inversePerp
        c.leverage = 10
        c.mmr = 0.005
        c.feeBps = 0
        c.initialCash = 1
        return c
    }

    /// Two symbols named `names` on random bars (prices around 100) with random signals.
    static func pair(_ names: [String], bars: Int = 400) -> [PortfolioSymbol] {
        names.enumerated().map { j, name in
            var c = EngineTest.random(bars: bars, seed: UInt(30 + j))
            c.symbol = name
            return PortfolioSymbol(candles: c, signals: EngineTest.randomSignals(bars: bars, seed: UInt(50 + j), p: 0.05))
        }
    }

    @Test("contracts of one coin share the account, kept in the coin; the headline says so")
    func oneCoin() throws {
        var config = Self.config
        config.allowShort = true
        config.sizing = .equityFraction(3)
        let r = try Portfolio.run(Self.pair(["BTCUSD", "BTCUSD_PERP"]), rules: PortfolioRules(maxPositions: 1, rebalance: .bars(20)), config: config)
        PortfolioInvariants.check(r, account: true)
        #expect(r.fills.count > 20 && r.fills.allSatisfy(\.fill.inverse))
        let summary = try #require(r.account.account)
        #expect(summary.currency == "BTC" && summary.description.hasSuffix("equity in BTC"), "\(summary.description)")
        // Equity stays near the 1 coin it started with (no price moves a coin account far at 3x on this data).
        #expect(r.equity.allSatisfy { $0 > 0 && $0 < 10 })
    }

    @Test("no look-ahead: bars and signals after t change nothing at or before t in a long/short book of two BTC contracts")
    func noLookAhead() throws {
        var config = Self.config
        config.allowShort = true
        config.sizing = .equityFraction(4)
        config.stopLoss = 0.03
        let base = Self.pair(["BTCUSD", "BTCUSD_PERP"], bars: 300)
        let rules = PortfolioRules(maxPositions: 1, rebalance: .bars(15))
        let a = try Portfolio.run(base, rules: rules, config: config)
        for cut in [100, 200] {
            let t = a.time[cut]
            var g = SplitMix64(seed: UInt64(cut))
            let changed = base.map { s -> PortfolioSymbol in
                var s = s
                var c = s.candles, signals = s.signals!
                for k in c.time.indices where c.time[k] > t {
                    c.open[k] *= 0.7 + 0.6 * g.unit(); c.close[k] *= 0.7 + 0.6 * g.unit()
                    c.high[k] = max(c.open[k], c.close[k]) * 1.02; c.low[k] = min(c.open[k], c.close[k]) * 0.98
                    signals.entries[k] = g.unit() < 0.3; signals.exits[k] = g.unit() < 0.3
                }
                s.candles = c; s.signals = signals
                return s
            }
            let b = try Portfolio.run(changed, rules: rules, config: config)
            PortfolioInvariants.check(b, account: true)
            PortfolioPropertyTests.expectSameUpTo(cut, a, b)
        }
    }

    @Test("refused with the reason: coins that differ, a linear symbol beside an inverse one, a coin the name does not tell")
    func refusals() throws {
        func reason(_ symbols: [PortfolioSymbol]) -> (Setting?, String) {
            do { _ = try Portfolio.run(symbols, rules: PortfolioRules(), config: Self.config); return (nil, "") } catch let e as InputError {
                return (e.setting, e.reason)
            } catch { return (nil, "\(error)") }
        }
        let coins = reason(Self.pair(["BTCUSD", "ETHUSD"]))
        #expect(coins.0 == .instrument && coins.1.contains("BTCUSD settles in BTC, ETHUSD in ETH"), "\(coins.1)")
        var mixed = Self.pair(["BTCUSD", "SPY"])
        var linear = Self.config
        linear.instrument = .perp
        mixed[1].liquidity = linear
        let m = reason(mixed)
        #expect(m.0 == .instrument && m.1.contains("SPY (perp) settles in its quote currency"), "\(m.1)")
        let unnamed = reason(Self.pair(["S0", "S1"]))
        #expect(unnamed.0 == .instrument && unnamed.1.contains("S0: an inverse contract settles in its base coin"), "\(unnamed.1)")
        // One symbol needs no coin in its name (the account says "coin", as bt run does).
        #expect(reason(Array(Self.pair(["S0"]))).0 == nil)
    }

    @Test("cross margin, two inverse longs: liquidated where cash − Σ q (1 + mmr) / p meets 0 on the way to both lows")
    func crossLiquidation() throws {
        // Both at 100 (range ±0.5%), entries at bar 0; at bar 6 A falls to a low of 80, B to 85.
        let lows = [80.0, 85.0]
        let symbols: [PortfolioSymbol] = ["BTCUSD", "BTCUSD_PERP"].enumerated().map { j, name in
            var c = CandleSeries(symbol: name, timeframe: .day1)
            for k in 0..<10 {
                let low = k == 6 ? lows[j] : 99.5
                c.append(time: 1_704_067_200 + Int64(k) * 86_400, open: 100, high: 100.5, low: low, close: k == 6 ? low : 100, volume: 1e9)
            }
            var e = [Bool](repeating: false, count: 10)
            e[0] = true
            return PortfolioSymbol(candles: c, signals: Signals(entries: e, exits: [Bool](repeating: false, count: 10)))
        }
        var config = Self.config
        config.sizing = .equityFraction(5)  // each 2.5 coins of notional at 1/2 of the 1 coin
        let r = try Portfolio.run(symbols, rules: PortfolioRules(maxPositions: 2), config: config)
        PortfolioInvariants.check(r, account: true)
        let liquidated = r.trades.filter { $0.trade.exitKind == .liquidation }
        #expect(liquidated.count == 2 && liquidated.allSatisfy { $0.exitBar == 6 }, "\(r.trades.map(\.trade.exitKind))")
        let q = liquidated.map(\.trade.quantity), p = liquidated.map(\.trade.exitPrice)
        // The same fraction of the way from the open to each low, strictly inside the bar.
        let lambda = (100 - p[0]) / (100 - lows[0])
        #expect(lambda > 0 && lambda < 1 && abs((100 - p[1]) / (100 - lows[1]) - lambda) < 1e-12, "\(p)")
        // There, the backing (cash before the row, no fill or funding since) meets maintenance.
        let backing = r.cash[5] - q[0] * 1.005 / p[0] - q[1] * 1.005 / p[1]
        #expect(abs(backing) < 1e-12, "backing \(backing) at \(p)")
    }
}
