import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// Random universes on different calendars under every fill model and portfolio rule: the
/// accounting invariants hold, K is never exceeded, and nothing at or before a time depends on
/// bars, signals or ranks after it.
@Suite("Portfolio properties")
struct PortfolioPropertyTests {
    struct Setup: CustomTestStringConvertible, Sendable {
        var name: String
        var rules: PortfolioRules
        var configure: @Sendable (inout ExecutionConfig) -> Void
        var testDescription: String { name }
    }

    static let setups: [Setup] = [
        Setup(name: "K=3, defaults (synthetic, cap 0.1)", rules: PortfolioRules(maxPositions: 3)) { _ in },
        Setup(name: "K=4 by rank, depth none, monthly rebalance",
              rules: PortfolioRules(maxPositions: 4, rebalance: .monthly)) { $0.depth = .none; $0.maxParticipation = nil },
        Setup(name: "K=3 rank weights, weekly rebalance, fixed slippage",
              rules: PortfolioRules(maxPositions: 3, weighting: .rank, rebalance: .weekly)) { $0.depth = .fixedSlippage(bps: 8) },
        Setup(name: "K=5 inverse-vol, every 7 bars, stops",
              rules: PortfolioRules(maxPositions: 5, weighting: .inverseVolatility, rebalance: .bars(7))) {
            $0.stopLoss = 0.02; $0.takeProfit = 0.03; $0.tick = 0.01
        },
        Setup(name: "K=2, close fills, lot, minimum notional and fee",
              rules: PortfolioRules(maxPositions: 2, rebalance: .monthly)) {
            $0.fill = .close; $0.lot = 1; $0.minNotional = 100; $0.feeMin = 1
        },
        Setup(name: "K=3, a tight participation cap (partial entries and exits)",
              rules: PortfolioRules(maxPositions: 3, rebalance: .weekly)) { $0.maxParticipation = 0.001; $0.initialCash = 5_000_000 },
        Setup(name: "rotation top 3, equal, monthly", rules: PortfolioRules(maxPositions: 3, rebalance: .monthly, rotate: true)) { _ in },
        Setup(name: "rotation top 2, inverse-vol, weekly, close fills",
              rules: PortfolioRules(maxPositions: 2, weighting: .inverseVolatility, rebalance: .weekly, rotate: true)) { $0.fill = .close },
        Setup(name: "rotation top 4, rank weights, every 5 bars, stops",
              rules: PortfolioRules(maxPositions: 4, weighting: .rank, rebalance: .bars(5), rotate: true)) { $0.stopLoss = 0.015 },
        Setup(name: "K=3, 40 units per slot", rules: PortfolioRules(maxPositions: 3, rebalance: .monthly)) { $0.sizing = .units(40) },
        Setup(name: "K=3, 2000$ per slot, synthetic", rules: PortfolioRules(maxPositions: 3, rebalance: .weekly)) { $0.sizing = .cash(2_000) },
        Setup(name: "K=3, 50% of equity", rules: PortfolioRules(maxPositions: 3, rebalance: .monthly)) { $0.sizing = .equityFraction(0.5) },
        Setup(name: "K=3, limit entries for 3 bars, weekly rebalance, trailing 4%",
              rules: PortfolioRules(maxPositions: 3, rebalance: .weekly)) {
            $0.entries = EntryRules(limit: limit, orderBars: 3); $0.exits = ExitRules(trail: .fraction(0.04))
        },
        Setup(name: "K=2 rank weights, stop-limit entries, close fills, time exit and targets",
              rules: PortfolioRules(maxPositions: 2, weighting: .rank, rebalance: .monthly)) {
            $0.fill = .close; $0.entries = EntryRules(limit: limitAbove, stop: breakout, orderBars: 4)
            $0.exits = ExitRules(takeProfits: [TakeProfit(.fraction(0.02), share: 0.5)], exitAfterBars: 6)
        },
        Setup(name: "K=3, vol:20% sizing, pyramid 3, monthly rebalance",
              rules: PortfolioRules(maxPositions: 3, rebalance: .monthly)) {
            $0.sizing = .volatility(0.2); $0.periodsPerYear = 252; $0.entries = EntryRules(pyramid: 3)
        },
        Setup(name: "K=4, risk 0.5% to a 3% stop, inverse-vol weights", rules: PortfolioRules(maxPositions: 4, weighting: .inverseVolatility)) {
            $0.sizing = .risk(0.005); $0.stopLoss = 0.03
        },
    ] + accountSetups

