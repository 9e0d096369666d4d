import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A portfolio's margin account and shorts on the single run's account code: a portfolio of one
/// symbol under every account setting (leverage, cross and isolated margin, perpetuals with
/// funding, futures with a multiplier, margin interest, borrow, liquidation fees, shorts) equals
/// `Engine.run` trade for trade and bar for bar, within 1e-9 of the account's scale.
@Suite("Portfolio margin accounts = bt run")
struct PortfolioMarginTests {
    struct Setup: CustomTestStringConvertible, Sendable {
        var name: String
        var random = false
        /// Exit kinds the run must show (so the setup exercises what it names).
        var expects: Set<ExitKind> = []
        var configure: @Sendable (inout ExecutionConfig, CandleSeries) -> Void
        var testDescription: String { name }
    }

    /// Funding rows every 8 hours over `candles` (rates of ±0.01% to 0.05%, some with a mark).
    static func funding(_ candles: CandleSeries, seed: UInt = 5) -> [FundingRate] {
        let rng = GSL.Random(seed: seed)
        guard let first = candles.time.first, let last = candles.time.last else { return [] }
        return stride(from: first * 1000 + 3_600_000, through: last * 1000, by: 8 * 3_600_000).map { t in
            let rate = (rng.uniform() - 0.3) * 0.0008
            return FundingRate(timeMs: t, rate: rate, markPrice: rng.uniform() < 0.5 ? nil : 100 + rng.uniform())
        }
    }

