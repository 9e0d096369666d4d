import Testing
@testable import BacktestCore
import TestSupport

/// Fees as brokers charge them (`FeeSchedule`): the rate, the per-unit fee, the minimum and the
/// cap, in that order; which fills are a maker's; how much a buy may spend; and that the
/// defaults charge and size exactly as the rate-and-minimum formulas did before.
@Suite("Fee schedule")
struct FeeScheduleTests {
    @Test("a fill's fee: rate plus per unit, at least the minimum (charges only), at most the cap (the cap wins)",
          arguments: [
            // (taker, maker, per unit, min, cap, notional, quantity, maker fill, fee)
            (0.001, nil, 0.0, 0.0, nil, 10_000.0, 100.0, false, 10.0),          // the rate
            (0.001, nil, 0.02, 0.0, nil, 10_000.0, 100.0, false, 12.0),         // + 100 units x 0.02
            (0.001, nil, 0.0, 15.0, nil, 10_000.0, 100.0, false, 15.0),         // the minimum binds
            (0.001, nil, 0.0, 15.0, 0.001, 10_000.0, 100.0, false, 10.0),       // the cap wins over the minimum
            (0.005, nil, 0.0, 0.0, 0.002, 10_000.0, 100.0, false, 20.0),        // the cap binds on the rate
            (0.001, 0.0002, 0.0, 0.0, nil, 10_000.0, 100.0, true, 2.0),         // a maker's rate
            (0.001, 0.0002, 0.0, 0.0, nil, 10_000.0, 100.0, false, 10.0),       // the taker's for a taker fill
            (0.001, -0.0002, 0.0, 5.0, nil, 10_000.0, 100.0, true, -2.0),       // a rebate is not floored by the minimum
            (0.001, -0.0002, 0.01, 5.0, nil, 10_000.0, 100.0, true, -1.0),      // -2 + 100 x 0.01: a rebate of 1
            (0.001, -0.0002, 0.03, 5.0, nil, 10_000.0, 100.0, true, 5.0),       // -2 + 3 = 1: a charge, the minimum binds
            (0.001, -0.0002, 0.03, 5.0, 0.0004, 10_000.0, 100.0, true, 4.0),    // then capped at 0.04% of 10 000
          ] as [(Double, Double?, Double, Double, Double?, Double, Double, Bool, Double)])
    func fee(_ row: (Double, Double?, Double, Double, Double?, Double, Double, Bool, Double)) {
        let (taker, maker, unit, minimum, cap, notional, quantity, isMaker, expected) = row
        let s = FeeSchedule(takerRate: taker, makerRate: maker, perUnit: unit, minimum: minimum, cap: cap)
        let got = s.fee(notional: notional, quantity: quantity, maker: isMaker)
        #expect(abs(got - expected) <= 1e-12 * notional, "fee \(got), expected \(expected)")
    }

