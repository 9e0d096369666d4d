import Testing
@testable import BacktestCore

@Suite("No look-ahead")
struct LookAheadTests {
    static let configs: [(String, ExecutionConfig)] = {
        var none = EngineTest.plain()
        none.stopLoss = 0.03
        none.takeProfit = 0.04
        var closeFill = none
        closeFill.fill = .close
        closeFill.allowShort = true
        var synthetic = ExecutionConfig()
        synthetic.stopLoss = 0.02
        synthetic.tick = 0.01
        synthetic.lot = 0.1
        var syntheticShort = synthetic
        syntheticShort.allowShort = true
        syntheticShort.sizing = .equityFraction(0.5)
        var book = ExecutionConfig()
        book.depth = .book(Synth.book(for: EngineTest.random(bars: 300, seed: 42), seed: 5))
        book.allowShort = true
        var profile = ExecutionConfig()
        profile.synthetic.bidDepth = .init(a: 500, b: 0.8)
        profile.synthetic.askDepth = .init(a: 400, b: 0.9)
        profile.synthetic.refillHalfLifeSeconds = 7200
        var fixed = EngineTest.plain()
        fixed.depth = .fixedSlippage(bps: 4)
        // Every fee setting: maker limit entries and targets (a rebate), a fee per unit, a minimum, a cap.
        var fees = EngineTest.plain()
        fees.makerBps = -1; fees.feePerUnit = 0.01; fees.feeMin = 0.5; fees.feeMax = 0.002
        fees.entries = EntryRules(limit: OrdersTest.expression("close * 0.995", .entryLimit), orderBars: 3)
        fees.exits = ExitRules(stopLoss: .fraction(0.03), takeProfits: [TakeProfit(.fraction(0.02))])
        // Borrow on shorts: the charge at t reads t's close and the next bar's time (the calendar), no later price.
        var borrow = syntheticShort
        borrow.borrowBps = 5_000
        var borrowNextOpen = closeFill
        borrowNextOpen.fill = .nextOpen
        borrowNextOpen.borrowBps = 2_500
        // Margin accounts: a perpetual's funding at each bar's time and between (the mark of a row
        // without one is the last close before it), liquidation against the open and the range,
        // isolated shorts, spot interest on borrowed cash.
        let times = EngineTest.random(bars: 300, seed: 42).time
        let funding = times.indices.flatMap { i in
            [FundingRate(timeMs: times[i] * 1000, rate: 0.0005 * Double(i % 7 - 3)),
             FundingRate(timeMs: times[i] * 1000 + 1_800_000, rate: 0.0002, markPrice: i % 2 == 0 ? nil : 100)]
        }
        var perp = EngineTest.plain()
        perp.instrument = .perp; perp.leverage = 20; perp.sizing = .equityFraction(15); perp.funding = funding
        perp.stopLoss = 0.05
        var isolated = closeFill
        isolated.instrument = .perp; isolated.leverage = 8; isolated.margin = .isolated; isolated.sizing = .equityFraction(6)
        isolated.funding = funding
        var spot = EngineTest.plain()
        spot.leverage = 3; spot.mmr = 0.2; spot.sizing = .equityFraction(3); spot.marginRate = 0.1
        // An inverse perpetual: coin accounting, funding in coins, liquidation against the open and the range.
        var inverse = perp
        inverse.instrument = .inversePerp; inverse.multiplier = 100; inverse.initialCash = 100
        inverse.allowShort = true; inverse.margin = .isolated; inverse.sizing = .equityFraction(12)
        return [("none", none), ("close+short", closeFill), ("synthetic", synthetic), ("synthetic+short", syntheticShort),
                ("book", book), ("profile", profile), ("fixed", fixed), ("fees", fees),
                ("borrow+synthetic+short", borrow), ("borrow+short", borrowNextOpen),
                ("perp+funding+liquidation", perp), ("perp+isolated+short", isolated), ("spot margin+interest", spot),
                ("inverse+funding+liquidation+short", inverse)]
    }()

