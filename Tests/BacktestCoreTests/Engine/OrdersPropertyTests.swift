import Testing
@testable import BacktestCore
import TestSupport

/// The rules of docs/design/orders.md as properties of `Engine.run` on seeded random candles
/// under seeded random configurations (`OrdersTest.setup`: every entry kind, every attached exit, long
/// and short, next-open and close fills, depth none, synthetic and fixed, participation caps,
/// lots, ticks, every sizing, pyramiding).
@Suite("Orders: properties of random configurations")
struct OrdersPropertyTests {
    @Test("cash and position are what the fills add up to, and equity = cash + position x close, at every bar",
          arguments: OrdersTest.setups)
    func ledger(_ s: OrdersTest.Setup) throws {
        let (candles, _, r) = try OrdersTest.run(s)
        var cash = s.config.initialCash, position = 0.0, k = 0, scale = 1.0
        var worstCash = 0.0, worstPosition = 0.0, worstEquity = 0.0
        for t in 0..<candles.count {
            while k < r.fills.count && r.fills[k].index == t {
                let f = r.fills[k]
                let signed = f.side == .buy ? f.quantityFilled : -f.quantityFilled
                cash -= signed * f.vwap + f.fee
                position += signed
                scale = max(scale, f.quantityFilled)
                k += 1
            }
            worstCash = max(worstCash, abs(r.cash[t] - cash) / max(1, abs(cash)))
            worstPosition = max(worstPosition, abs(r.position[t] - position) / scale)
            worstEquity = max(worstEquity, abs(r.equity[t] - (r.cash[t] + r.position[t] * candles.close[t])) / max(1, abs(r.equity[t])))
        }
        #expect(k == r.fills.count, "fills out of bar order")
        // 1e-9: the rebuilt cash sums the fills in another order than the broker's running cash.
        #expect(worstCash <= 1e-9, "cash differs from the fills' by \(worstCash) (relative)")
        #expect(worstPosition <= 1e-9, "position differs from the fills' by \(worstPosition) (of the largest fill)")
        #expect(worstEquity <= 1e-12, "equity != cash + position x close by \(worstEquity)")
    }