    @Test("defaults: the fee and the affordable notional are the rate-and-minimum formulas, bit for bit")
    func defaultsUnchanged() {
        var g = SplitMix64(seed: 40)
        for _ in 0..<2_000 {
            var c = ExecutionConfig()
            c.feeBps = (g.unit() * 200).rounded() / 4
            c.feeMin = g.unit() < 0.5 ? 0 : g.unit() * 10
            let s = c.fees
            let notional = g.unit() * 1e6, cash = g.unit() * 1e6, price = 1 + g.unit() * 500
            for maker in [false, true] {
                #expect(s.fee(notional: notional, quantity: notional / price, maker: maker).bitPattern
                        == max(notional * c.feeRate, c.feeMin).bitPattern)
                #expect(s.affordableNotional(cash: cash, price: price, maker: maker).bitPattern
                        == max(0, min(cash / (1 + c.feeRate), cash - c.feeMin)).bitPattern)
            }
        }
    }

    @Test("the affordable notional and its fee fit the cash, and a little more does not (random schedules)")
    func affordableIsTight() {
        var g = SplitMix64(seed: 41)
        var capBound = 0
        for _ in 0..<5_000 {
            let s = FeeSchedule(takerRate: g.unit() * 0.01, makerRate: g.unit() < 0.3 ? -g.unit() * 0.0005 : g.unit() * 0.005,
                                perUnit: g.unit() < 0.5 ? 0 : g.unit() * 0.1, minimum: g.unit() < 0.4 ? 0 : g.unit() * 20,
                                cap: g.unit() < 0.5 ? nil : 0.0005 + g.unit() * 0.01)
            let cash = 10 + g.unit() * 100_000, price = 0.5 + g.unit() * 300, maker = g.unit() < 0.5
            let n = s.affordableNotional(cash: cash, price: price, maker: maker)
            // Sizing counts a rebate as 0: never spend it before it is paid.
            let sizing = FeeSchedule(takerRate: max(0, s.takerRate), makerRate: max(0, s.makerRate), perUnit: s.perUnit,
                                     minimum: s.minimum, cap: s.cap)
            func cost(_ x: Double) -> Double { x + sizing.fee(notional: x, quantity: x / price, maker: maker) }
            #expect(n >= 0 && cost(n) <= cash * (1 + 1e-12), "n \(n) costs \(cost(n)) > cash \(cash)")
            if n > 0 {
                #expect(cost(n * (1 + 1e-9) + 1e-9) > cash * (1 - 1e-12), "n \(n) is not the most: \(cost(n * (1 + 1e-9))) <= \(cash)")
            } else {
                #expect(cost(1e-6) > cash)
            }
            if let cap = s.cap, n > 0, sizing.fee(notional: n, quantity: n / price, maker: maker) == cap * n { capBound += 1 }
        }
        #expect(capBound > 100, "the cap should bind in some draws")
    }

    /// A bar the order works on, then bars for the exits: o, h, l, c.
    static let bars: [(Double, Double, Double, Double, Double)] = [
        (100, 101, 99, 100, 1e9),   // 0: the entry signal (limit at 99)
        (100, 100.5, 98.5, 99.5, 1e9), // 1: the limit is reached inside the bar: a maker fill at 99
        (99.5, 102, 99, 101, 1e9),  // 2: the target (99 x 1.03 = 101.97) inside the bar: a maker exit at its level
        (100, 101, 99, 100, 1e9),   // 3: the second entry signal (limit at 99)
        (98, 99, 97, 98.5, 1e9),    // 4: the open gaps below the limit: a taker fill at the open (98)
        (98.5, 99, 94, 95, 1e9),    // 5: the stop (98 x 0.96 = 94.08) inside the bar: a taker exit
        (95, 96, 94, 95, 1e9),      // 6: the third entry signal (limit at 94.05)
        (94, 94.5, 93.5, 94, 1e9),  // 7: a fill at the open (94 <= 94.05): taker
        (97, 98, 96, 97.5, 1e9),    // 8: the open is through the target (94 x 1.03 = 96.82): a taker target-gap
        (97, 98, 96, 97, 1e9),
    ]

    @Test("maker fills: a limit entry filled at its limit inside the bar and a target at its level; the rest are takers")
    func makerFills() throws {
        let candles = EngineTest.candles(Self.bars)
        let n = candles.count
        var entries = [Bool](repeating: false, count: n)
        for i in [0, 3, 6] { entries[i] = true }
        var config = EngineTest.plain()
        config.feeBps = 10
        config.makerBps = -1
        config.feePerUnit = 0.01
        config.sizing = .units(10)
        config.entries = EntryRules(limit: OrdersTest.expression("close * 0.99", .entryLimit), orderBars: 2)
        config.exits = ExitRules(stopLoss: .fraction(0.04), takeProfits: [TakeProfit(.fraction(0.03))])
        let r = try EngineTest.run(candles, Signals(entries: entries, exits: [Bool](repeating: false, count: n)), config)
        let expected: [(bar: Int, maker: Bool)] = [(1, true), (2, true), (4, false), (5, false), (7, false), (8, false)]
        #expect(r.fills.map(\.index) == expected.map(\.bar), "\(r.fills.map { ($0.index, $0.vwap) })")
        #expect(r.trades.map(\.exitKind) == [.target, .stop, .targetGap])
        for (f, e) in zip(r.fills, expected) {
            let notional = f.quantityFilled * f.vwap
            let want = notional * (e.maker ? -0.0001 : 0.001) + f.quantityFilled * 0.01
            #expect(abs(f.fee - want) <= 1e-12 * notional, "bar \(f.index): fee \(f.fee), expected \(want) (\(e.maker ? "maker" : "taker"))")
        }
        // The cost split: the fees paid are the fills' fees, the maker rebates netted in.
        #expect(abs(r.feesPaid - r.fills.reduce(0) { $0 + $1.fee }) <= 1e-12)
    }

    @Test("a buy at a maker rebate spends no more than the cash (the rebate is not spent in advance)")
    func rebateDoesNotLever() throws {
        let candles = EngineTest.candles(Self.bars)
        let n = candles.count
        var entries = [Bool](repeating: false, count: n)
        entries[0] = true
        var config = EngineTest.plain()
        config.makerBps = -100
        config.entries = EntryRules(limit: OrdersTest.expression("close * 0.99", .entryLimit), orderBars: 2)
        let r = try EngineTest.run(candles, Signals(entries: entries, exits: [Bool](repeating: false, count: n)), config)
        let fill = try #require(r.fills.first)
        #expect(fill.quantityFilled * fill.vwap <= config.initialCash * (1 + 1e-12))
        #expect(abs(fill.fee + 0.01 * fill.quantityFilled * fill.vwap) <= 1e-9)
        #expect(r.cash[1] >= config.initialCash * 0.01 * (1 - 1e-9), "the rebate is credited after the fill")
    }
}
