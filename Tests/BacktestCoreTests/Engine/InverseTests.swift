import Testing
@testable import BacktestCore

/// Inverse perpetuals (docs/design/orders.md, "Inverse perpetuals"): the account in the coin,
/// the liquidation price against its closed form and Binance COIN-M's formula, and the duality
/// that defines the accounting: q inverse contracts on prices P are the coin's short of q × M
/// quote units, so a run equals the linear run on the reciprocal prices 1/P with the sides
/// swapped. The goldens (`OrdersGoldenTests`, `*_inverse_*`) check the same against the reference
/// simulator's wallet-balance algebra.
@Suite("Inverse perpetuals")
struct InverseTests {
    static func config(leverage: Double, mode: MarginMode = .cross, mmr: Double = 0.01, multiplier: Double = 100) -> ExecutionConfig {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.instrument = .inversePerp
        c.multiplier = multiplier
        c.initialCash = 10
        c.leverage = leverage
        c.margin = mode
        c.mmr = mmr
        c.sizing = .equityFraction(leverage)
        return c
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance * max(1, abs(b)) }

    /// The candles of the reciprocal price 1/P: open 1/open, high 1/low, low 1/high, close 1/close.
    static func reciprocal(_ s: CandleSeries) -> CandleSeries {
        var r = s
        r.open = s.open.map { 1 / $0 }; r.close = s.close.map { 1 / $0 }
        r.high = s.low.map { 1 / $0 }; r.low = s.high.map { 1 / $0 }
        return r
    }