    /// Margin accounts and long/short books: the same invariants (cash may go below 0, positions
    /// short; at most K of each side) and no look-ahead.
    static let accountSetups: [Setup] = [
        Setup(name: "K=3, perp at 4x cross, size 400%, funding every 8 hours, monthly rebalance",
              rules: PortfolioRules(maxPositions: 3, rebalance: .monthly)) {
            $0.instrument = .perp; $0.leverage = 4; $0.sizing = .equityFraction(4); $0.funding = funding
        },
        Setup(name: "K=2, spot at 3x isolated, interest 10%, stops, close fills", rules: PortfolioRules(maxPositions: 2)) {
            $0.leverage = 3; $0.margin = .isolated; $0.marginRate = 0.1; $0.stopLoss = 0.03; $0.fill = .close; $0.mmr = 0.1
        },
        Setup(name: "K=2 a side, long/short on cash, borrow 400 bps, weekly rebalance",
              rules: PortfolioRules(maxPositions: 2, rebalance: .weekly)) { $0.allowShort = true; $0.borrowBps = 400 },
        Setup(name: "K=2 a side, long/short perp at 10x cross, funding, targets, close fills",
              rules: PortfolioRules(maxPositions: 2)) {
            $0.allowShort = true; $0.instrument = .perp; $0.leverage = 10; $0.sizing = .equityFraction(5); $0.funding = funding
            $0.takeProfit = 0.04; $0.fill = .close
        },
        Setup(name: "K=3 a side, long/short spot at 2x isolated, 30 units, time exit",
              rules: PortfolioRules(maxPositions: 3, rebalance: .monthly)) {
            $0.allowShort = true; $0.leverage = 2; $0.margin = .isolated; $0.sizing = .units(30); $0.exits = ExitRules(exitAfterBars: 5)
        },
        Setup(name: "K=2 a side, long/short, limit entries for 3 bars, stop 3%, weekly rebalance",
              rules: PortfolioRules(maxPositions: 2, rebalance: .weekly)) {
            $0.allowShort = true; $0.stopLoss = 0.03
            $0.entries = EntryRules(limit: limit, shortLimit: shortLimit, orderBars: 3)
        },
        Setup(name: "K=2 a side, neutral at 3x, stop-limit entries, close fills, targets",
              rules: PortfolioRules(maxPositions: 2, neutral: true)) {
            $0.allowShort = true; $0.leverage = 3; $0.fill = .close; $0.takeProfit = 0.03
            $0.entries = EntryRules(limit: limitAbove, stop: breakout, shortLimit: shortLimitBelow, shortStop: breakdown, orderBars: 4)
        },
        Setup(name: "rotation 2 a side, neutral at 3x, rank weights, stops between weekly dates",
              rules: PortfolioRules(maxPositions: 2, weighting: .rank, rebalance: .weekly, rotate: true, neutral: true)) {
            $0.allowShort = true; $0.leverage = 3; $0.stopLoss = 0.02
        },
        Setup(name: "K=3 a side, neutral perp at 4x, stop entries, monthly rebalance",
              rules: PortfolioRules(maxPositions: 3, rebalance: .monthly, neutral: true)) {
            $0.allowShort = true; $0.instrument = .perp; $0.leverage = 4; $0.funding = funding
            $0.entries = EntryRules(stop: breakout, shortStop: breakdown, orderBars: 2)
        },
    ]
    /// Funding rows every 8 hours of 2020 and 2021 (±0.02%).
    static let funding: [FundingRate] = (0..<(2 * 365 * 3)).map { (k: Int) -> FundingRate in
        let seconds: Int64 = 1_577_836_800 + Int64(k) * 28_800
        return FundingRate(timeMs: seconds * 1000, rate: k % 5 == 0 ? -0.0002 : 0.0002)
    }
    static let limit = try! PriceExpression(LocatedExpression("close * 0.995", origin: .setting(.entryLimit)))
    static let limitAbove = try! PriceExpression(LocatedExpression("close * 1.01", origin: .setting(.entryLimit)))
    static let breakout = try! PriceExpression(LocatedExpression("highest(high, 3)", origin: .setting(.entryStop)))
    static let shortLimit = try! PriceExpression(LocatedExpression("close * 1.005", origin: .setting(.shortEntryLimit)))
    static let shortLimitBelow = try! PriceExpression(LocatedExpression("close * 0.99", origin: .setting(.shortEntryLimit)))
    static let breakdown = try! PriceExpression(LocatedExpression("lowest(low, 3)", origin: .setting(.shortEntryStop)))

    static func config(_ setup: Setup) -> ExecutionConfig {
        var c = ExecutionConfig()
        setup.configure(&c)
        return c
    }

