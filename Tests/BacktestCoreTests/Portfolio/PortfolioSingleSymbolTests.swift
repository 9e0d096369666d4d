import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A portfolio of one symbol (K = 1, equal weight, `--size 100%`) is `Engine.run` on that
/// symbol, exactly: the same ledger, fills, round trips, rejections and warnings, and an account
/// (what the statistics read) equal to the run, bit for bit, under every fill model and option
/// the two share.
@Suite("Portfolio of one symbol = bt run")
struct PortfolioSingleSymbolTests {
    struct Setup: CustomTestStringConvertible, Sendable {
        var name: String
        var data: String
        var random: Bool = false
        /// Exit kinds the run must show (so the setup exercises what it names).
        var expects: Set<ExitKind> = []
        var configure: @Sendable (inout ExecutionConfig) -> Void
        var testDescription: String { name }
    }

    static let setups: [Setup] = [
        Setup(name: "GOOG, defaults (synthetic depth, participation 0.1)", data: "GOOG") { _ in },
        Setup(name: "GOOG, depth none, no cap", data: "GOOG") { $0.depth = .none; $0.maxParticipation = nil },
        Setup(name: "GOOG, fixed slippage 5 bps", data: "GOOG") { $0.depth = .fixedSlippage(bps: 5) },
        Setup(name: "GOOG, stops 3% / 6% with a tick", data: "GOOG") {
            $0.stopLoss = 0.03; $0.takeProfit = 0.06; $0.tick = 0.01
        },
        Setup(name: "GOOG, lot, minimum notional, minimum fee", data: "GOOG") {
            $0.lot = 1; $0.minNotional = 500; $0.feeMin = 5; $0.depth = .none
        },
        Setup(name: "GOOG, close fills with stops", data: "GOOG") { $0.fill = .close; $0.stopLoss = 0.04 },
        Setup(name: "GOOG, 20 units per entry", data: "GOOG") { $0.sizing = .units(20) },
        Setup(name: "GOOG, 5000$ per entry, synthetic", data: "GOOG") { $0.sizing = .cash(5_000) },
        // The portfolio holds longs only: a borrow rate is accepted and charges nothing, in both.
        Setup(name: "GOOG, borrow 800 bps a year on a long-only run (nothing accrues)", data: "GOOG") {
            $0.borrowBps = 800; $0.stopLoss = 0.04
        },
        Setup(name: "EURUSD hourly, defaults", data: "EURUSD") { _ in },
        Setup(name: "random series, tight participation cap (partial fills, remainders)", data: "", random: true) {
            $0.maxParticipation = 0.002; $0.initialCash = 1_000_000
        },
        Setup(name: "random series, a calibrated profile and stops", data: "", random: true) {
            $0.synthetic.bidDepth = DepthProfile.PowerLaw(a: 400, b: 0.8)
            $0.synthetic.askDepth = DepthProfile.PowerLaw(a: 300, b: 0.9)
            $0.synthetic.spreadBps = 3
            $0.stopLoss = 0.01; $0.takeProfit = 0.02
        },
    ] + exitSetups + feeSetups

    /// Fees as brokers charge them: maker fills (limit entries at their limit, targets at their
    /// level) at their own rate or a rebate, a fee per unit, a minimum and a cap that wins over it.
    static let feeSetups: [Setup] = ExecutionConfig.FillTiming.allCases.flatMap { fill -> [Setup] in
        let f = fill.rawValue
        return [
            Setup(name: "GOOG, \(f), limit entries and targets as makers (2 bps), 0.02 per unit, cap 0.12%", data: "GOOG",
                  expects: [.target, .stop]) {
                $0.fill = fill; $0.depth = .none; $0.maxParticipation = nil
                $0.makerBps = 2; $0.feeBps = 15; $0.feePerUnit = 0.02; $0.feeMax = 0.0012; $0.feeMin = 4
                $0.entries = EntryRules(limit: limit99, orderBars: 3)
                $0.exits = ExitRules(stopLoss: .fraction(0.04), takeProfits: [TakeProfit(.fraction(0.05))])
            },
            Setup(name: "GOOG, \(f), maker rebate -2 bps with a minimum, 0.05 per unit, synthetic", data: "GOOG",
                  expects: [.target]) {
                $0.fill = fill; $0.makerBps = -2; $0.feePerUnit = 0.05; $0.feeMin = 1
                $0.entries = EntryRules(limit: limit99, orderBars: 3)
                $0.exits = ExitRules(stopLoss: .fraction(0.05), takeProfits: [TakeProfit(.fraction(0.03), share: 0.5), TakeProfit(.fraction(0.07))])
            },
        ]
    }

