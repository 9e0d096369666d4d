import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// `Engine.run` with `--depth none` against the orders goldens (`Tests/Fixtures/orders/`):
/// entry orders, attached exits, risk and volatility sizing, each case simulated by the
/// independent `reference_sim.py` (docs/design/orders.md as Python) and, where the conventions
/// coincide, by vectorbt 1.2 or backtesting.py 0.6.6 (`checked_by`). The four cases with a
/// position-aware exit rule wait for `Engine.run` to evaluate `Signals.positionRules`.
///
/// Tolerances: 1e-9 relative everywhere (the generator's own agreement check). A trade's PnL is
/// compared relative to its entry notional, not to itself: it is a difference of two notionals,
/// so its rounding error scales with them (a PnL near zero has no relative precision of its own).
/// An expression's values (TA-Lib's ATR and SMA against bt's kernels) are compared at 1e-9
/// relative to the value.
@Suite("Orders goldens (vectorbt, backtesting.py, reference simulator)")
struct OrdersGoldenTests {
    // MARK: - The file

    struct Target: Decodable, Sendable {
        var distance: String
        var share: String?
        var values: [Double?]?
    }

    struct Options: Decodable, Sendable {
        var fill: String
        var size: String
        var fee_bps: Double
        var cash: Double
        var short: Bool
        var sl: String?
        var sl_values: [Double?]?
        var tp: [Target]
        var trail: String?
        var trail_values: [Double?]?
        var breakeven: String?
        var exit_after: Int?
        var order_bars: Int
        var pyramid: Int
        var tick: Double?
        var entry_limit: String?
        var entry_limit_values: [Double?]?
        var entry_stop: String?
        var entry_stop_values: [Double?]?
        var exit_rule: String?
        var periods_per_year: Double?
        /// The fee cases' settings (absent elsewhere: the defaults).
        var maker_bps: Double?
        var fee_per_unit: Double?
        var fee_min: Double?
        var fee_max: String?
        /// The borrow cases' annual rate on shorts (absent elsewhere: 0).
        var borrow_bps: Double?
        /// The margin and funding cases' account (absent elsewhere: a cash account).
        var leverage: Double?
        var margin: String?
        var instrument: String?
        var mmr: Double?
        var liq_fee_bps: Double?
        /// The contract cases' units of the underlying per contract (absent: 1).
        var multiplier: Double?
        var margin_rate: Double?
        /// Funding rows `[time in epoch seconds, rate, mark price or null]`.
        var funding: [[Double?]]?
    }

    struct ExpectedTrade: Decodable, Sendable {
        var entry_index: Int
        var exit_index: Int
        var side: String
        var quantity: Double
        var entry_price: Double
        var exit_price: Double
        var fees: Double
        var pnl: Double
        var kind: String
        /// The borrow paid (the borrow cases only).
        var borrow: Double?
        /// Margin interest and net funding paid (the margin cases only).
        var interest: Double?
        var funding: Double?
    }

    struct ExpectedFill: Decodable, Sendable {
        var index: Int
        var side: String
        var quantity: Double
        var price: Double
        var fee: Double
        var kind: String
    }