    @Test("accounting invariants; at most K positions when every order fills", arguments: setups)
    func invariants(_ setup: Setup) throws {
        let symbols = PortfolioFixtures.universe(symbols: 6, bars: 400, seed: 77)
        let r = try Portfolio.run(symbols, rules: setup.rules, config: Self.config(setup))
        PortfolioInvariants.check(r)
        #expect(r.fills.count > 20, "too few fills to show anything: \(r.fills.count)")
        let k = setup.rules.slots(symbols: symbols.count) * (Self.config(setup).allowShort ? 2 : 1)
        // Closing remainders (partial exits) hold no slot but still hold shares.
        let closing = r.rejected.contains { $0.order.reason == .noLiquidity } || r.fills.contains { $0.fill.isPartial }
        if !closing { #expect(r.positions.allSatisfy { $0 <= k }, "more than K positions") }
        // Every fill is at its symbol's own bar, at the open (or the close, or a stop level).
        for f in r.fills {
            let c = r.candles[f.symbol]
            #expect(f.fill.referencePrice > 0 && f.fill.referencePrice >= c.low[f.bar] * (1 - 1e-12)
                    && f.fill.referencePrice <= c.high[f.bar] * (1 + 1e-12), "a reference outside its bar's range")
        }
        // The account view agrees with the portfolio's own series.
        #expect(r.account.equity == r.equity && r.account.cash == r.cash)
        #expect(r.account.trades.count == r.trades.count && r.account.fills.count == r.fills.count)
    }

    @Test("no look-ahead: bars, signals and ranks after t change nothing at or before t", arguments: setups)
    func noLookAhead(_ setup: Setup) throws {
        let base = PortfolioFixtures.universe(symbols: 6, bars: 300, seed: 91)
        let config = Self.config(setup)
        let a = try Portfolio.run(base, rules: setup.rules, config: config)
        for cut in [a.time.count / 3, 2 * a.time.count / 3] {
            let t = a.time[cut]
            var g = SplitMix64(seed: UInt64(cut))
            let changed = base.map { s -> PortfolioSymbol in
                var s = s
                var c = s.candles, signals = s.signals!, rank = s.rank!
                for k in c.time.indices where c.time[k] > t {
                    let f = 0.7 + 0.6 * g.unit()
                    c.open[k] *= f; c.close[k] *= 0.7 + 0.6 * g.unit()
                    c.high[k] = max(c.open[k], c.close[k]) * 1.02; c.low[k] = min(c.open[k], c.close[k]) * 0.98
                    c.volume[k] = 10 * g.unit()
                    signals.entries[k] = g.unit() < 0.3; signals.exits[k] = g.unit() < 0.3
                    rank[k] = g.unit() * 100
                }
                s.candles = c; s.signals = signals; s.rank = rank
                return s
            }
            let b = try Portfolio.run(changed, rules: setup.rules, config: config)
            PortfolioInvariants.check(b)
            Self.expectSameUpTo(cut, a, b)
        }
    }

    @Test("next-open orders read nothing of their own bar: its close, signals and ranks change no order filled at its open",
          arguments: setups.filter { Self.config($0).fill == .nextOpen })
    func ordersAtTheOpen(_ setup: Setup) throws {
        let base = PortfolioFixtures.universe(symbols: 6, bars: 300, seed: 17)
        let config = Self.config(setup)
        let a = try Portfolio.run(base, rules: setup.rules, config: config)
        // Cuts at rows with orders (entries, rebalances, rotations), a third and two thirds in.
        let rows = Array(Set(a.orders.map(\.row).filter { $0 > 30 })).sorted()
        try #require(rows.count > 4)
        for cut in [rows[rows.count / 3], rows[2 * rows.count / 3]] {
            let t = a.time[cut]
            var g = SplitMix64(seed: UInt64(cut))
            let changed = base.map { s -> PortfolioSymbol in
                var s = s
                var c = s.candles, signals = s.signals!, rank = s.rank!
                for k in c.time.indices where c.time[k] >= t {
                    c.close[k] = c.low[k] + (c.high[k] - c.low[k]) * g.unit()
                    signals.entries[k] = g.unit() < 0.5; signals.exits[k] = g.unit() < 0.5
                    rank[k] = (g.unit() - 0.5) * 1_000
                }
                s.candles = c; s.signals = signals; s.rank = rank
                return s
            }
            let b = try Portfolio.run(changed, rules: setup.rules, config: config)
            Self.expectSameUpTo(cut - 1, a, b)
            #expect(a.orders.filter { $0.row == cut } == b.orders.filter { $0.row == cut }, "orders at the cut's open differ")
            // Fills at the open (stops fill later in the bar at their level).
            let atOpen = { (r: PortfolioResult) in r.fills.filter { $0.fill.index == cut && $0.fill.referencePrice == r.candles[$0.symbol].open[$0.bar] } }
            #expect(atOpen(a) == atOpen(b), "fills at the cut's open differ")
        }
    }