    /// `--trail "3 * atr(22)"`, a chandelier exit.
    static let chandelier = try! PriceExpression(LocatedExpression("3 * atr(22)", origin: .setting(.trail)))
    static let atrStop = try! PriceExpression(LocatedExpression("2 * atr(14)", origin: .setting(.stopLoss)))
    static let limit99 = try! PriceExpression(LocatedExpression("close * 0.99", origin: .setting(.entryLimit)))
    static let limit101 = try! PriceExpression(LocatedExpression("close * 1.01", origin: .setting(.entryLimit)))
    static let high5 = try! PriceExpression(LocatedExpression("highest(high, 5)", origin: .setting(.entryStop)))

    /// Every exit kind the portfolio takes (stop, targets with scale-outs, trailing stop as a
    /// fraction and as an expression, break-even, time exit), under both fill timings.
    static let exitSetups: [Setup] = ExecutionConfig.FillTiming.allCases.flatMap { fill -> [Setup] in
        let f = fill.rawValue
        return [
            Setup(name: "GOOG, \(f), stop 4% and targets 3%@50%, 8%", data: "GOOG", expects: [.stop, .target]) {
                $0.fill = fill; $0.depth = .none; $0.maxParticipation = nil
                $0.exits = ExitRules(stopLoss: .fraction(0.04), takeProfits: [TakeProfit(.fraction(0.03), share: 0.5), TakeProfit(.fraction(0.08))])
            },
            Setup(name: "GOOG, \(f), trailing 5%", data: "GOOG", expects: [.trail]) {
                $0.fill = fill; $0.exits = ExitRules(trail: .fraction(0.05))
            },
            Setup(name: "GOOG, \(f), trailing 3 x atr(22), stop 2 x atr(14)", data: "GOOG", expects: [.trail]) {
                $0.fill = fill; $0.exits = ExitRules(stopLoss: .price(atrStop), trail: .price(chandelier))
            },
            Setup(name: "GOOG, \(f), trailing 3 x atr(22) from the close", data: "GOOG", expects: [.trail]) {
                $0.fill = fill; $0.exits = ExitRules(trail: .price(chandelier)); $0.exits.trailFrom = .close
            },
            Setup(name: "GOOG, \(f), stop 4% and trailing 6% checked from the bar after the fill (vectorbt's)", data: "GOOG", expects: [.trail]) {
                $0.fill = fill; $0.exits = ExitRules(stopLoss: .fraction(0.04), trail: .fraction(0.06)); $0.exits.checksFillBar = false
            },
            Setup(name: "GOOG, \(f), stop 5% and break-even at 3%", data: "GOOG", expects: [.stop]) {
                $0.fill = fill; $0.exits = ExitRules(stopLoss: .fraction(0.05), breakeven: 0.03)
            },
            Setup(name: "GOOG, \(f), time exit after 8 bars", data: "GOOG", expects: [.time]) {
                $0.fill = fill; $0.exits = ExitRules(exitAfterBars: 8)
            },
            Setup(name: "GOOG, \(f), limit entries at 99% of the close for 3 bars, stop 4%", data: "GOOG", expects: [.stop]) {
                $0.fill = fill; $0.depth = .none; $0.maxParticipation = nil; $0.stopLoss = 0.04
                $0.entries = EntryRules(limit: limit99, orderBars: 3)
            },
            Setup(name: "GOOG, \(f), stop entries at the 5-bar high, trailing 6%, synthetic", data: "GOOG", expects: [.trail]) {
                $0.fill = fill; $0.exits = ExitRules(trail: .fraction(0.06))
                $0.entries = EntryRules(stop: high5, orderBars: 2)
            },
            Setup(name: "GOOG, \(f), risk 1% to a 2 x atr(14) stop", data: "GOOG", expects: [.stop]) {
                $0.fill = fill; $0.sizing = .risk(0.01); $0.exits = ExitRules(stopLoss: .price(atrStop))
            },
            Setup(name: "random, \(f), stop-limit entries, a tight cap", data: "", random: true, expects: [.signal]) {
                $0.fill = fill; $0.maxParticipation = 0.003; $0.initialCash = 300_000
                $0.entries = EntryRules(limit: limit101, stop: high5, orderBars: 4)
            },
            Setup(name: "random, \(f), every exit, a tight cap (remainders of exits)", data: "", random: true,
                  expects: [.stop, .target, .trail, .time]) {
                $0.fill = fill; $0.maxParticipation = 0.003; $0.initialCash = 300_000; $0.tick = 0.01
                $0.exits = ExitRules(stopLoss: .fraction(0.03), takeProfits: [TakeProfit(.fraction(0.02), share: 0.4), TakeProfit(.fraction(0.05))],
                                     trail: .fraction(0.025), breakeven: 0.01, exitAfterBars: 4)
            },
        ]
    }

