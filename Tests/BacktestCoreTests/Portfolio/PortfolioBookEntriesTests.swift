import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// Limit, stop and stop-limit entries in a long/short book (`--short`, and `--neutral`): a short
/// entry works as `bt run --short`'s does (the same `WorkingEntry`, placed from the same prices);
/// a reversal closes at market and places the other side's order, which works once flat.
@Suite("Portfolio long/short book: limit and stop entries")
struct PortfolioBookEntriesTests {
    typealias Setup = PortfolioMarginTests.Setup

    static func price(_ text: String, _ setting: Setting) -> PriceExpression {
        try! PriceExpression(LocatedExpression(text, origin: .setting(setting)))
    }
    static let shortLimit101 = price("close * 1.01", .shortEntryLimit)
    static let shortLimit99 = price("close * 0.99", .shortEntryLimit)
    static let low5 = price("lowest(low, 5)", .shortEntryStop)

    static let setups: [Setup] = ExecutionConfig.FillTiming.allCases.flatMap { fill -> [Setup] in
        let f = fill.rawValue
        return [
            Setup(name: "GOOG, \(f), cash account, limits 99% / 101% for 3 bars, borrow 300 bps, stop 4%", expects: [.stop]) { c, _ in
                c.fill = fill; c.allowShort = true; c.borrowBps = 300; c.stopLoss = 0.04; c.depth = .none; c.maxParticipation = nil
                c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit99, shortLimit: shortLimit101, orderBars: 3)
            },
            Setup(name: "GOOG, \(f), cash account, limits 99% / 101%, maker 2 bps, synthetic depth, targets 5%", expects: [.target]) { c, _ in
                c.fill = fill; c.allowShort = true; c.makerBps = 2; c.feeBps = 10; c.takeProfit = 0.05
                c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit99, shortLimit: shortLimit101, orderBars: 3)
            },
            Setup(name: "GOOG, \(f), perp at 3x cross with funding, stop entries at the 5-bar high / low, trailing 6%",
                  expects: [.trail]) { c, candles in
                c.fill = fill; c.allowShort = true; c.instrument = .perp; c.leverage = 3; c.sizing = .equityFraction(3)
                c.funding = PortfolioMarginTests.funding(candles); c.exits = ExitRules(trail: .fraction(0.06))
                c.entries = EntryRules(stop: PortfolioSingleSymbolTests.high5, shortStop: low5, orderBars: 2)
            },
            Setup(name: "random, \(f), spot at 2x isolated, stop-limit entries both sides, a tight cap (reversals still closing)",
                  random: true) { c, _ in
                c.fill = fill; c.allowShort = true; c.leverage = 2; c.margin = .isolated; c.borrowBps = 500
                c.maxParticipation = 0.003; c.initialCash = 300_000
                c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit101, stop: PortfolioSingleSymbolTests.high5,
                                       shortLimit: shortLimit99, shortStop: low5, orderBars: 4)
            },
            Setup(name: "random, \(f), 5000$ entries, limits for 2 bars, time exit", random: true, expects: [.time]) { c, _ in
                c.fill = fill; c.allowShort = true; c.sizing = .cash(5_000); c.exits = ExitRules(exitAfterBars: 6)
                c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit99, shortLimit: shortLimit101, orderBars: 2)
            },
        ]
    }

    @Test("a one-symbol book with limit or stop entries equals bt run --short: ledger, fills, trades, warnings, account",
          arguments: setups)
    func equalsEngine(_ setup: Setup) throws {
        let (p, run, _) = try PortfolioMarginTests.runBoth(setup)
        let candles = run.candles
        PortfolioMarginTests.expectEqual(p, run, expects: setup.expects)
        let firstFill = zip(p.fills.map(\.fill), run.fills).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstFill == nil, "fill \(firstFill?.offset ?? -1): \(String(describing: firstFill?.element.0)) vs \(String(describing: firstFill?.element.1))")
        #expect(p.fills.count == run.fills.count && p.trades.map(\.trade) == run.trades && p.rejected.map(\.order) == run.rejected)
        #expect(p.account.costSplit == run.costSplit)
        // Both sides traded, and some entries filled away from the open (at their limit or stop).
        #expect(run.trades.contains { $0.side == .short } && run.trades.contains { $0.side == .long })
        let opens = Set(run.fills.filter { $0.index < candles.count && $0.referencePrice != candles.open[$0.index] }.map(\.index))
        #expect(!opens.isEmpty)
        // Reversals: a position closed by the other side's signal whose order then filled.
        let reversals = zip(run.trades, run.trades.dropFirst()).filter { $0.side != $1.side && $0.exitKind == .signal }
        #expect(!reversals.isEmpty)
    }

    /// S0 and S1 at 10 and 20, every bar's range ±1%: S0's entry (bar 0) places a buy limit at 99%,
    /// S1's exit (bar 0, a short entry without short rules) a sell limit at 101%.
    static func pair(bars: Int = 12) -> [PortfolioSymbol] {
        PortfolioRuleTests.symbols(2, bars: bars, price: { j, _ in j == 0 ? 10 : 20 }, entries: [0: [0]], exits: [1: [0]])
    }

    static var limits: ExecutionConfig {
        var c = PortfolioBookRulesTests.config
        c.leverage = 3  // room for the neutral book's rebalance after the fills
        c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit99, shortLimit: shortLimit101, orderBars: 2)
        return c
    }

    @Test("hand-computed: a buy limit fills at 99% of the close, a sell limit at 101%, each at 1/K of the value then")
    func handComputed() throws {
        let r = try Portfolio.run(Self.pair(), rules: PortfolioRules(maxPositions: 1), config: Self.limits)
        PortfolioInvariants.check(r, account: true)
        // Both orders work on bar 1 and fill inside it at their prices (makers; no fee here).
        let fills = r.fills.map { ($0.symbol, $0.bar, $0.fill.side, $0.fill.referencePrice) }
        #expect(fills.count == 2 && fills.allSatisfy { $0.1 == 1 }, "\(fills)")
        #expect(fills.contains { $0.0 == 0 && $0.2 == .buy && abs($0.3 - 9.9) < 1e-12 })
        #expect(fills.contains { $0.0 == 1 && $0.2 == .sell && abs($0.3 - 20.2) < 1e-12 })
        let q = PortfolioNeutralTests.positions(r)[1]
        // The first to fill (symbol order) takes 10,000 / 9.9; the second values the first at the open.
        #expect(abs(q[0] - 10_000 / 9.9) < 1e-9, "\(q)")
        let value = 10_000 - 10_000 / 9.9 * 9.9 + 10_000 / 9.9 * 10
        #expect(abs(q[1] + value / 20.2) < 1e-9, "\(q)")
    }

    @Test("a reversal closes at market and places the other side's order; an exit of its side cancels a working order")
    func reversalAndCancel() throws {
        // S0 at 10: entry at bar 0 (long at bar 1 by its limit), exit at bar 4 (a short entry: reverses at
        // bar 5's open, its sell limit working bars 5-6), entry at bar 8 (covers the short, a buy limit);
        // S1 flat: its exit at bar 2 places a sell limit that fills at bar 3.
        let s = PortfolioRuleTests.symbols(2, bars: 14, price: { j, _ in j == 0 ? 10 : 20 }, entries: [0: [0, 8]], exits: [0: [4], 1: [2]])
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2), config: Self.limits)
        PortfolioInvariants.check(r, account: true)
        let trips = r.trades.filter { $0.symbol == 0 }.map { ($0.trade.side, $0.entryBar, $0.exitBar, $0.trade.exitKind) }
        #expect(trips.count == 3, "\(trips)")
        #expect(trips.first.map { $0.0 == .long && $0.1 == 1 && $0.2 == 5 && $0.3 == .signal } == true, "\(trips)")
        #expect(trips.dropFirst().first.map { $0.0 == .short && $0.1 == 5 && $0.2 == 9 } == true, "\(trips)")
        // The close at bar 5 is at the open (a market order), the short at the limit inside the bar.
        let at5 = r.fills.filter { $0.symbol == 0 && $0.bar == 5 }.map(\.fill.referencePrice)
        #expect(at5.count == 2 && at5.contains(10) && at5.contains { abs($0 - 10.1) < 1e-12 }, "\(at5)")

        // An exit of the order's side while flat cancels it: S0's exit at bar 1 cancels the limit its bar-0 entry placed.
        var config = Self.limits
        config.entries.orderBars = 3
        // Bar 1 does not reach the limit (9.9), bar 2 would.
        let cancel = PortfolioRuleTests.symbols(1, bars: 8, price: { _, k in k == 0 ? 10 : k == 1 ? 11 : 9 }, entries: [0: [0]], exits: [0: [1]])
        var shortRules = cancel[0]
        shortRules.signals = Signals(entries: shortRules.signals!.entries, exits: shortRules.signals!.exits,
                                     shortEntries: [Bool](repeating: false, count: 8), shortExits: [Bool](repeating: false, count: 8))
        let c = try Portfolio.run([shortRules], rules: PortfolioRules(maxPositions: 1), config: config)
        let run = try EngineTest.run(shortRules.candles, shortRules.signals!, config)
        #expect(c.fills.isEmpty && run.fills.isEmpty, "\(c.fills)")
        // Without the exit, the order fills at bar 2 in both.
        shortRules.signals!.exits[1] = false
        let filled = try Portfolio.run([shortRules], rules: PortfolioRules(maxPositions: 1), config: config)
        let filledRun = try EngineTest.run(shortRules.candles, shortRules.signals!, config)
        #expect(filled.fills.map(\.bar) == [2] && filled.fills.map(\.fill) == filledRun.fills)
    }

    @Test("neutral: an entry's slot counts from its order; its fill balances the book again at the next row")
    func neutral() throws {
        let r = try Portfolio.run(Self.pair(), rules: PortfolioRules(maxPositions: 1, neutral: true), config: Self.limits)
        PortfolioInvariants.check(r, account: true)
        let q = PortfolioNeutralTests.positions(r)
        // Row 1: both limits fill (unequal: the second is sized on the value after the first); row 2
        // rebalances both to the row's one value at its opens: long notional = short notional.
        #expect(q[1][0] > 0 && q[1][1] < 0)
        #expect(abs(q[2][0] * 10 + q[2][1] * 20) < 1e-6, "\(q[2])")
        #expect(r.orders.filter { $0.row == 2 }.map(\.reason) == [.rebalance, .rebalance], "\(r.orders)")
        // A lone leg holds nothing: with S1 never signalling, S0's limit entry is dropped.
        var lone = Self.pair()
        lone[1].signals = Signals(entries: [Bool](repeating: false, count: 12), exits: [Bool](repeating: false, count: 12))
        let l = try Portfolio.run(lone, rules: PortfolioRules(maxPositions: 1, neutral: true), config: Self.limits)
        #expect(l.fills.isEmpty && l.skippedEntries == 1, "\(l.fills)")
    }
}
