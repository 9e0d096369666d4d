import Testing
@testable import BacktestCore

/// Borrow on shorts (`ExecutionConfig.borrowBps`, docs/design/orders.md "Borrow"): which closes
/// pay, for how long, and where the charge goes, on hand-made series whose charges are worked
/// out by hand. The goldens (`OrdersGoldenTests`, `goog_short_borrow*`) check it on GOOG.
@Suite("Borrow on shorts")
struct BorrowTests {
    static let day: Int64 = 86_400

    /// Bars at `days` (days after a Thursday) with the given closes (open = close, ±1% range).
    static func series(days: [Int64], closes: [Double]) -> CandleSeries {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        let thursday: Int64 = 1_600_300_800  // 2020-09-17
        for (d, c) in zip(days, closes) {
            s.append(time: thursday + d * day, open: c, high: c * 1.01, low: c * 0.99, close: c, volume: 1e9)
        }
        return s
    }

    /// Short-only signals: short entries at `entries`, short exits at `exits`.
    static func shorts(bars n: Int, entries: [Int], exits: [Int]) -> Signals {
        let none = [Bool](repeating: false, count: n)
        return Signals(entries: none, exits: none, shortEntries: (0..<n).map { entries.contains($0) },
                       shortExits: (0..<n).map { exits.contains($0) })
    }