    static let setups: [Setup] = ExecutionConfig.FillTiming.allCases.flatMap { fill -> [Setup] in
        let f = fill.rawValue
        return [
            Setup(name: "GOOG, \(f), spot at 3x cross, margin interest 8%") { c, _ in
                c.fill = fill; c.leverage = 3; c.sizing = .equityFraction(3); c.marginRate = 0.08
            },
            Setup(name: "GOOG, \(f), spot at 2x, size 150%, stops") { c, _ in
                c.fill = fill; c.leverage = 2; c.sizing = .equityFraction(1.5); c.stopLoss = 0.05
            },
            Setup(name: "GOOG, \(f), perp at 5x cross with funding") { c, candles in
                c.fill = fill; c.instrument = .perp; c.leverage = 5; c.sizing = .equityFraction(5); c.funding = funding(candles)
            },
            Setup(name: "GOOG, \(f), future x50 at 4x isolated, liquidation fee 50 bps, 2000$ entries") { c, _ in
                c.fill = fill; c.instrument = .future; c.multiplier = 50; c.leverage = 4; c.margin = .isolated
                c.sizing = .cash(2_000); c.liqFeeBps = 50
            },
            Setup(name: "random, \(f), perp at 25x cross, mmr 2%: liquidations", random: true, expects: [.liquidation]) { c, candles in
                c.fill = fill; c.instrument = .perp; c.leverage = 25; c.mmr = 0.02; c.sizing = .equityFraction(25)
                c.funding = funding(candles); c.liqFeeBps = 10; c.maxParticipation = nil
            },
            Setup(name: "random, \(f), perp at 20x isolated: liquidations", random: true, expects: [.liquidation]) { c, _ in
                c.fill = fill; c.instrument = .perp; c.leverage = 20; c.margin = .isolated; c.mmr = 0.01; c.sizing = .equityFraction(20)
                c.maxParticipation = nil
            },
            Setup(name: "GOOG, \(f), perp at 3x cross, limit entries at 99% for 3 bars, maker fees, time exit", expects: [.time]) { c, candles in
                c.fill = fill; c.instrument = .perp; c.leverage = 3; c.sizing = .equityFraction(3); c.funding = funding(candles)
                c.entries = EntryRules(limit: PortfolioSingleSymbolTests.limit99, orderBars: 3); c.makerBps = 1
                c.exits = ExitRules(exitAfterBars: 12)
            },
            Setup(name: "GOOG, \(f), long/short on spot (cash account), borrow 300 bps, stop 6%") { c, _ in
                c.fill = fill; c.allowShort = true; c.borrowBps = 300; c.stopLoss = 0.06
            },
            Setup(name: "GOOG, \(f), long/short on spot (cash account), 5000$ entries (a short's notional is its budget)") { c, _ in
                c.fill = fill; c.allowShort = true; c.sizing = .cash(5_000); c.feeBps = 20
            },
            Setup(name: "GOOG, \(f), long/short perp at 3x cross with funding, targets") { c, candles in
                c.fill = fill; c.allowShort = true; c.instrument = .perp; c.leverage = 3; c.sizing = .equityFraction(3)
                c.funding = funding(candles); c.takeProfit = 0.08
            },
            Setup(name: "GOOG, \(f), long/short spot at 2x isolated, borrow 500 bps, interest 6%, 5000$ entries") { c, _ in
                c.fill = fill; c.allowShort = true; c.leverage = 2; c.margin = .isolated; c.borrowBps = 500; c.marginRate = 0.06
                c.sizing = .cash(5_000)
            },
            Setup(name: "random, \(f), long/short perp at 15x cross, mmr 4%: liquidations of both sides", random: true,
                  expects: [.liquidation]) { c, candles in
                c.fill = fill; c.allowShort = true; c.instrument = .perp; c.leverage = 15; c.mmr = 0.04; c.sizing = .equityFraction(15)
                c.funding = funding(candles); c.maxParticipation = nil
            },
            Setup(name: "GOOG, \(f), inverse-perp x100 at 3x cross with funding, stop 5% (equity in the coin)") { c, candles in
                c.fill = fill; c.instrument = .inversePerp; c.multiplier = 100; c.leverage = 3; c.sizing = .equityFraction(3)
                c.funding = funding(candles); c.stopLoss = 0.05; c.initialCash = 20
            },
            Setup(name: "random, \(f), long/short inverse-perp at 15x cross, mmr 3%: liquidations of both sides", random: true,
                  expects: [.liquidation]) { c, candles in
                c.fill = fill; c.allowShort = true; c.instrument = .inversePerp; c.leverage = 15; c.mmr = 0.03
                c.sizing = .equityFraction(15); c.funding = funding(candles); c.maxParticipation = nil; c.initialCash = 50
            },
            Setup(name: "random, \(f), inverse-perp x10 at 20x isolated, 3$ entries: liquidations", random: true,
                  expects: [.liquidation]) { c, _ in
                c.fill = fill; c.instrument = .inversePerp; c.multiplier = 10; c.leverage = 20; c.margin = .isolated; c.mmr = 0.01
                c.sizing = .cash(3); c.maxParticipation = nil; c.initialCash = 40
            },
            Setup(name: "random, \(f), spot at 3x, 30 units, interest 12%, a participation cap", random: true) { c, _ in
                c.fill = fill; c.leverage = 3; c.sizing = .units(30); c.marginRate = 0.12; c.maxParticipation = 0.01
            },
        ]
    }

    static func inputs(_ setup: Setup) throws -> (CandleSeries, Signals) {
        if setup.random {
            return (EngineTest.random(bars: 2_000, seed: 21), EngineTest.randomSignals(bars: 2_000, seed: 22, p: 0.04))
        }
        let candles = try ShippedData.candles("GOOG")
        return (candles, try PortfolioGoldens.maCross(candles))
    }

    @Test("ledger, fills, round trips, warnings and the account equal Engine.run", arguments: setups)
    func equalsEngine(_ setup: Setup) throws {
        let (p, run, config) = try Self.runBoth(setup)
        Self.expectEqual(p, run, expects: setup.expects)
        if config.allowShort {
            #expect(p.trades.contains { $0.trade.side == .short } && p.trades.contains { $0.trade.side == .long })
            if setup.expects.contains(.liquidation) {
                #expect(Set(p.trades.filter { $0.trade.exitKind == .liquidation }.map(\.trade.side)) == [.long, .short])
            }
        }
    }

