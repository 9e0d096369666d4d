import Testing
@testable import BacktestCore

/// Margin accounts (docs/design/orders.md, "Margin"): the liquidation price against its closed
/// form, gaps, isolated margin, the cash account unchanged, and the account's identities on
/// random runs. The goldens (`OrdersGoldenTests`, `goog_perp_*`, `goog_margin_*`, `eurusd_perp_*`)
/// check the same against the reference simulator.
@Suite("Margin accounts")
struct MarginTests {
    /// Bars of (open, high, low, close), volume 1e9.
    static func bars(_ rows: [(Double, Double, Double, Double)]) -> CandleSeries {
        EngineTest.candles(rows.map { ($0.0, $0.1, $0.2, $0.3, 1e9) })
    }

    static func signals(_ n: Int, entry: Int, short: Bool = false) -> Signals {
        let none = [Bool](repeating: false, count: n)
        let at = (0..<n).map { $0 == entry }
        return short ? Signals(entries: none, exits: none, shortEntries: at, shortExits: none) : Signals(entries: at, exits: none)
    }

    static func config(leverage: Double, mode: MarginMode = .cross, mmr: Double = 0.01) -> ExecutionConfig {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.instrument = .perp
        c.leverage = leverage
        c.margin = mode
        c.mmr = mmr
        c.sizing = .equityFraction(leverage)
        return c
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(1, abs(b)) }