    @Test("every fill's reference price lies inside its bar's [low, high]", arguments: OrdersTest.setups)
    func pricesInsideTheBar(_ s: OrdersTest.Setup) throws {
        let (candles, _, r) = try OrdersTest.run(s)
        let outside = r.fills.filter { !(candles.low[$0.index] <= $0.referencePrice && $0.referencePrice <= candles.high[$0.index]) }
        let first = outside.first.map { "bar \($0.index): \($0.referencePrice) not in [\(candles.low[$0.index]), \(candles.high[$0.index])]" }
        #expect(outside.isEmpty, "\(outside.count) fills outside their bar, the first at \(first ?? "")")
        if case .none = s.config.depth {
            // The VWAP is notional / quantity: the reference to the last bit or two.
            #expect(r.fills.allSatisfy { abs($0.vwap - $0.referencePrice) <= 1e-12 * $0.referencePrice },
                    "depth none fills at the reference price")
        }
    }

    @Test("changing bars and signals after t changes nothing at or before t", arguments: OrdersTest.setups)
    func noLookAhead(_ s: OrdersTest.Setup) throws {
        let (base, signals, reference) = try OrdersTest.run(s)
        let n = base.count
        var g = SplitMix64(seed: s.seed &+ 1_000)
        for t in stride(from: 25 + Int(s.seed % 11), to: n - 1, by: 53) {
            var changed = base, changedSignals = signals
            for i in (t + 1)..<n {
                let k = 0.85 + 0.3 * g.unit()
                changed.open[i] *= k; changed.high[i] *= k * 1.02; changed.low[i] *= k * 0.98
                changed.close[i] *= k; changed.volume[i] *= 2 * g.unit()
                changedSignals.entries[i] = g.unit() < 0.3
                changedSignals.exits[i] = g.unit() < 0.3
            }
            let other = try EngineTest.run(changed, changedSignals, s.config)
            #expect(Array(other.cash[...t]) == Array(reference.cash[...t]), "cash changed at or before \(t)")
            #expect(Array(other.position[...t]) == Array(reference.position[...t]), "position changed at or before \(t)")
            #expect(Array(other.equity[...t]) == Array(reference.equity[...t]), "equity changed at or before \(t)")
            #expect(other.fills.filter { $0.index <= t } == reference.fills.filter { $0.index <= t }, "fills changed at or before \(t)")
            #expect(other.rejected.filter { $0.index <= t } == reference.rejected.filter { $0.index <= t })
            let closed = { (r: BacktestResult) in r.trades.filter { !$0.isOpen && $0.exitIndex <= t } }
            #expect(closed(other) == closed(reference), "trades closed by \(t) changed")
        }
    }

    @Test("a trail exit fills at the level of the position's completed bars (never the exit bar's own high)",
          arguments: OrdersTest.setups.filter { $0.config.exits.trail != nil })
    func trailExitsAtTheRatchet(_ s: OrdersTest.Setup) throws {
        let (candles, _, r) = try OrdersTest.run(s)
        _ = try OrdersTest.checkTrailExits(candles, s.config, r)
    }

    @Test("the trailing level never moves against the position (ExitLevels, random bars and distances, from the highs or the closes)",
          arguments: Array(UInt64(1)...24))
    func trailingLevelOnlyTightens(_ seed: UInt64) throws {
        var g = SplitMix64(seed: seed &* 7919)
        let n = 400
        let long = g.unit() < 0.5
        let tick: Double? = g.unit() < 0.5 ? 0.01 : nil
        // Distances with NaN and non-positive values among them (no level from those bars).
        let d = (0..<n).map { _ -> Double in g.unit() < 0.05 ? .nan : g.unit() < 0.05 ? -1 : 0.5 + 4 * g.unit() }
        let distance: ExitDistance = g.unit() < 0.5 ? .fraction(0.01 + 0.05 * g.unit()) : .price(OrdersTest.expression("atr(14)", .trail))
        var rules = ExitRules(trail: distance)
        if g.unit() < 0.5 { rules.stopLoss = .fraction(0.03) }
        if g.unit() < 0.5 { rules.breakeven = 0.01 }
        if g.unit() < 0.5 { rules.trailFrom = .close }
        var levels = ExitLevels(rules, distances: .init(trail: d))
        var price = 100.0
        var entry = price
        levels.arm(entry: entry, long: long, first: true, bar: 0, atOpen: g.unit() < 0.5, signalBar: 0, tick: tick)
        var previous = levels.trail
        var moves = 0
        for bar in 1..<n {
            if g.unit() < 0.03 {
                // A pyramid add re-arms the levels from the new average entry.
                entry = (entry + price) / 2
                levels.arm(entry: entry, long: long, first: false, bar: bar, atOpen: true, signalBar: bar - 1, tick: tick)
            }
            let close = price * (1 + 0.04 * (g.unit() - 0.5))
            let high = max(price, close) * (1 + 0.01 * g.unit()), low = min(price, close) * (1 - 0.01 * g.unit())
            levels.close(bar: bar, high: high, low: low, close: close, entry: entry, tick: tick)
            let now = levels.trail
            if !previous.isNaN {
                #expect(!now.isNaN && (long ? now >= previous : now <= previous),
                        "bar \(bar): the trailing level moved from \(previous) to \(now) against a \(long ? "long" : "short")")
            }
            if !previous.isNaN && now != previous { moves += 1 }
            previous = now
            price = close
        }
        #expect(moves > 0, "the level should move")
    }

    @Test("targets come nearest first, ties in the order they had, NaN levels never, each once; with 3 or 80 targets and re-arms",
          arguments: Array(UInt64(1)...24))
    func targetOrder(_ seed: UInt64) throws {
        var g = SplitMix64(seed: seed &* 104_729)
        let count = seed % 2 == 0 ? 3 : 80  // the insertion sort and the sort by keys
        let long = g.unit() < 0.5
        // Few distinct distances (ties), some a price distance that is NaN at the signal bar.
        let fractions = [0.01, 0.02, 0.03]
        let priced = (0..<count).map { _ in g.unit() < 0.2 }
        let rules = ExitRules(takeProfits: (0..<count).map { i in
            TakeProfit(priced[i] ? .price(OrdersTest.expression("atr(14)", .takeProfit)) : .fraction(fractions[Int(g.unit() * 3)]),
                       share: 0.001)
        })
        let distances = ExitLevels.Distances(takeProfits: priced.map { $0 ? [.nan, 2.0] : nil })
        var levels = ExitLevels(rules, distances: distances)
        var order = Array(0..<count), fired = Set<Int>()
        /// The reference: a stable sort of the current order by distance from the entry, NaN last.
        func arm(entry: Double, first: Bool, signalBar: Int) {
            levels.arm(entry: entry, long: long, first: first, bar: signalBar + 1, atOpen: true, signalBar: signalBar, tick: nil)
            if first { fired = [] }
            func key(_ i: Int) -> Double { levels.targets[i].isNaN ? .infinity : long ? levels.targets[i] : -levels.targets[i] }
            order = order.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
        }
        func fireSome() {
            for _ in 0..<Int(g.unit() * 10) {
                let expected = order.first { !fired.contains($0) && !levels.targets[$0].isNaN }
                let got = levels.nearestTarget()
                #expect(got == expected, "seed \(seed): nearest target \(String(describing: got)), expected \(String(describing: expected))")
                guard let i = got else { return }
                levels.markFired(i)
                fired.insert(i)
            }
        }
        arm(entry: 100, first: true, signalBar: 0)  // price distances NaN at bar 0: no level
        fireSome()
        arm(entry: 97 + 6 * g.unit(), first: false, signalBar: 1)  // a pyramid add: the unfired move
        fireSome()
        arm(entry: 100, first: true, signalBar: 1)  // a new trade: every target again
        fireSome()
        #expect(levels.nearestTarget() == order.first { !fired.contains($0) && !levels.targets[$0].isNaN })
    }

    @Test("limit, stop and stop-limit entries fill where orders.md says, once, and only while they work",
          arguments: OrdersTest.setups.filter { $0.entryKind != .market })
    func entryOrders(_ s: OrdersTest.Setup) throws {
        let (candles, signals, r) = try OrdersTest.run(s)
        _ = try OrdersTest.checkEntryOrders(candles, signals, s.config, r)
    }

    /// The random configurations reach every exit kind and every path of the entry orders; a
    /// property that holds only because nothing happened would show here.
    @Test("the random configurations exercise every exit kind and every entry order path")
    func coverage() throws {
        var kinds: [ExitKind: Int] = [:]
        var events: [String: Int] = [:]
        var partial = 0, rejected = 0, checkedEntryRuns = 0, checkedTrails = 0
        for s in OrdersTest.setups {
            let (candles, signals, r) = try OrdersTest.run(s)
            for t in r.trades { kinds[t.exitKind, default: 0] += 1 }
            partial += r.fills.filter(\.isPartial).count
            checkedTrails += try OrdersTest.checkTrailExits(candles, s.config, r)
            rejected += r.rejected.count
            if let e = try OrdersTest.checkEntryOrders(candles, signals, s.config, r) {
                checkedEntryRuns += 1
                for (k, v) in e { events[k, default: 0] += v }
            }
        }
        // A portfolio's rebalance and a margin account's liquidation have their own suites.
        for kind in ExitKind.allCases where kind != .rebalance && kind != .liquidation {
            #expect(kinds[kind, default: 0] > 0, "no trade ended by \(kind.rawValue)")
        }
        for event in ["limit at the open", "limit at the limit", "stop at the open", "stop at the stop", "stop-limit at the stop",
                      "stop-limit waited, at the open", "stop-limit waited, at the limit", "expired", "replaced", "cancelled by an exit"] {
            #expect(events[event, default: 0] > 0, "no entry order did: \(event)")
        }
        #expect(checkedTrails >= 20, "too few trail exits were checked against the ratchet: \(checkedTrails)")
        #expect(checkedEntryRuns >= 8, "too few runs with limit or stop entries were checked: \(checkedEntryRuns)")
        #expect(partial > 0 && rejected > 0, "partial fills \(partial), rejections \(rejected)")
        let setups = OrdersTest.setups
        #expect(setups.contains { $0.config.allowShort } && setups.contains { $0.config.fill == .close })
        #expect(setups.contains { $0.config.entries.pyramid > 1 } && setups.contains { $0.config.lot != nil })
    }

    @Test("the order loop equals the classic loop bit for bit where both apply (market entries, stop and target levels)",
          arguments: OrdersTest.setups.filter { $0.entryKind == .market })
    func loopsAgree(_ s: OrdersTest.Setup) throws {
        // Runs with borrow take the order loop alone (`Engine.Loop`; BorrowTests.orderLoop).
        try loopsAgree(s.config, seed: s.seed)
    }

    func loopsAgree(_ config: ExecutionConfig, seed: UInt64) throws {
        var config = config
        config.entries = EntryRules()
        config.exits.trail = nil
        config.exits.breakeven = nil
        config.exits.exitAfterBars = nil
        let candles = OrdersTest.candles(bars: OrdersTest.bars, seed: seed)
        let signals = OrdersTest.signals(bars: candles.count, seed: seed)
        let classic = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        let n = candles.count
        let inputs = try OrderInputs(config, candles: candles, cache: IndicatorCache())
        var broker = Broker(config: config, candles: candles, distances: inputs.distances, entryPrices: inputs.entryPrices)
        var cash = [Double](repeating: 0, count: n), position = cash, equity = cash
        let shortIn = signals.shortEntries ?? signals.exits, shortOut = signals.shortExits ?? signals.entries
        if config.hasAccountEvents {
            Engine.simulateWithOrders(&broker, candles, signals, shortIn, shortOut, &cash, &position, &equity, account: WithAccountEvents.self)
        } else {
            Engine.simulateWithOrders(&broker, candles, signals, shortIn, shortOut, &cash, &position, &equity, account: NoAccountEvents.self)
        }
        broker.finishOpenTrade(lastBar: n - 1)
        #expect(cash == classic.cash && position == classic.position && equity == classic.equity)
        #expect(broker.fills == classic.fills && broker.trades == classic.trades && broker.rejected == classic.rejected)
        #expect(broker.ambiguousExitBars == classic.ambiguousExitBars)
        #expect(broker.borrowPaid == (classic.borrowPaid ?? 0))
    }
}