    @Test("ledger, fills, round trips, warnings and the account equal Engine.run", arguments: setups)
    func equalsEngine(_ setup: Setup) throws {
        let candles: CandleSeries
        let signals: Signals
        if setup.random {
            candles = EngineTest.random(bars: 3_000, seed: 11)
            signals = EngineTest.randomSignals(bars: 3_000, seed: 12, p: 0.05)
        } else {
            candles = try ShippedData.candles(setup.data)
            signals = try PortfolioGoldens.maCross(candles)
        }
        var config = ExecutionConfig()
        config.synthetic.tick = candles.inferredTick
        setup.configure(&config)
        let run = try EngineTest.run(candles, signals, config)
        let p = try Portfolio.run([PortfolioSymbol(candles: candles, signals: signals)],
                                  rules: PortfolioRules(maxPositions: 1), config: config)
        PortfolioInvariants.check(p)
        #expect(run.fills.count > 4)
        let kinds = Set(run.trades.map(\.exitKind))
        #expect(setup.expects.isSubset(of: kinds), "exit kinds \(kinds.map(\.rawValue).sorted()), expected \(setup.expects.map(\.rawValue).sorted())")
        #expect(p.time == candles.time)
        #expect(p.cash == run.cash)
        #expect(p.equity == run.equity)
        #expect(p.fills.map(\.fill) == run.fills)
        #expect(p.trades.map(\.trade) == run.trades)
        #expect(p.rejected.map(\.order) == run.rejected)
        #expect(p.ambiguousExitBars == run.ambiguousExitBars)
        #expect(p.warnings == run.warnings)
        #expect(p.positions == run.position.map { $0 != 0 ? 1 : 0 })
        #expect(p.positionValue == zip(run.position, candles.close).map { abs($0 * $1) })
        // The account, which the statistics read, is the run's ledger: equal statistics follow.
        let account = p.account
        #expect(account.candles.time == run.candles.time && account.candles.close == run.candles.close)
        #expect(account.initialCash == run.initialCash && account.cash == run.cash && account.equity == run.equity)
        #expect(account.position.map { $0 != 0 } == run.position.map { $0 != 0 })
        #expect(account.positionValue == zip(run.position, candles.close).map { abs($0 * $1) })
        #expect(account.fills == run.fills && account.trades == run.trades && account.rejected == run.rejected)
        #expect(account.costSplit == run.costSplit)
        #expect(account.borrowPaid == run.borrowPaid)
    }
}