    @Test("the cost of a fill at a bar's open reads nothing of that bar but its open", arguments: [2, 3, 4, 5])
    func fillBarDoesNotLeak(configIndex: Int) throws {
        var config = Self.configs[configIndex].1
        config.maxParticipation = nil  // the cap reads the fill bar's volume, by design
        config.stopLoss = nil
        let n = 300
        let base = EngineTest.random(bars: n, seed: 42)
        let signals = EngineTest.randomSignals(bars: n, seed: 7)
        let reference = try EngineTest.run(base, signals, config)
        var changed = base
        for i in 0..<n {
            changed.high[i] = max(base.high[i], base.open[i]) * 1.05
            changed.low[i] = min(base.low[i], base.open[i]) * 0.95
            changed.close[i] = base.open[i] * 0.97
            changed.volume[i] *= 3
        }
        // Only fills on bars whose predecessors are unchanged compare: change one bar at a time.
        for t in stride(from: 30, to: n, by: 41) {
            var one = base
            one.high[t] = changed.high[t]; one.low[t] = changed.low[t]; one.close[t] = changed.close[t]
            one.volume[t] = changed.volume[t]
            let other = try EngineTest.run(one, signals, config)
            let at = { (r: BacktestResult) in r.fills.filter { $0.index <= t }.map { [$0.vwap, $0.quantityFilled, $0.slippageBps] } }
            #expect(at(other) == at(reference), "the fill on bar \(t) changed with bar \(t)'s high, low, close or volume")
        }
    }

    @Test("changing bars and signals after t changes nothing at or before t", arguments: 0..<14)
    func futureDoesNotLeak(configIndex: Int) throws {
        let (_, config) = Self.configs[configIndex]
        let n = 300
        let base = EngineTest.random(bars: n, seed: 42)
        let signals = EngineTest.randomSignals(bars: n, seed: 7)
        let reference = try EngineTest.run(base, signals, config)
        let rng = GSL.Random(seed: 99)
        for t in stride(from: 10, to: n - 1, by: 37) {
            var changed = base
            var changedSignals = signals
            var changedConfig = config
            if case .book(let events) = config.depth {
                // Book events after t's close move too: they must not reach a fill at or before t.
                let cut = (t + 1 < n ? base.time[t + 1] : base.time[t] + 3600) * 1000
                changedConfig.depth = .book(events.map { e in
                    guard e.timeMs >= cut else { return e }
                    var e = e
                    e.bids = e.bids.map { BookLevel(price: $0.price * 0.9, quantity: $0.quantity * 0.5) }
                    e.asks = e.asks.map { BookLevel(price: $0.price * 1.1, quantity: $0.quantity * 0.5) }
                    return e
                })
            }
            // Funding rows from t + 1's time on change too.
            let cut = (t + 1 < n ? base.time[t + 1] : base.time[t] + 3600) * 1000
            changedConfig.funding = config.funding.map { row in
                row.timeMs >= cut ? FundingRate(timeMs: row.timeMs, rate: -row.rate * 3, markPrice: 50) : row
            }
            for i in (t + 1)..<n {
                let k = 0.8 + 0.4 * rng.uniform()
                changed.open[i] *= k; changed.high[i] *= k * 1.01; changed.low[i] *= k * 0.99
                changed.close[i] *= k; changed.volume[i] *= 2 * rng.uniform()
                changedSignals.entries[i] = rng.uniform() < 0.5
                changedSignals.exits[i] = rng.uniform() < 0.5
            }
            let other = try EngineTest.run(changed, changedSignals, changedConfig)
            #expect(Array(other.cash[...t]) == Array(reference.cash[...t]), "cash changed at or before \(t)")
            #expect(Array(other.position[...t]) == Array(reference.position[...t]), "position changed at or before \(t)")
            #expect(Array(other.equity[...t]) == Array(reference.equity[...t]), "equity changed at or before \(t)")
            #expect(other.fills.filter { $0.index <= t } == reference.fills.filter { $0.index <= t })
            #expect(other.rejected.filter { $0.index <= t } == reference.rejected.filter { $0.index <= t })
            let closed = { (r: BacktestResult) in r.trades.filter { !$0.isOpen && $0.exitIndex <= t } }
            #expect(closed(other) == closed(reference))
        }
        #expect(reference.fills.count > 10, "the random run should trade")
    }
}