    /// No fees, 10 units, shorts allowed, the given borrow rate and fill timing.
    static func config(bps: Double, fill: ExecutionConfig.FillTiming) -> ExecutionConfig {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.sizing = .units(10)
        c.allowShort = true
        c.fill = fill
        c.borrowBps = bps
        return c
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(b)) }

    @Test("fill close: a short filled at a close pays from that close, over the weekend for 3 days; closed at a close, not for that bar")
    func fillClose() throws {
        // Thu, Fri, Mon, Tue, Wed: 36.5% a year is 0.1% a day.
        let candles = Self.series(days: [0, 1, 4, 5, 6], closes: [100, 100, 110, 105, 100])
        let r = try EngineTest.run(candles, Self.shorts(bars: 5, entries: [1], exits: [3]), Self.config(bps: 3_650, fill: .close))
        // Friday's close: 10 × 100 × 0.1% × 3 days = 3; Monday's: 10 × 110 × 0.1% = 1.1; Tuesday's: closed at it.
        let expectedCash: [Double] = [10_000, 10_000 + 1_000 - 3, 10_997 - 1.1, 10_995.9 - 1_050, 9_945.9]
        #expect(zip(r.cash, expectedCash).allSatisfy { Self.near($0, $1) }, "cash \(r.cash)")
        let paid = try #require(r.borrowPaid)
        #expect(Self.near(paid, 4.1))
        let trade = try #require(r.trades.first)
        #expect(r.trades.count == 1 && trade.side == .short)
        #expect(Self.near(trade.borrow, 4.1) && Self.near(trade.pnl, 10 * (100 - 105) - 4.1))
        #expect(Self.near(r.finalEquity, 10_000 - 54.1))
        let split = r.costSplit
        #expect(Self.near(split.borrow, 4.1) && Self.near(split.grossPnL, -50) && Self.near(split.netPnL, -54.1))
    }

    @Test("next open: a short filled at an open pays at that bar's close; the last bar pays for the previous bar's duration")
    func nextOpenAndLastBar() throws {
        // Days 0, 1, 2, 3, 7: the fourth bar lasts 4 days, and so does the last.
        let candles = Self.series(days: [0, 1, 2, 3, 7], closes: [100, 100, 100, 120, 90])
        let r = try EngineTest.run(candles, Self.shorts(bars: 5, entries: [2], exits: []), Self.config(bps: 3_650, fill: .nextOpen))
        #expect(r.fills.count == 1 && r.fills[0].index == 3)
        // Bar 3's close: 10 × 120 × 0.1% × 4 = 4.8; the last bar's: 10 × 90 × 0.1% × 4 = 3.6. Nothing before the fill.
        #expect(r.cash[2] == 10_000)
        #expect(Self.near(r.cash[3], 10_000 + 1_200 - 4.8) && Self.near(r.cash[4], 11_195.2 - 3.6))
        let trade = try #require(r.trades.first)
        let paid = try #require(r.borrowPaid)
        #expect(trade.isOpen && Self.near(trade.borrow, 8.4) && Self.near(trade.pnl, 10 * (120 - 90) - 8.4))
        #expect(Self.near(paid, 8.4))
    }

    @Test("a short reversed into a long stops paying at the close it reverses on; longs never pay", arguments: ExecutionConfig.FillTiming.allCases)
    func reversal(fill: ExecutionConfig.FillTiming) throws {
        let closes: [Double] = [100, 101, 102, 103, 104, 105, 106, 107]
        let candles = Self.series(days: Array(0..<8), closes: closes)
        // Long at bar 0, reversed into a short at bar 2, back into a long at bar 5 (decisions).
        var entries = [Bool](repeating: false, count: 8), exits = entries
        entries[0] = true; exits[2] = true; entries[5] = true
        var config = Self.config(bps: 3_650, fill: fill)
        config.sizing = .units(10)
        let r = try EngineTest.run(candles, Signals(entries: entries, exits: exits), config)
        #expect(r.trades.map(\.side) == [.long, .short, .long])
        let held = (0..<8).filter { r.position[$0] < 0 }
        #expect(held == (fill == .close ? [2, 3, 4] : [3, 4, 5]), "short at the closes \(held)")
        let expected = held.reduce(0.0) { $0 + 0.001 * 10 * closes[$1] }
        let paid = try #require(r.borrowPaid)
        #expect(Self.near(r.trades[1].borrow, expected) && Self.near(paid, expected))
        #expect(r.trades[0].borrow == 0 && r.trades[2].borrow == 0)
        // Each bar's cash falls by exactly its charge while short, and by nothing else on bars without fills.
        for t in held.dropFirst() where !r.fills.contains(where: { $0.index == t }) {
            #expect(Self.near(r.cash[t - 1] - r.cash[t], 0.001 * 10 * closes[t]), "bar \(t)")
        }
    }

    @Test("a long-only run pays nothing: with a borrow rate its ledger equals the run without one bit for bit",
          arguments: ExecutionConfig.FillTiming.allCases)
    func longsNeverPay(fill: ExecutionConfig.FillTiming) throws {
        let candles = EngineTest.random(bars: 400, seed: 5)
        let signals = EngineTest.randomSignals(bars: 400, seed: 6)
        var config = ExecutionConfig()
        config.fill = fill
        config.stopLoss = 0.02
        let base = try EngineTest.run(candles, signals, config)
        config.borrowBps = 5_000
        let borrowed = try EngineTest.run(candles, signals, config)
        #expect(base.fills.count > 10)
        #expect(borrowed.cash == base.cash && borrowed.equity == base.equity && borrowed.trades == base.trades)
        #expect(base.borrowPaid == nil && borrowed.borrowPaid == 0)
    }

    @Test("shorts pay more the higher the rate, the ledger adds up, and charges compound through the sizing")
    func shortsPayAndReconcile() throws {
        let candles = EngineTest.random(bars: 500, seed: 8)
        let signals = EngineTest.randomSignals(bars: 500, seed: 9)
        var config = ExecutionConfig()
        config.allowShort = true
        let free = try EngineTest.run(candles, signals, config)
        config.borrowBps = 2_000
        let low = try EngineTest.run(candles, signals, config)
        config.borrowBps = 20_000
        let high = try EngineTest.run(candles, signals, config)
        let lowPaid = try #require(low.borrowPaid), highPaid = try #require(high.borrowPaid)
        #expect(lowPaid > 0 && highPaid > lowPaid)
        #expect(high.finalEquity < low.finalEquity && low.finalEquity < free.finalEquity)
        for r in [low, high] {
            #expect(Self.near(r.trades.reduce(0) { $0 + $1.borrow }, r.borrowPaid ?? 0))
            let split = r.costSplit
            #expect(Self.near(split.grossPnL - split.netPnL, split.fees + split.spread + split.impact + split.borrow))
        }
    }

    @Test("a run with borrow takes the order loop (the classic loop has no branch for it); without, the classic one")
    func orderLoop() {
        let candles = EngineTest.random(bars: 50, seed: 3)
        var config = ExecutionConfig()
        config.allowShort = true
        #expect(Engine.Loop(Broker(config: config, candles: candles)) == .classic)
        config.borrowBps = 100
        #expect(Engine.Loop(Broker(config: config, candles: candles)) == .orders)
    }

    @Test("the borrow rate's range: [0, 100000] basis points a year", arguments: [-1, 100_001, .nan, .infinity] as [Double])
    func refusesBadRates(_ bps: Double) throws {
        var config = ExecutionConfig()
        config.borrowBps = bps
        let error = #expect(throws: InputError.self) { try config.validate() }
        #expect(error?.setting == .borrowBps)
        #expect(error?.reason.contains("[0, 100000]") == true, "\(String(describing: error))")
        config.borrowBps = 100_000
        try config.validate()
    }
}