    @Test("a long's PnL is q × M × (1/entry − 1/exit) coins, fees on the coin notional; equity = cash − q × M / close")
    func longPnL() throws {
        let candles = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (110, 121, 109, 120), (125, 126, 124, 125)])
        var config = Self.config(leverage: 2)
        config.feeBps = 10
        var signals = MarginTests.signals(4, entry: 0)
        signals.exits[2] = true
        let r = try EngineTest.run(candles, signals, config)
        let t = try #require(r.trades.first)
        // 200% of 10 coins: notional + fee = 20 coins at 100, q = 20 / 1.001 × 100 / 100 contracts.
        let q = 20 / 1.001 * 100 / 100
        #expect(Self.near(t.quantity, q) && Self.near(t.entryPrice, 100) && Self.near(t.exitPrice, 125))
        let fees = 0.001 * q * 100 / 100 + 0.001 * q * 100 / 125
        #expect(Self.near(t.fees, fees))
        #expect(Self.near(t.pnl, q * 100 * (1 / 100.0 - 1 / 125.0) - fees))
        #expect(Self.near(r.finalEquity, 10 + t.pnl))
        // Equity at bar 2's close, in coins: the cash after the entry (it received the contracts' coins) less q × M / close.
        #expect(Self.near(r.equity[2], 10 + q * 100 / 100 - 0.001 * q - q * 100 / 120))
        #expect(r.account?.currency == "coin" && r.account?.description.hasSuffix(", equity in coin") == true)
    }

    @Test("cross liquidation at P* = q M (1 + mmr) / cash (long) and q M (1 − mmr) / −cash (short): Binance COIN-M's formula, a margin ratio of 1 there")
    func crossClosedForm() throws {
        let down = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 100, 95, 96), (96, 96, 85, 88), (88, 90, 87, 89)])
        let config = Self.config(leverage: 10)
        let long = try EngineTest.run(down, MarginTests.signals(5, entry: 0), config)
        let t = try #require(long.trades.first)
        #expect(t.exitKind == .liquidation && t.exitIndex == 3)
        let q = t.quantity * 100, cash = 10 + q / 100
        let closedForm = q * (1 + 0.01) / cash
        // Binance COIN-M, one-way, one tier, maintenance amount 0: (|Q| mmr + side |Q|) / (WB + side |Q| / EP), WB the wallet (10).
        let binance = (q * 0.01 + q) / (10 + q / 100)
        #expect(Self.near(t.exitPrice, closedForm) && Self.near(closedForm, binance), "\(t.exitPrice) vs \(closedForm), \(binance)")
        #expect(Self.near(LiquidationPrice.inverseMarginRatio(quantity: q, cash: cash, entryPrice: 100, price: closedForm, leverage: 10,
                                                              maintenanceRate: 0.01, mode: .cross), 1))
        let up = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 108, 99, 104), (104, 116, 103, 112), (112, 113, 111, 112)])
        var shortConfig = config
        shortConfig.allowShort = true
        let short = try EngineTest.run(up, MarginTests.signals(5, entry: 0, short: true), shortConfig)
        let s = try #require(short.trades.first)
        let qs = s.quantity * 100, cashShort = 10 - qs / 100
        #expect(s.side == .short && s.exitKind == .liquidation)
        #expect(Self.near(s.exitPrice, qs * (1 - 0.01) / -cashShort), "\(s.exitPrice)")
        #expect(Self.near(s.exitPrice, (qs * 0.01 - qs) / (10 - qs / 100)))
    }

    @Test("isolated: P* = entry (1 + mmr) / (1 + 1/L) long, entry (1 − mmr) / (1 − 1/L) short; a gap beyond it at the open")
    func isolatedAndGap() throws {
        let down = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 100, 70, 75), (75, 76, 74, 75)])
        let long = try EngineTest.run(down, MarginTests.signals(4, entry: 0), Self.config(leverage: 5, mode: .isolated))
        #expect(Self.near(try #require(long.trades.first).exitPrice, 100 * (1 + 0.01) / (1 + 1.0 / 5)))
        var config = Self.config(leverage: 5, mode: .isolated)
        config.allowShort = true
        let up = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (100, 130, 99, 125), (125, 126, 124, 125)])
        let short = try EngineTest.run(up, MarginTests.signals(4, entry: 0, short: true), config)
        #expect(Self.near(try #require(short.trades.first).exitPrice, 100 * (1 - 0.01) / (1 - 1.0 / 5)))
        // Opening at 80, below the long's P* (84.17): liquidated at the open.
        let gap = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100), (80, 82, 78, 81), (81, 82, 80, 81)])
        let g = try EngineTest.run(gap, MarginTests.signals(4, entry: 0), Self.config(leverage: 5, mode: .isolated))
        #expect(g.trades.first?.exitKind == .liquidation && g.trades.first?.exitPrice == 80 && g.trades.first?.exitIndex == 2)
    }

    @Test("a random inverse run equals the linear perpetual on 1/P with the sides swapped: equity, trades, liquidations and funding",
          arguments: 0..<8)
    func reciprocalDuality(seed: Int) throws {
        let candles = EngineTest.random(bars: 400, seed: UInt(seed + 21))
        let signals = EngineTest.randomSignals(bars: 400, seed: UInt(seed + 31))
        var inverse = Self.config(leverage: [1, 2, 5, 10, 20, 50, 3, 8][seed], mode: seed % 2 == 0 ? .cross : .isolated,
                                  mmr: 0.005, multiplier: [1, 100, 10, 100][seed % 4])
        inverse.feeBps = 5
        inverse.liqFeeBps = 10
        inverse.sizing = .equityFraction(inverse.leverage * 0.9)
        inverse.funding = candles.time.indices.map { i in
            FundingRate(timeMs: candles.time[i] * 1000 + 60_000, rate: 0.0004 * Double(i % 5 - 2), markPrice: i % 3 == 0 ? nil : candles.open[i])
        }
        let r = try EngineTest.run(candles, signals, inverse)
        // The linear perpetual on X = 1/P, short where the inverse run is long; funding's rate negated, its mark 1/mark.
        var linear = inverse
        linear.instrument = .perp
        linear.allowShort = true
        linear.funding = inverse.funding.map { FundingRate(timeMs: $0.timeMs, rate: -$0.rate, markPrice: $0.markPrice.map { 1 / $0 }) }
        let none = [Bool](repeating: false, count: 400)
        let swapped = Signals(entries: none, exits: none, shortEntries: signals.entries, shortExits: signals.exits)
        let x = try EngineTest.run(Self.reciprocal(candles), swapped, linear)
        #expect(r.trades.count == x.trades.count && r.trades.count > 0)
        for (a, b) in zip(r.trades, x.trades) {
            #expect(a.entryIndex == b.entryIndex && a.exitIndex == b.exitIndex && a.exitKind == b.exitKind && a.side == .long && b.side == .short)
            #expect(Self.near(a.quantity, b.quantity, 1e-9) && Self.near(a.entryPrice, 1 / b.entryPrice, 1e-9)
                    && Self.near(a.exitPrice, 1 / b.exitPrice, 1e-9))
            #expect(Self.near(a.pnl, b.pnl, 1e-9) && Self.near(a.fees, b.fees, 1e-9) && Self.near(a.funding, b.funding, 1e-9))
        }
        let worst = zip(r.equity, x.equity).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
        #expect(worst <= 1e-9, "equity differs by \(worst)")
        #expect(r.account?.liquidations == x.account?.liquidations)
        #expect(Self.near(r.account?.fundingPaid ?? .nan, x.account?.fundingPaid ?? .nan, 1e-9))
    }

    @Test("the equity identity holds at every bar in the coin: cash − position × M / close, and initial cash + trades' PnL at the end",
          arguments: 0..<4)
    func equityIdentity(seed: Int) throws {
        let candles = EngineTest.random(bars: 300, seed: UInt(seed + 51))
        var config = Self.config(leverage: 4, mode: seed % 2 == 0 ? .cross : .isolated, mmr: 0.005)
        config.allowShort = true
        config.feeBps = 4
        config.exits = ExitRules(stopLoss: .fraction(0.02), takeProfits: [TakeProfit(.fraction(0.03))])
        let r = try EngineTest.run(candles, EngineTest.randomSignals(bars: 300, seed: UInt(seed + 61)), config)
        for t in 0..<candles.count {
            let coins = r.cash[t] - r.position[t] * 100 / candles.close[t]
            #expect(Self.near(r.equity[t], coins), "bar \(t): \(r.equity[t]) vs \(coins)")
        }
        #expect(Self.near(r.finalEquity, 10 + r.trades.reduce(0) { $0 + $1.pnl }, 1e-9))
    }

    @Test("the cost split in coins: gross PnL is what the same fills make at their reference prices; spread and impact are not negative",
          arguments: 0..<3)
    func costSplit(seed: Int) throws {
        let candles = EngineTest.random(bars: 400, seed: UInt(seed + 71))
        // The default liquidity model (synthetic depth with the spread and impact), coin fees.
        var config = ExecutionConfig()
        config.instrument = .inversePerp; config.multiplier = 100; config.initialCash = 5
        config.leverage = 3; config.sizing = .equityFraction(2.5); config.allowShort = seed % 2 == 1
        let r = try EngineTest.run(candles, EngineTest.randomSignals(bars: 400, seed: UInt(seed + 81)), config)
        #expect(r.fills.count > 10 && r.fills.contains { $0.slippageCost > 0 })
        // At the reference price a buy of q contracts receives q × 100 / reference coins, a sell pays them.
        var flows = 0.0
        for f in r.fills { flows += (f.side == .buy ? 1 : -1) * f.quantityFilled * 100 / f.referencePrice }
        let last = r.position.last ?? 0, close = candles.close.last ?? .nan
        let gross = flows - last * 100 / close
        let split = r.costSplit
        #expect(Self.near(split.grossPnL, gross, 1e-9), "\(split.grossPnL) vs \(gross)")
        #expect(r.fills.allSatisfy { $0.spreadCost >= 0 && $0.impactCost >= -1e-12 * $0.quantityFilled * 100 / $0.vwap })
    }

    @Test("refused: a per-unit fee (a quote amount on coin fees) and prices at or below 0, naming the setting")
    func refused() throws {
        var config = Self.config(leverage: 2)
        config.feePerUnit = 0.1
        let candles = MarginTests.bars([(100, 100, 100, 100), (100, 101, 99, 100)])
        #expect(throws: InputError.self) { try Engine.run(Engine.Request(candles, signals: MarginTests.signals(2, entry: 0), config: config)) }
        do { try config.validate() } catch let e as InputError { #expect(e.setting == .feePerUnit) }
        let zero = MarginTests.bars([(100, 100, 100, 100), (100, 101, 0, 100)])
        do {
            _ = try Engine.run(Engine.Request(zero, signals: MarginTests.signals(2, entry: 0), config: Self.config(leverage: 2)))
            Issue.record("a low of 0 was accepted")
        } catch let e as InputError {
            #expect(e.setting == .instrument && e.reason.contains("low") && e.reason.contains("above 0"), "\(e)")
        }
        // The same prices are fine for a linear perpetual.
        var perp = Self.config(leverage: 2)
        perp.instrument = .perp
        _ = try Engine.run(Engine.Request(zero, signals: MarginTests.signals(2, entry: 0), config: perp))
    }

    @Test("the settlement coin is the symbol's base", arguments: [
        ("BTCUSD_PERP", "BTC"), ("BTCUSD", "BTC"), ("ethusd", "ETH"), ("BTC-USD@1h", "BTC"), ("XBTUSD", "XBT"), ("GOOG", nil), ("USD", nil),
    ] as [(String, String?)])
    func settlementCoin(symbol: String, coin: String?) {
        #expect(Instrument.settlementCoin(symbol: symbol) == coin)
    }
}
