import Testing
@testable import BacktestCore

@Suite("Engine execution semantics")
struct EngineTests {
    let prices = [100.0, 102, 104, 101, 99, 103]
    func bits(_ idx: [Int], _ n: Int) -> [Bool] { (0..<n).map { idx.contains($0) } }

    @Test("next-open: signal at t fills at t+1's open, all in with the fee included")
    func nextOpen() throws {
        let s = EngineTest.flat(prices)
        let r = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([2], 6)), EngineTest.plain())
        // buy at open[1] = 102 with 10000 / 1.001 notional; sell at open[3] = 101.
        let qty = 10_000 / 1.001 / 102
        let proceeds = qty * 101 * (1 - 0.001)
        #expect(r.fills.count == 2)
        #expect(r.fills[0].index == 1 && r.fills[0].vwap == 102 && r.fills[0].slippageBps == 0)
        #expect(abs(r.fills[0].quantityFilled - qty) < 1e-9)
        #expect(abs(r.cash[1]) < 1e-9)
        #expect(abs(r.equity[2] - qty * 104) < 1e-9)
        #expect(r.fills[1].index == 3)
        #expect(abs(r.finalEquity - proceeds) < 1e-9)
        #expect(r.trades.count == 1 && !r.trades[0].isOpen && r.trades[0].barsHeld == 2)
        #expect(abs(r.trades[0].fees - (10_000 - 10_000 / 1.001 + qty * 101 * 0.001)) < 1e-9)
    }

    @Test("close: signal at t fills at t's close")
    func closeFill() throws {
        var c = EngineTest.plain()
        c.fill = .close
        c.feeBps = 0
        let r = try EngineTest.run(EngineTest.flat(prices), Signals(entries: bits([0], 6), exits: bits([2], 6)), c)
        #expect(r.fills.map(\.index) == [0, 2])
        #expect(abs(r.finalEquity - 10_000 * 104 / 100) < 1e-9)
    }

    @Test("a signal on the last bar never fills with next-open")
    func lastBar() throws {
        let r = try EngineTest.run(EngineTest.flat(prices), Signals(entries: bits([5], 6), exits: bits([], 6)), EngineTest.plain())
        #expect(r.fills.isEmpty && r.finalEquity == 10_000)
    }

    @Test("entries while in position are ignored; exits while flat are ignored; same-bar conflicts cancel")
    func ignoredSignals() throws {
        let r = try EngineTest.run(EngineTest.flat(prices),
                                   Signals(entries: bits([0, 1, 2, 3], 6), exits: bits([3, 4], 6)), EngineTest.plain())
        // bar 3 has both: cancelled; exit at 4 fills at 5.
        #expect(r.fills.map(\.index) == [1, 5])
        #expect(r.trades.count == 1)
    }

    @Test("--short: exits reverse into a short and entries reverse back")
    func shortReversal() throws {
        var c = EngineTest.plain()
        c.allowShort = true
        c.feeBps = 0
        let r = try EngineTest.run(EngineTest.flat(prices), Signals(entries: bits([0, 3], 6), exits: bits([1], 6)), c)
        // long at 102 (bar 1), reverse at 104 (bar 2), cover and go long at 99 (bar 4).
        #expect(r.fills.map(\.side) == [.buy, .sell, .sell, .buy, .buy])
        #expect(r.trades.map(\.side) == [.long, .short, .long])
        let afterLong = 10_000.0 * 104 / 102
        let afterShort = afterLong + (afterLong / 104) * (104 - 99)
        #expect(abs(r.trades[1].pnl - (afterShort - afterLong)) < 1e-9)
        #expect(r.position[2] < 0 && r.position[4] > 0)
        #expect(abs(r.finalEquity - afterShort * 103 / 99) < 1e-9)
    }

    @Test("sizing: share of equity, units, cash; lot rounding; minimum notional; minimum fee")
    func sizing() throws {
        let s = EngineTest.flat(prices)
        let sig = Signals(entries: bits([0], 6), exits: bits([], 6))
        var c = EngineTest.plain()
        c.sizing = .equityFraction(0.25)
        var r = try EngineTest.run(s, sig, c)
        #expect(abs(r.fills[0].quantityFilled * 102 * 1.001 - 2_500) < 1e-9)
        c.sizing = .units(10)
        r = try EngineTest.run(s, sig, c)
        #expect(r.fills[0].quantityFilled == 10 && abs(r.fills[0].fee - 1.02) < 1e-12)
        c.sizing = .cash(5_000)
        c.lot = 1
        r = try EngineTest.run(s, sig, c)
        #expect(r.fills[0].quantityFilled == 49)  // 5000 / 102 = 49.02 -> 49
        c.feeMin = 5
        r = try EngineTest.run(s, sig, c)
        #expect(r.fills[0].fee == 5)
        c.minNotional = 6_000
        r = try EngineTest.run(s, sig, c)
        #expect(r.fills.isEmpty && r.rejected.map(\.reason) == [.belowMinNotional])
        c.minNotional = nil
        c.sizing = .units(0.5)
        r = try EngineTest.run(s, sig, c)
        #expect(r.rejected.map(\.reason) == [.zeroQuantity])
        c.sizing = .units(1_000)  // more than cash buys: shrinks to what cash affords
        c.lot = nil
        c.feeMin = 0
        r = try EngineTest.run(s, sig, c)
        #expect(abs(r.fills[0].quantityFilled - 10_000 / 1.001 / 102) < 1e-9)
    }

    @Test("size strings parse")
    func sizeParsing() throws {
        #expect(try ExecutionConfig.Sizing.parse("100%") == .equityFraction(1))
        #expect(try ExecutionConfig.Sizing.parse("25%") == .equityFraction(0.25))
        #expect(try ExecutionConfig.Sizing.parse("10u") == .units(10))
        #expect(try ExecutionConfig.Sizing.parse("5000$") == .cash(5000))
        // Up to 100 × the largest leverage parses; the configuration checks it against its leverage.
        #expect(try ExecutionConfig.Sizing.parse("150%") == .equityFraction(1.5))
        for bad in ["0%", "12600%", "abc", "10", "-5u", ""] {
            #expect(throws: InputError.self) { try ExecutionConfig.Sizing.parse(bad) }
        }
        var config = ExecutionConfig()
        config.sizing = .equityFraction(1.5)
        #expect(throws: InputError.self) { try config.validate() }
        config.leverage = 2
        try config.validate()
    }

    @Test("stop-loss and take-profit on the bar's range; both possible takes the stop and counts the bar")
    func stops() throws {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.stopLoss = 0.05
        c.takeProfit = 0.10
        // Entry at open[1] = 100. Bar 2 touches 94 (stop at 95). Bar 4 after re-entry spans both.
        let s = EngineTest.candles([
            (100, 101, 99, 100, 1e9), (100, 101, 99, 100, 1e9), (100, 101, 94, 96, 1e9),
            (100, 101, 99, 100, 1e9), (100, 111, 94, 100, 1e9), (100, 101, 99, 100, 1e9),
        ])
        let r = try EngineTest.run(s, Signals(entries: bits([0, 3], 6), exits: bits([], 6)), c)
        #expect(r.fills.map(\.index) == [1, 2, 4, 4])
        #expect(r.fills[1].referencePrice == 95)
        #expect(r.fills[3].referencePrice == 95)
        #expect(r.ambiguousExitBars == 1)
        // Take-profit alone, and a gap through the stop exits at the open.
        let s2 = EngineTest.candles([
            (100, 101, 99, 100, 1e9), (100, 101, 99, 100, 1e9), (100, 112, 99, 108, 1e9),
            (100, 101, 99, 100, 1e9), (100, 101, 99, 100, 1e9), (90, 91, 89, 90, 1e9),
        ])
        let r2 = try EngineTest.run(s2, Signals(entries: bits([0, 3], 6), exits: bits([], 6)), c)
        #expect(zip(r2.fills.map(\.referencePrice), [100.0, 110, 100, 90]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(r2.fills.count == 4)
        #expect(r2.ambiguousExitBars == 0)
    }

    @Test("--tick rounds stop prices against the position")
    func tickStops() throws {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.stopLoss = 0.0333
        c.tick = 0.5
        let s = EngineTest.candles([(100, 101, 99, 100, 1e9), (100, 101, 99, 100, 1e9), (100, 101, 90, 95, 1e9)])
        let r = try EngineTest.run(s, Signals(entries: bits([0], 3), exits: bits([], 3)), c)
        #expect(r.fills.last?.referencePrice == 96.5)  // 96.67 rounded down to the 0.5 tick
    }

    @Test("participation cap: partial entry, and an exit remainder keeps working until flat")
    func participation() throws {
        var c = EngineTest.plain()
        c.maxParticipation = 0.1
        c.feeBps = 0
        // 10000 at 100 wants 100 units; the cap is 0.1 x 400 = 40 per bar.
        let s = EngineTest.flat([100, 100, 100, 100, 100, 100], volume: 400)
        let r = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([1], 6)), c)
        #expect(r.fills[0].quantityFilled == 40 && r.fills[0].isPartial)
        #expect(r.fills.map(\.index) == [1, 2])
        #expect(r.position[2] == 0 && r.trades.count == 1)
        c.maxParticipation = 0.05  // 20 per bar: exit takes two bars
        let r2 = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([1], 6)), c)
        #expect(r2.fills.map(\.quantityFilled) == [20, 20])
        let r3 = try EngineTest.run(EngineTest.flat([100, 100, 100, 100, 100, 100], volume: 100),
                                    Signals(entries: bits([0], 6), exits: bits([1], 6)), c)
        // 5 units per bar: entry 5, exit 5 in one go.
        #expect(r3.fills.map(\.quantityFilled) == [5, 5])
        // No volume at all: the cap is off (missing volume is not "no liquidity"), with a warning.
        let r4 = try EngineTest.run(EngineTest.flat([100, 100, 100], volume: 0),
                                    Signals(entries: bits([0], 3), exits: bits([], 3)), c)
        #expect(r4.rejected.isEmpty && r4.fills.map(\.quantityFilled) == [100])
        #expect(r4.warnings.map(\.kind) == [.noVolume])
    }

    @Test("a stop that the participation cap fills in part sells the remainder at the next bar's open and ends the trade as a stop")
    func stopRemainder() throws {
        var c = EngineTest.plain()
        c.maxParticipation = 0.1
        c.feeBps = 0
        c.stopLoss = 0.05
        // The entry fills 40 units (0.1 x 400). The stop bar trades 200: 20 go at the stop
        // (95), the other 20 at bar 4's open, still as the stop's exit.
        let s = EngineTest.candles([(100, 101, 99, 100, 400), (100, 101, 99, 100, 400), (100, 101, 99, 100, 400),
                                    (99, 99, 90, 92, 200), (93, 94, 92, 93, 400), (93, 94, 92, 93, 400)])
        let r = try EngineTest.run(s, Signals(entries: bits([0], 6), exits: bits([], 6)), c)
        #expect(r.fills.map(\.index) == [1, 3, 4])
        #expect(r.fills.map(\.quantityFilled) == [40, 20, 20])
        #expect(r.fills.map(\.referencePrice) == [100, 95, 93])
        #expect(r.trades.count == 1 && r.trades[0].exitKind == .stop && r.trades[0].exitIndex == 4)
        #expect(r.position[3] == 20 && r.position[4] == 0)
    }

    @Test("bad configuration throws an input error naming the setting and its value")
    func validation() {
        var c = ExecutionConfig()
        c.feeBps = -1
        #expect(throws: InputError("fee must be in [0, 10000) basis points", setting: .feeBps, value: "-1")) {
            try Engine.run(Engine.Request(EngineTest.flat([1, 2]), signals: Signals(entries: [false, false], exits: [false, false]), config: c))
        }
    }
}