    @Test("a cross long is liquidated where its equity equals maintenance: the closed form, and a margin ratio of 1 there")
    func crossLong() throws {
        // Bought at bar 1's open (100) at 10x; bar 3's low (85) passes the liquidation price.
        let candles = Self.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 100, 95, 96), (96, 96, 85, 88), (88, 90, 87, 89)])
        let config = Self.config(leverage: 10)
        let r = try EngineTest.run(candles, Self.signals(5, entry: 0), config)
        let trade = try #require(r.trades.first)
        #expect(trade.exitKind == .liquidation && trade.exitIndex == 3)
        let q = trade.quantity, cash = 10_000 - q * 100
        let closedForm = -cash / (q * (1 - 0.01))
        #expect(Self.near(trade.exitPrice, closedForm), "\(trade.exitPrice) vs \(closedForm)")
        #expect(Self.near(LiquidationPrice.marginRatio(quantity: q, cash: cash, entryPrice: 100, price: closedForm, leverage: 10,
                                                       maintenanceRate: 0.01, mode: .cross), 1))
        // After it the account is flat with what maintenance left, and trades no more in this run.
        #expect(r.position[3] == 0 && Self.near(r.equity[4], 0.01 * q * closedForm))
        #expect(r.account?.liquidations == 1 && r.account?.stoppedAt == nil)
    }

    @Test("a bar opening beyond the liquidation price liquidates at the open; equity gone stops the account")
    func gap() throws {
        let candles = Self.bars([(100, 100, 100, 100), (100, 101, 99, 100), (80, 82, 78, 81), (81, 90, 80, 85), (85, 86, 84, 85)])
        var signals = Self.signals(5, entry: 0)
        signals.entries[2] = true  // an entry after the liquidation: not taken, the account has stopped
        let r = try EngineTest.run(candles, signals, Self.config(leverage: 10))
        let trade = try #require(r.trades.first)
        #expect(r.trades.count == 1 && trade.exitKind == .liquidation && trade.exitIndex == 2 && trade.exitPrice == 80)
        #expect(r.equity[2] < 0 && r.equity[4] == r.equity[2] && r.account?.stoppedAt == 2)
        #expect(r.warnings.contains { $0.kind == .accountStopped })
    }

    @Test("isolated margin: the position's own margin backs it (long and short closed forms)")
    func isolated() throws {
        // Long at 5x isolated: P* = 100 (1 - 1/5) / (1 - mmr).
        let down = Self.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 100, 70, 75), (75, 76, 74, 75)])
        let long = try EngineTest.run(down, Self.signals(4, entry: 0), Self.config(leverage: 5, mode: .isolated))
        #expect(Self.near(try #require(long.trades.first).exitPrice, 100 * (1 - 1.0 / 5) / (1 - 0.01)))
        // Short at 5x isolated: P* = 100 (1 + 1/5) / (1 + mmr).
        let up = Self.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 130, 99, 125), (125, 126, 124, 125)])
        var config = Self.config(leverage: 5, mode: .isolated)
        config.allowShort = true
        let short = try EngineTest.run(up, Self.signals(4, entry: 0, short: true), config)
        let trade = try #require(short.trades.first)
        #expect(trade.side == .short && trade.exitKind == .liquidation)
        #expect(Self.near(trade.exitPrice, 100 * (1 + 1.0 / 5) / (1 + 0.01)))
        // Cross at the same leverage and size backs the short with all the cash: the same bar does not reach it.
        config.margin = .cross
        let cross = try EngineTest.run(up, Self.signals(4, entry: 0, short: true), config)
        #expect(cross.trades.first?.exitKind == .liquidation)
        #expect(Self.near(try #require(cross.trades.first).exitPrice, (10_000 + 100 * (try #require(cross.trades.first).quantity))
                          / (try #require(cross.trades.first).quantity * 1.01)))
    }

    @Test("spot at leverage 1 is the cash account: margin, mmr, liquidation fee and margin rate change nothing, bit for bit",
          arguments: 0..<4)
    func cashAccountUnchanged(seed: Int) throws {
        let candles = EngineTest.random(bars: 400, seed: UInt(seed + 1))
        let signals = EngineTest.randomSignals(bars: 400, seed: UInt(seed + 11))
        var base = EngineTest.plain()
        base.allowShort = seed % 2 == 1
        base.stopLoss = 0.03
        var other = base
        other.margin = .isolated; other.mmr = 0.5; other.liqFeeBps = 100; other.marginRate = 0.5
        let a = try EngineTest.run(candles, signals, base), b = try EngineTest.run(candles, signals, other)
        #expect(a.cash == b.cash && a.equity == b.equity && a.fills == b.fills && a.trades == b.trades && b.account == nil)
    }

    @Test("random margin runs: final equity is the initial cash plus the trades' PnL, funding and interest are the trades', no liquidation without the price", arguments: 0..<6)
    func randomRuns(seed: Int) throws {
        let candles = EngineTest.random(bars: 500, seed: UInt(seed + 3))
        let signals = EngineTest.randomSignals(bars: 500, seed: UInt(seed + 5))
        var c = EngineTest.plain()
        c.leverage = [2, 5, 10, 25, 50, 100][seed]
        c.instrument = seed % 3 == 0 ? .spot : .perp
        c.mmr = seed % 3 == 0 ? 0.2 / c.leverage : 0.005
        c.margin = seed % 2 == 0 ? .cross : .isolated
        c.allowShort = seed % 2 == 1
        c.sizing = .equityFraction(c.leverage * 0.8)
        c.liqFeeBps = 20
        if c.instrument == .perp {
            c.funding = candles.time.map { FundingRate(timeMs: $0 * 1000, rate: 0.0003) }
        } else {
            c.marginRate = 0.08
        }
        let r = try EngineTest.run(candles, signals, c)
        let pnl = r.trades.reduce(0) { $0 + $1.pnl }
        #expect(abs(r.finalEquity - (c.initialCash + pnl)) <= 1e-7 * max(c.initialCash, abs(r.finalEquity)))
        for t in r.trades where t.exitKind == .liquidation {
            // Liquidated at the open or inside the bar's range, never beyond it.
            #expect(t.exitPrice >= candles.low[t.exitIndex] - 1e-9 && t.exitPrice <= candles.high[t.exitIndex] + 1e-9)
        }
        // Margin ratio below 1 at a close would have been a liquidation at that bar or before.
        #expect(!(r.account?.minMarginRatio ?? 2 < 1 - 1e-9), "\(r.account?.minMarginRatio ?? .nan)")
    }
}