    /// `setup` as a portfolio of one symbol (its invariants checked) and as `Engine.run`.
    static func runBoth(_ setup: Setup) throws -> (portfolio: PortfolioResult, run: BacktestResult, config: ExecutionConfig) {
        let (candles, signals) = try inputs(setup)
        var config = ExecutionConfig()
        config.synthetic.tick = candles.inferredTick
        setup.configure(&config, candles)
        let run = try EngineTest.run(candles, signals, config)
        let p = try Portfolio.run([PortfolioSymbol(candles: candles, signals: signals)], rules: PortfolioRules(maxPositions: 1), config: config)
        PortfolioInvariants.check(p, account: true)
        return (p, run, config)
    }

    /// `p` (a portfolio of one symbol) equals `run` within 1e-9 of the account's scale.
    static func expectEqual(_ p: PortfolioResult, _ run: BacktestResult, expects: Set<ExitKind> = [],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let scale = max(run.initialCash, run.equity.map(abs).max() ?? 0, run.cash.map(abs).max() ?? 0)
        func near(_ a: Double, _ b: Double, _ s: Double = scale) -> Bool { a == b || abs(a - b) <= 1e-9 * max(1, s) }
        #expect(run.fills.count > 4, sourceLocation: sourceLocation)
        let kinds = Set(run.trades.map(\.exitKind))
        #expect(expects.isSubset(of: kinds), "exit kinds \(kinds.map(\.rawValue).sorted())", sourceLocation: sourceLocation)
        #expect(p.time == run.candles.time, sourceLocation: sourceLocation)
        let cash = p.cash.indices.first { !near(p.cash[$0], run.cash[$0]) }
        #expect(cash == nil, "cash differs first at bar \(cash ?? -1)", sourceLocation: sourceLocation)
        let equity = p.equity.indices.first { !near(p.equity[$0], run.equity[$0]) }
        #expect(equity == nil, "equity differs first at bar \(equity ?? -1)", sourceLocation: sourceLocation)
        #expect(p.fills.count == run.fills.count, "\(p.fills.count) fills, the run \(run.fills.count)", sourceLocation: sourceLocation)
        #expect(p.trades.count == run.trades.count, sourceLocation: sourceLocation)
        for (a, b) in zip(p.trades.map(\.trade), run.trades) {
            guard a.side == b.side, a.entryIndex == b.entryIndex, a.exitIndex == b.exitIndex, a.exitKind == b.exitKind,
                  near(a.pnl, b.pnl), near(a.funding, b.funding), near(a.borrow, b.borrow), near(a.interest, b.interest) else {
                Issue.record("trade \(a) != \(b)", sourceLocation: sourceLocation)
                break
            }
        }
        #expect(p.warnings == run.warnings, sourceLocation: sourceLocation)
        let a = p.account.account, b = run.account
        #expect((a == nil) == (b == nil), sourceLocation: sourceLocation)
        if let a, let b {
            #expect(a.instrument == b.instrument && a.margin == b.margin && a.leverage == b.leverage && a.multiplier == b.multiplier
                    && a.currency == b.currency && a.description == b.description, sourceLocation: sourceLocation)
            #expect(a.liquidations == b.liquidations && a.stoppedAt == b.stoppedAt, sourceLocation: sourceLocation)
            #expect(near(a.fundingPaid, b.fundingPaid) && near(a.interestPaid, b.interestPaid), sourceLocation: sourceLocation)
            #expect(a.fundingFlows.count == b.fundingFlows.count, sourceLocation: sourceLocation)
            #expect(a.minMarginRatio.isNaN ? b.minMarginRatio.isNaN : near(a.minMarginRatio, b.minMarginRatio, b.minMarginRatio),
                    "min margin ratio \(a.minMarginRatio) vs \(b.minMarginRatio)", sourceLocation: sourceLocation)
        }
        #expect(near(p.account.borrowPaid ?? 0, run.borrowPaid ?? 0) && (p.account.borrowPaid == nil) == (run.borrowPaid == nil),
                sourceLocation: sourceLocation)
    }
}
