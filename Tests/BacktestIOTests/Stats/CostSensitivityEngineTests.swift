import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Cost sensitivity through the engine")
struct CostSensitivityEngineTests {
    /// Long while SMA 10 is above SMA 50 on GOOG.
    static func setup() throws -> (CandleSeries, Signals) {
        let goog = try ChartFixtures.candles("GOOG")
        let fast = try Indicators.sma(goog.close, period: 10), slow = try Indicators.sma(goog.close, period: 50)
        let above = goog.close.indices.map { fast[$0].isFinite && slow[$0].isFinite && fast[$0] > slow[$0] }
        let entries = above.indices.map { $0 > 0 && above[$0] && !above[$0 - 1] }
        let exits = above.indices.map { $0 > 0 && !above[$0] && above[$0 - 1] }
        return (goog, Signals(entries: entries, exits: exits))
    }

    @Test("costs scale: fees and impact grow with the multiplier, 0x has neither")
    func scaling() {
        var c = ExecutionConfig()
        c.feeBps = 10; c.feeMin = 1
        let zero = c.scalingCosts(by: 0), double = c.scalingCosts(by: 2)
        #expect(zero.feeBps == 0 && zero.feeMin == 0 && zero.depth.name == "none")
        #expect(double.feeBps == 20 && double.synthetic.costScale == 2 && c.synthetic.costScale == 1)
        c.depth = .fixedSlippage(bps: 3)
        if case .fixedSlippage(let bps) = c.scalingCosts(by: 2).depth { #expect(bps == 6) } else { Issue.record("fixed slippage lost") }
    }

    @Test("SMA cross on GOOG: returns fall with costs; the break-even fee zeroes the return")
    func goog() throws {
        let (goog, signals) = try Self.setup()
        var config = ExecutionConfig()
        config.feeBps = 5
        let c = try CostSensitivity.run(goog, signals: signals, config: config, periodsPerYear: 252)
        #expect(c.rows.count == 4)
        #expect(c.rows[0].feesPaid == 0)
        #expect(c.rows[0].totalReturn >= c.rows[1].totalReturn)
        #expect(c.rows[1].totalReturn >= c.rows[2].totalReturn)
        #expect(c.rows[2].totalReturn >= c.rows[3].totalReturn)
        let baseline = try Engine.run(Engine.Request(goog, signals: signals, config: config))
        #expect(abs(c.rows[2].totalReturn - (baseline.finalEquity / baseline.initialCash - 1)) < 1e-12)
        if let fee = c.breakEvenFeeBps {
            var at = config
            at.feeBps = fee
            let r = try Engine.run(Engine.Request(goog, signals: signals, config: at))
            #expect(abs(r.finalEquity / r.initialCash - 1) < 0.01)
            #expect(fee > config.feeBps)
        } else {
            #expect(c.rows[2].totalReturn <= 0)
        }
        let stats = Stats(baseline, bootstrap: .init(resamples: 200))
        #expect(stats.periodsPerYear == 252)
        #expect(stats["trades"] == Double(baseline.trades.count) && stats["trades"] > 5)
    }

    @Test("cost sensitivity scales every part of the fees: each fill's fee is m times")
    func costScaling() throws {
        var c = ExecutionConfig()
        c.feeBps = 10; c.makerBps = 2; c.feePerUnit = 0.01; c.feeMin = 1; c.feeMax = 0.004
        let half = c.scalingCosts(by: 0.5)
        #expect(half.feeBps == 5 && half.makerBps == 1 && half.feePerUnit == 0.005 && half.feeMin == 0.5 && half.feeMax == 0.002)
        let s = c.fees, h = half.fees
        for (n, q, maker) in [(10_000.0, 100.0, false), (100.0, 1.0, true), (500.0, 50.0, false), (1e6, 10.0, true)] {
            #expect(abs(h.fee(notional: n, quantity: q, maker: maker) - 0.5 * s.fee(notional: n, quantity: q, maker: maker)) <= 1e-12 * n)
        }
        // Out of range after scaling: kept within the ranges the run validates.
        c.makerBps = -80; c.feeMax = 0.8
        let double = c.scalingCosts(by: 2)
        #expect(double.makerBps == -100 && double.feeMax == 1)
        try double.validate()
        // At 0x the configuration is still a valid one (the cost table's first row), charging nothing.
        let none = c.scalingCosts(by: 0)
        try none.validate()
        for (n, q, maker) in [(10_000.0, 100.0, false), (100.0, 1.0, true)] { #expect(none.fees.fee(notional: n, quantity: q, maker: maker) == 0) }
    }

    @Test("cost sensitivity scales the borrow rate of shorts: m times the rate, m times the borrow paid, 0x none")
    func borrowScaling() throws {
        var c = ExecutionConfig()
        c.allowShort = true
        c.borrowBps = 400
        #expect(c.scalingCosts(by: 0).borrowBps == 0 && c.scalingCosts(by: 2).borrowBps == 800)
        c.borrowBps = 80_000
        #expect(c.scalingCosts(by: 2).borrowBps == ExecutionConfig.largestBorrowBps)
        try c.scalingCosts(by: 2).validate()
        // Through the table: the 0x row pays no borrow; a short held at the same closes pays m
        // times as much per close only with the same positions, so compare without fees or depth.
        let (goog, signals) = try Self.setup()
        var plain = ExecutionConfig()
        plain.allowShort = true; plain.borrowBps = 500; plain.feeBps = 0; plain.depth = .none; plain.maxParticipation = nil
        plain.sizing = .units(10)
        let one = try Engine.run(Engine.Request(goog, signals: signals, config: plain))
        let three = try Engine.run(Engine.Request(goog, signals: signals, config: plain.scalingCosts(by: 3)))
        let none = try Engine.run(Engine.Request(goog, signals: signals, config: plain.scalingCosts(by: 0)))
        let paid = try #require(one.borrowPaid), tripled = try #require(three.borrowPaid)
        #expect(paid > 0 && abs(tripled - 3 * paid) <= 1e-9 * paid)
        #expect(none.borrowPaid == nil && none.finalEquity > one.finalEquity)
    }
}