    @Test("no look-ahead of the calendar: bars removed after t (next-open fills) change nothing at or before t")
    func calendarAfterCut() throws {
        let base = PortfolioFixtures.universe(symbols: 6, bars: 300, seed: 5)
        var config = ExecutionConfig()
        config.depth = .none
        for rules in [PortfolioRules(maxPositions: 3, rebalance: .monthly),
                      PortfolioRules(maxPositions: 2, weighting: .rank, rebalance: .weekly, rotate: true)] {
            let a = try Portfolio.run(base, rules: rules, config: config)
            let cut = a.time.count / 2, t = a.time[cut]
            let changed = base.enumerated().map { j, s -> PortfolioSymbol in
                let keep = s.candles.time.indices.filter { s.candles.time[$0] <= t || ($0 + j) % 3 != 0 }
                let c = s.candles
                let candles = CandleSeries(symbol: c.symbol, timeframe: c.timeframe, time: keep.map { c.time[$0] },
                                           open: keep.map { c.open[$0] }, high: keep.map { c.high[$0] }, low: keep.map { c.low[$0] },
                                           close: keep.map { c.close[$0] }, volume: keep.map { c.volume[$0] })
                return PortfolioSymbol(candles: candles, signals: Signals(entries: keep.map { s.signals!.entries[$0] },
                                                                           exits: keep.map { s.signals!.exits[$0] }),
                                       rank: keep.map { s.rank![$0] })
            }
            let b = try Portfolio.run(changed, rules: rules, config: config)
            #expect(b.time.count < a.time.count || b.time != a.time)
            Self.expectSameUpTo(cut, a, b)
        }
    }

    /// Everything at rows 0...cut is the same in both runs.
    static func expectSameUpTo(_ cut: Int, _ a: PortfolioResult, _ b: PortfolioResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Array(a.time[...cut]) == Array(b.time[...cut]), sourceLocation: sourceLocation)
        #expect(Array(a.cash[...cut]) == Array(b.cash[...cut]), "cash differs at or before the cut", sourceLocation: sourceLocation)
        #expect(Array(a.equity[...cut]) == Array(b.equity[...cut]), "equity differs at or before the cut", sourceLocation: sourceLocation)
        #expect(Array(a.positions[...cut]) == Array(b.positions[...cut]), sourceLocation: sourceLocation)
        #expect(Array(a.positionValue[...cut]) == Array(b.positionValue[...cut]), sourceLocation: sourceLocation)
        #expect(a.fills.filter { $0.fill.index <= cut } == b.fills.filter { $0.fill.index <= cut }, "fills differ", sourceLocation: sourceLocation)
        #expect(a.orders.filter { $0.row <= cut } == b.orders.filter { $0.row <= cut }, "planned orders differ", sourceLocation: sourceLocation)
        #expect(a.rejected.filter { $0.order.index <= cut } == b.rejected.filter { $0.order.index <= cut }, sourceLocation: sourceLocation)
        let closedA = a.trades.filter { !$0.trade.isOpen && $0.trade.exitIndex <= cut }
        let closedB = b.trades.filter { !$0.trade.isOpen && $0.trade.exitIndex <= cut }
        #expect(closedA == closedB, "closed round trips differ", sourceLocation: sourceLocation)
        #expect(a.fills.contains { $0.fill.index <= cut }, "nothing traded before the cut", sourceLocation: sourceLocation)
    }

    @Test("debug ledger check: a real run has no violations; a cash or position off the fills is reported")
    func ledger() throws {
        #if DEBUG
        let symbols = PortfolioFixtures.universe(symbols: 5, bars: 300, seed: 3).sorted { $0.symbol < $1.symbol }
        var simulation = PortfolioSimulation(symbols, rules: PortfolioRules(maxPositions: 2, rebalance: .weekly),
                                             config: ExecutionConfig(), mode: .signals)
        let r = simulation.run()
        #expect(r.fills.count > 10)
        #expect(simulation.ledgerViolations().isEmpty)
        simulation.log.ledgerCash += 0.01
        #expect(simulation.ledgerViolations().contains { $0.hasPrefix("cash") })
        simulation.log.ledgerCash -= 0.01
        simulation.ledgers[0].ledgerQuantity += 1
        #expect(simulation.ledgerViolations().contains { $0.contains("position") })
        simulation.ledgers[0].ledgerQuantity -= 1
        simulation.outCash[5] = -1
        #expect(simulation.ledgerViolations().contains { $0.contains("below 0") })
        #endif
    }
}