    /// `[bar, equity]`.
    struct EquityAt: Decodable, Sendable {
        var bar: Int
        var equity: Double
        init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            bar = try c.decode(Int.self)
            equity = try c.decode(Double.self)
        }
    }

    struct Expected: Decodable, Sendable {
        var trades: [ExpectedTrade]
        var fills: [ExpectedFill]
        var final_equity: Double
        var equity_at: [EquityAt]
        var equity: [Double]?
        var ambiguous_exit_bars: Int
        var skipped_orders: Int
        /// The margin cases' account figures.
        var liquidations: Int?
        var funding_paid: Double?
        var interest_paid: Double?
        var max_leverage: Double?
        var min_margin_ratio: Double?
        var trading_stopped: Int?
    }

    struct DataRef: Decodable, Sendable {
        var file: String
        var range: [Int]?
        var bars: Int
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var covers: String
        var data: DataRef
        var entries: [Int]
        var exits: [Int]
        var short_entries: [Int]
        var short_exits: [Int]
        var options: Options
        var expected: Expected
        var checked_by: [String]
        var testDescription: String { name }
    }

    struct File: Decodable, Sendable { var cases: [Case] }

    static let path = "Tests/Fixtures/orders/goldens.json"

    /// The committed goldens; a missing or unreadable file fails every test that uses them.
    static func cases() throws -> [Case] {
        try JSONDecoder().decode(File.self, from: Repository.data(path)).cases
    }

    /// The cases `Engine.run` takes as they are (every case without a position-aware exit rule).
    static func engineCases() throws -> [Case] { try cases().filter { $0.options.exit_rule == nil } }

    /// The cases with a position-aware exit rule (`trade_return`, `bars_in_trade`, ...).
    static func ruleCases() throws -> [Case] { try cases().filter { $0.options.exit_rule != nil } }

    // MARK: - Inputs

    /// The case's candles: the shipped file, sliced to the case's rows.
    static func candles(_ c: Case) throws -> CandleSeries {
        let all = c.data.file == "GOOG" ? try ShippedData.goog() : c.data.file == "EURUSD" ? try ShippedData.eurusd()
            : try ShippedData.candles(c.data.file)
        guard let r = c.data.range else { return all }
        return all.slice(r[0]..<r[1])
    }

    static func mask(_ bars: [Int], _ n: Int) -> [Bool] {
        var m = [Bool](repeating: false, count: n)
        for b in bars { m[b] = true }
        return m
    }

    /// The case's signals: a long-only run reads `entries`/`exits`, a short-only one
    /// `short_entries`/`short_exits` (its long vectors all false, so nothing reverses).
    static func signals(_ c: Case, bars n: Int) -> Signals {
        if c.options.short {
            return Signals(entries: mask([], n), exits: mask([], n),
                           shortEntries: mask(c.short_entries, n), shortExits: mask(c.short_exits, n))
        }
        return Signals(entries: mask(c.entries, n), exits: mask(c.exits, n))
    }

    /// `5%` is a fraction of the entry price; anything else is a price expression.
    static func distance(_ text: String, _ setting: Setting) throws -> ExitDistance {
        if text.hasSuffix("%") { return .fraction(try ExecutionConfig.parseDistance(text, setting: setting)) }
        return .price(try PriceExpression(LocatedExpression(text, origin: .setting(setting))))
    }

    static func price(_ text: String?, _ setting: Setting) throws -> PriceExpression? {
        try text.map { try PriceExpression(LocatedExpression($0, origin: .setting(setting))) }
    }

    /// The `ExecutionConfig` of the case's options: depth none, no participation cap; the fee
    /// schedule the case gives (no minimum fee when it gives none).
    static func config(_ c: Case) throws -> ExecutionConfig {
        let o = c.options
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = nil
        config.feeMin = o.fee_min ?? 0
        config.feeBps = o.fee_bps
        config.makerBps = o.maker_bps
        config.feePerUnit = o.fee_per_unit ?? 0
        config.feeMax = try o.fee_max.map { try ExecutionConfig.parseDistance($0, setting: .feeMax, of: "the notional") }
        config.borrowBps = o.borrow_bps ?? 0
        config.leverage = o.leverage ?? 1
        config.margin = try o.margin.map { try #require(MarginMode(rawValue: $0)) } ?? .cross
        config.instrument = try o.instrument.map { try #require(Instrument(rawValue: $0)) } ?? .spot
        config.mmr = o.mmr
        config.liqFeeBps = o.liq_fee_bps ?? 0
        config.multiplier = o.multiplier ?? 1
        config.marginRate = o.margin_rate ?? 0
        config.funding = try (o.funding ?? []).map { row in
            FundingRate(timeMs: Int64(try #require(row[0])) * 1000, rate: try #require(row[1]), markPrice: row[2])
        }
        config.initialCash = o.cash
        config.fill = try #require(ExecutionConfig.FillTiming(rawValue: o.fill))
        config.allowShort = o.short
        config.sizing = try ExecutionConfig.Sizing.parse(o.size)
        config.periodsPerYear = o.periods_per_year
        config.tick = o.tick
        var exits = ExitRules()
        exits.stopLoss = try o.sl.map { try distance($0, .stopLoss) }
        exits.takeProfits = try o.tp.map {
            TakeProfit(try distance($0.distance, .takeProfit),
                       share: try $0.share.map { try ExecutionConfig.parseFraction($0, setting: .takeProfit) })
        }
        exits.trail = try o.trail.map { try distance($0, .trail) }
        exits.breakeven = try o.breakeven.map { try ExecutionConfig.parseFraction($0, setting: .breakeven) }
        exits.exitAfterBars = o.exit_after
        config.exits = exits
        var entries = EntryRules(orderBars: o.order_bars, pyramid: o.pyramid)
        let limit = try price(o.entry_limit, .entryLimit), stop = try price(o.entry_stop, .entryStop)
        entries.limit = limit
        entries.stop = stop
        if o.short {
            // A short-only run's orders: the short entries need their own prices (the same text).
            entries.shortLimit = limit
            entries.shortStop = stop
        }
        config.entries = entries
        return config
    }

    // MARK: - Comparison

    static let tolerance = 1e-9

    static func near(_ a: Double, _ b: Double, scale: Double? = nil) -> Bool {
        if a == b { return true }
        guard a.isFinite && b.isFinite else { return false }
        return abs(a - b) <= tolerance * max(scale ?? max(abs(a), abs(b)), 1e-300)
    }

    /// Checks `run` against the case's expected trades, fills, equity and ambiguous bars.
    static func compare(_ r: BacktestResult, _ c: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        let e = c.expected
        #expect(r.trades.count == e.trades.count, "trades: \(r.trades.count) vs golden \(e.trades.count)",
                sourceLocation: sourceLocation)
        // Inverse contracts: the notional in coins, quantity × multiplier / price (PnL and fees are coins).
        let inverse = c.options.instrument == "inverse-perp", m = c.options.multiplier ?? 1
        for (k, (t, g)) in zip(r.trades, e.trades).enumerated() {
            let notional = inverse ? g.quantity * m / g.entry_price : g.quantity * g.entry_price
            let ok = t.entryIndex == g.entry_index && t.exitIndex == g.exit_index && t.side.rawValue == g.side
                && t.exitKind.rawValue == g.kind && near(t.quantity, g.quantity) && near(t.entryPrice, g.entry_price)
                && near(t.exitPrice, g.exit_price) && near(t.fees, g.fees, scale: notional) && near(t.pnl, g.pnl, scale: notional)
                && near(t.borrow, g.borrow ?? 0, scale: notional) && near(t.interest, g.interest ?? 0, scale: notional)
                && near(t.funding, g.funding ?? 0, scale: notional)
            #expect(ok, """
                trade \(k): bt \(t.side.rawValue) \(t.entryIndex)->\(t.exitIndex) \(t.exitKind.rawValue) q \(t.quantity) \
                \(t.entryPrice)->\(t.exitPrice) fees \(t.fees) pnl \(t.pnl); golden \(g.side) \(g.entry_index)->\(g.exit_index) \
                \(g.kind) q \(g.quantity) \(g.entry_price)->\(g.exit_price) fees \(g.fees) pnl \(g.pnl) borrow \(g.borrow ?? 0) \
                interest \(g.interest ?? 0) funding \(g.funding ?? 0) (bt \(t.borrow), \(t.interest), \(t.funding))
                """, sourceLocation: sourceLocation)
            if !ok { break }
        }
        #expect(r.fills.count == e.fills.count, "fills: \(r.fills.count) vs golden \(e.fills.count)", sourceLocation: sourceLocation)
        for (k, (f, g)) in zip(r.fills, e.fills).enumerated() {
            let ok = f.index == g.index && f.side.rawValue == g.side && near(f.quantityFilled, g.quantity)
                && near(f.vwap, g.price) && near(f.referencePrice, g.price)
                && near(f.fee, g.fee, scale: inverse ? g.quantity * m / g.price : g.quantity * g.price)
            #expect(ok, """
                fill \(k): bt bar \(f.index) \(f.side.rawValue) q \(f.quantityFilled) at \(f.vwap) fee \(f.fee); \
                golden bar \(g.index) \(g.side) q \(g.quantity) at \(g.price) fee \(g.fee) (\(g.kind))
                """, sourceLocation: sourceLocation)
            if !ok { break }
        }
        #expect(near(r.finalEquity, e.final_equity), "final equity \(r.finalEquity) vs golden \(e.final_equity)",
                sourceLocation: sourceLocation)
        for m in e.equity_at {
            #expect(near(r.equity[m.bar], m.equity), "equity at bar \(m.bar): \(r.equity[m.bar]) vs golden \(m.equity)",
                    sourceLocation: sourceLocation)
        }
        if let curve = e.equity {
            #expect(curve.count == r.equity.count, sourceLocation: sourceLocation)
            let first = zip(r.equity, curve).enumerated().first { !near($0.element.0, $0.element.1) }
            #expect(first == nil, "equity first differs at bar \(first?.offset ?? -1): \(first?.element.0 ?? 0) vs golden \(first?.element.1 ?? 0)",
                    sourceLocation: sourceLocation)
        }
        #expect(r.ambiguousExitBars == e.ambiguous_exit_bars,
                "ambiguous exit bars \(r.ambiguousExitBars) vs golden \(e.ambiguous_exit_bars)", sourceLocation: sourceLocation)
        if let liquidations = e.liquidations {
            let a = r.account
            #expect(a?.liquidations == liquidations, "liquidations \(a?.liquidations ?? -1) vs golden \(liquidations)",
                    sourceLocation: sourceLocation)
            #expect(a?.stoppedAt == e.trading_stopped, "stopped at \(a?.stoppedAt ?? -1) vs golden \(e.trading_stopped ?? -1)",
                    sourceLocation: sourceLocation)
            let scale = c.options.cash
            #expect(near(a?.fundingPaid ?? .nan, e.funding_paid ?? 0, scale: scale), "funding \(a?.fundingPaid ?? .nan) vs \(e.funding_paid ?? 0)",
                    sourceLocation: sourceLocation)
            #expect(near(a?.interestPaid ?? .nan, e.interest_paid ?? 0, scale: scale), "interest \(a?.interestPaid ?? .nan) vs \(e.interest_paid ?? 0)",
                    sourceLocation: sourceLocation)
            if let m = e.max_leverage {
                let stat = Self.maxLeverage(r, multiplier: c.options.multiplier ?? 1, inverse: inverse)
                #expect(near(stat, m), "max leverage \(stat) vs golden \(m)", sourceLocation: sourceLocation)
            }
            let ratio = a?.minMarginRatio ?? .nan
            if let m = e.min_margin_ratio {
                #expect(near(ratio, m), "min margin ratio \(ratio) vs golden \(m)", sourceLocation: sourceLocation)
            } else {
                #expect(ratio.isNaN, "min margin ratio \(ratio) vs golden none", sourceLocation: sourceLocation)
            }
        }
    }

    /// The largest |position| × close / equity at a close with equity above 0 (the statistic's
    /// definition; Analysis computes it, this target cannot import it).
    static func maxLeverage(_ r: BacktestResult, multiplier: Double, inverse: Bool = false) -> Double {
        var most = 0.0
        for t in r.position.indices where r.position[t] != 0 && r.equity[t] > 0 {
            let value = inverse ? r.position[t] * multiplier / r.candles.close[t] : r.position[t] * multiplier * r.candles.close[t]
            most = max(most, abs(value) / r.equity[t])
        }
        return most
    }

    // MARK: - Tests

    @Test("the goldens exist and cover every exit kind, entry kind and sizing of docs/design/orders.md")
    func coverage() throws {
        let cases = try Self.cases()
        #expect(cases.count == 62)
        // Inverse perpetuals: liquidated longs (cross) and shorts (isolated), funding on both sides,
        // risk sizing with a maker rebate, each account in the coin.
        let inverse = cases.filter { $0.options.instrument == "inverse-perp" }
        #expect(inverse.contains { $0.options.margin == "cross" && !$0.options.short && ($0.expected.liquidations ?? 0) > 0 })
        #expect(inverse.contains { $0.options.margin == "isolated" && $0.options.short && ($0.expected.liquidations ?? 0) > 0 })
        #expect(inverse.contains { $0.options.funding != nil && $0.options.short && ($0.expected.funding_paid ?? 0) != 0 })
        #expect(inverse.contains { $0.options.funding != nil && !$0.options.short && ($0.expected.funding_paid ?? 0) != 0 })
        #expect(inverse.contains { $0.options.size.hasPrefix("risk:") && $0.expected.fills.contains { $0.fee < 0 } })
        // Contracts: a future with a multiplier, liquidated; risk sizing by contracts; a perpetual's funding on contracts.
        #expect(cases.contains { ($0.options.multiplier ?? 1) > 1 && ($0.expected.liquidations ?? 0) > 0 && $0.options.instrument == "future" })
        #expect(cases.contains { ($0.options.multiplier ?? 1) > 1 && $0.options.size.hasPrefix("risk:") })
        #expect(cases.contains { ($0.options.multiplier ?? 1) > 1 && $0.options.funding != nil && $0.options.size.hasSuffix("u") })
        // Margin accounts: liquidations in the range and at the open, cross and isolated, a
        // liquidation fee, an account that stopped; funding on longs and shorts, --fill close.
        #expect(cases.contains { $0.options.margin == "isolated" && $0.options.short })
        #expect(cases.contains { $0.expected.trading_stopped != nil })
        #expect(cases.contains { ($0.options.liq_fee_bps ?? 0) > 0 && ($0.expected.liquidations ?? 0) > 0 })
        #expect(cases.contains { ($0.options.margin_rate ?? 0) > 0 && ($0.expected.interest_paid ?? 0) > 0 })
        #expect(cases.contains { $0.options.funding != nil && $0.options.short && ($0.expected.funding_paid ?? 0) < 0 })
        #expect(cases.contains { $0.options.funding != nil && $0.options.fill == "close" })
        // Borrow on shorts: a next-open short held over weekends and to the end, and --fill close with exits.
        #expect(cases.contains { ($0.options.borrow_bps ?? 0) > 0 && $0.options.fill == "next-open"
            && $0.expected.trades.contains { $0.kind == "end" && ($0.borrow ?? 0) > 0 } })
        #expect(cases.contains { ($0.options.borrow_bps ?? 0) > 0 && $0.options.fill == "close" && $0.options.sl != nil })
        // Fees as brokers charge them: a per-unit fee, a minimum, a cap, a maker rate and a rebate.
        #expect(cases.contains { ($0.options.fee_per_unit ?? 0) > 0 && ($0.options.fee_min ?? 0) > 0 })
        #expect(cases.contains { $0.options.fee_max != nil && ($0.options.fee_min ?? 0) > 0 })
        #expect(cases.contains { ($0.options.maker_bps ?? 0) > 0 && $0.options.entry_limit != nil && !$0.options.tp.isEmpty })
        #expect(cases.contains { ($0.options.maker_bps ?? 0) < 0 && $0.expected.fills.contains { $0.fee < 0 } })
        #expect(cases.contains { $0.options.short && $0.options.maker_bps != nil && $0.options.fee_max != nil })
        let kinds = Set(cases.flatMap { $0.expected.trades.map(\.kind) })
        let all = Set(ExitKind.allCases.filter { $0 != .rebalance }.map(\.rawValue))
        #expect(kinds == all, "exit kinds without a golden: \(all.subtracting(kinds).sorted())")
        #expect(cases.contains { $0.options.entry_limit != nil && $0.options.entry_stop == nil })
        #expect(cases.contains { $0.options.entry_stop != nil && $0.options.entry_limit == nil })
        #expect(cases.contains { $0.options.entry_stop != nil && $0.options.entry_limit != nil })
        for size in ["100%", "10u", "risk:", "vol:", "30%"] { #expect(cases.contains { $0.options.size.hasPrefix(size) }, "\(size)") }
        #expect(cases.contains { $0.options.fill == "close" } && cases.contains { $0.options.short })
        #expect(cases.contains { $0.expected.ambiguous_exit_bars > 0 })
    }

    @Test("the expressions' values equal the generator's (TA-Lib ATR, prices at the signal bar)", arguments: try engineCases())
    func expressionValues(_ c: Case) throws {
        let candles = try Self.candles(c)
        let o = c.options
        var pairs: [(String, Setting, [Double?])] = []
        if let t = o.sl, let v = o.sl_values { pairs.append((t, .stopLoss, v)) }
        if let t = o.trail, let v = o.trail_values { pairs.append((t, .trail, v)) }
        if let t = o.entry_limit, let v = o.entry_limit_values { pairs.append((t, .entryLimit, v)) }
        if let t = o.entry_stop, let v = o.entry_stop_values { pairs.append((t, .entryStop, v)) }
        for tp in o.tp { if let v = tp.values { pairs.append((tp.distance, .takeProfit, v)) } }
        for (text, setting, golden) in pairs {
            let e = try #require(try Self.price(text, setting))
            let values = try [e].values(on: candles, cache: IndicatorCache())[0]
            #expect(values.count == golden.count)
            let bad = zip(values, golden).enumerated().first { _, pair in
                guard let g = pair.1 else { return !pair.0.isNaN }
                return !Self.near(pair.0, g)
            }
            #expect(bad == nil, "\(text): bar \(bad?.offset ?? -1) bt \(bad?.element.0 ?? 0) vs golden \(String(describing: bad?.element.1))")
        }
    }

    @Test("trades, fills, equity and ambiguous bars equal the goldens", arguments: try engineCases())
    func agrees(_ c: Case) throws {
        let candles = try Self.candles(c)
        #expect(candles.count == c.data.bars)
        let r = try EngineTest.run(candles, Self.signals(c, bars: candles.count), try Self.config(c))
        Self.compare(r, c)
    }

    /// The case's exit rule as the language compiles it (`Signals.positionRules`), OR-ed with
    /// its exit signals as a strategy's vectors and rules are.
    static func ruleSignals(_ c: Case, _ candles: CandleSeries) throws -> Signals {
        let text = try #require(c.options.exit_rule)
        let rules = try SignalRules([.entry: LocatedExpression("close < 0", origin: .setting(.entry)),
                                     .exit: LocatedExpression(text, origin: .setting(.exit))], parameters: [])
        let compiled = try rules.signals(on: candles, values: [:])
        let position = try #require(compiled.positionRules?.exit, "'\(text)' should compile to a rule that reads the position")
        let base = signals(c, bars: candles.count)
        return Signals(entries: base.entries, exits: base.exits, positionRules: PositionRules(exit: position))
    }

    @Test("position-aware exit rules: the goldens", arguments: try ruleCases())
    func ruleAgrees(_ c: Case) throws {
        let candles = try Self.candles(c)
        let r = try EngineTest.run(candles, try Self.ruleSignals(c, candles), try Self.config(c))
        Self.compare(r, c)
    }

    @Test("the rule cases' rules compile to position-aware rules, and they exit", arguments: try ruleCases())
    func ruleCasesCompile(_ c: Case) throws {
        let candles = try Self.candles(c)
        let signals = try Self.ruleSignals(c, candles)
        #expect(signals.positionRules?.exit != nil)
        // The rule must decide exits the case's exit signals do not: the goldens' trades differ
        // from the run without it.
        let without = try EngineTest.run(candles, Self.signals(c, bars: candles.count), try Self.config(c))
        let golden = c.expected.trades.map { [$0.entry_index, $0.exit_index] }
        #expect(without.trades.map { [$0.entryIndex, $0.exitIndex] } != golden)
    }
}
