import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// bt's portfolio against vectorbt 1.2.0's `Portfolio.from_orders` with target percents, shared
/// cash and `call_seq="auto"` (docs/design/portfolio-reference.md): the executor alone on hand-made
/// target tables (units), then whole ma-cross portfolios (cases) with slots, ranking,
/// rebalancing, rotation and different calendars, with `--depth none`.
@Suite("Portfolio vectorbt goldens")
struct PortfolioGoldenTests {
    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        a == b || abs(a - b) <= tolerance * max(abs(a), abs(b))
    }

    @Test("the goldens exist: 7 bt units, 2 informational, 10 cases")
    func coverage() throws {
        let file = try PortfolioGoldens.file()
        #expect(file.vectorbt == "1.2.0")
        #expect(file.units.count == 9)
        #expect(try PortfolioGoldens.units().count == 7)
        #expect(file.cases.count == 10)
        #expect(Set(file.cases.map(\.mode)) == ["signals", "rotation"])
    }

    // MARK: - Units: the executor on target tables

    @Test("executor: orders, rejections, value and cash per bar, round trips", arguments: try PortfolioGoldens.units())
    func unit(_ u: PortfolioGoldens.Unit) throws {
        let candles = PortfolioGoldens.candles(u)
        var orders: [PortfolioOrder] = []
        for r in u.target.indices {
            for j in u.symbols.indices {
                if let t = u.target[r][j] { orders.append(PortfolioOrder(row: r, symbol: j, target: t, reason: .rebalance)) }
            }
        }
        // Symbols are sorted by name inside; the units name them in column order A, B, C (or B, A).
        let sortedNames = u.symbols.sorted()
        orders = orders.map { var o = $0; o.symbol = sortedNames.firstIndex(of: u.symbols[o.symbol])!; return o }
        let r = try Portfolio.execute(candles.map { PortfolioSymbol(candles: $0) }, orders: orders,
                                      config: PortfolioGoldens.config(cash: u.init_cash))
        PortfolioInvariants.check(r)
        compareOrders(r, u.orders)
        // Rejected orders are vectorbt's rejections (NoCashLong); ignored ones (SizeZero,
        // PriceNaN) are no order at all.
        let rejected = u.log.filter { $0.status == "Rejected" }
        #expect(r.rejected.map { "\($0.order.index) \(r.symbols[$0.symbol])" } == rejected.map { "\($0.bar) \($0.symbol)" })
        #expect(r.rejected.allSatisfy { $0.order.reason == .insufficientCash })
        #expect(r.equity.count == u.value.count)
        for (k, v) in u.value.enumerated() { #expect(Self.near(r.equity[k], v), "value at bar \(k): \(r.equity[k]) vs \(v)") }
        for (k, c) in u.cash.enumerated() {
            #expect(abs(r.cash[k] - c) <= 1e-9 * u.value[k], "cash at bar \(k): \(r.cash[k]) vs \(c)")
        }
        #expect(Self.near(r.finalEquity, u.final_value))
        compareRounds(r, u.positions)
    }

    // MARK: - Cases: whole portfolios

    @Test("signals equal the goldens' on each symbol's own bars", arguments: try PortfolioGoldens.cases().filter { $0.mode == "signals" })
    func signals(_ c: PortfolioGoldens.Case) throws {
        for (symbol, candles) in zip(c.symbols, try PortfolioGoldens.candles(c)) {
            let s = try PortfolioGoldens.maCross(candles)
            #expect(s.entries.indices.filter { s.entries[$0] } == c.signals?[symbol]?.entries, "\(symbol) entries")
            #expect(s.exits.indices.filter { s.exits[$0] } == c.signals?[symbol]?.exits, "\(symbol) exits")
        }
    }

    @Test("planner, orders, per-bar value and cash, round trips, final equity", arguments: try PortfolioGoldens.cases())
    func portfolio(_ c: PortfolioGoldens.Case) throws {
        let r = try Portfolio.run(try PortfolioGoldens.symbols(c), rules: try PortfolioGoldens.rules(c),
                                  config: PortfolioGoldens.config(cash: c.init_cash))
        PortfolioInvariants.check(r)
        #expect(r.time.count == c.calendar.bars)
        #expect(UTCTime.isoDate(r.time[0]) == c.calendar.first && UTCTime.isoDate(r.time.last!) == c.calendar.last)
        // Planner: the [bar, symbol] pairs exactly, the targets within 1e-12.
        let planned = r.orders.sorted { ($0.row, $0.symbol) < ($1.row, $1.symbol) }
        #expect(planned.count == c.targets.count, "\(planned.count) planned orders, \(c.targets.count) in the goldens")
        for (p, g) in zip(planned, c.targets) {
            #expect(p.row == g.bar && r.symbols[p.symbol] == g.symbol, "planned \(p.row) \(r.symbols[p.symbol]) vs \(g.bar) \(g.symbol)")
            #expect(Self.near(p.target, g.target, 1e-12), "target at \(g.bar) \(g.symbol): \(p.target) vs \(g.target)")
        }
        if c.mode == "signals" {
            let skipped = c.decisions.reduce(0) { $0 + ($1.skipped?.count ?? 0) }
            #expect(r.skippedEntries == skipped)
        }
        compareOrders(r, c.orders)
        #expect(Self.near(r.finalEquity, c.final_value), "final equity \(r.finalEquity) vs vectorbt \(c.final_value)")
        #expect(Self.near(r.fills.reduce(0) { $0 + $1.fill.fee }, c.total_fees))
        for (k, v) in c.value.enumerated() where !Self.near(r.equity[k], v) {
            Issue.record("value at bar \(k): \(r.equity[k]) vs \(v)")
            break
        }
        for (k, cash) in c.cash.enumerated() where abs(r.cash[k] - cash) > 1e-9 * c.value[k] {
            Issue.record("cash at bar \(k): \(r.cash[k]) vs \(cash)")
            break
        }
        compareRounds(r, c.roundTrips)
    }

    @Test("one symbol with K = 1 is the engine's vectorbt golden (from_signals, all in)")
    func oneSymbolIsTheEngineGolden() throws {
        let c = try #require(try PortfolioGoldens.cases().first { $0.name == "goog_k1" })
        let r = try Portfolio.run(try PortfolioGoldens.symbols(c), rules: try PortfolioGoldens.rules(c),
                                  config: PortfolioGoldens.config(cash: 10_000))
        #expect(Self.near(r.finalEquity, 54611.237082253065))
    }

    // MARK: - Comparisons

    /// Same count and, in execution order, the same (bar, symbol, side); size, price, fees within 1e-9.
    func compareOrders(_ r: PortfolioResult, _ golden: [PortfolioGoldens.Order], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.fills.count == golden.count, "\(r.fills.count) fills, \(golden.count) vectorbt orders", sourceLocation: sourceLocation)
        for (k, (f, g)) in zip(r.fills, golden).enumerated() {
            let side = f.fill.side == .buy ? "Buy" : "Sell"
            guard f.fill.index == g.bar, r.symbols[f.symbol] == g.symbol, side == g.side else {
                Issue.record("order \(k): \(f.fill.index) \(r.symbols[f.symbol]) \(side) vs \(g.bar) \(g.symbol) \(g.side)",
                             sourceLocation: sourceLocation)
                return
            }
            #expect(Self.near(f.fill.quantityFilled, g.size) && Self.near(f.fill.vwap, g.price) && Self.near(f.fill.fee, g.fees),
                    "order \(k) at \(g.bar) \(g.symbol): \(f.fill.quantityFilled) @ \(f.fill.vwap) fee \(f.fill.fee) vs \(g.size) @ \(g.price) fee \(g.fees)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Same count and the same (symbol, entry bar, exit bar, status) in order; size, prices,
    /// fees within 1e-9; PnL within 1e-9 of size x entry price.
    func compareRounds(_ r: PortfolioResult, _ golden: [PortfolioGoldens.Round], sourceLocation: SourceLocation = #_sourceLocation) {
        // vectorbt lists them by column, then time; a unit's columns need not be in name order.
        let golden = golden.sorted { ($0.symbol, $0.entry_bar) < ($1.symbol, $1.entry_bar) }
        let mine = r.trades.sorted { (r.symbols[$0.symbol], $0.trade.entryIndex) < (r.symbols[$1.symbol], $1.trade.entryIndex) }
        #expect(mine.count == golden.count, "\(mine.count) round trips, \(golden.count) vectorbt positions", sourceLocation: sourceLocation)
        for (k, (t, g)) in zip(mine, golden).enumerated() {
            let status = t.trade.isOpen ? "Open" : "Closed"
            guard r.symbols[t.symbol] == g.symbol, t.trade.entryIndex == g.entry_bar, t.trade.exitIndex == g.exit_bar, status == g.status else {
                let text = "round trip \(k): \(r.symbols[t.symbol]) \(t.trade.entryIndex)-\(t.trade.exitIndex) \(status) vs "
                    + "\(g.symbol) \(g.entry_bar)-\(g.exit_bar) \(g.status)"
                Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
                return
            }
            #expect(Self.near(t.trade.quantity, g.size), "size \(t.trade.quantity) vs \(g.size)", sourceLocation: sourceLocation)
            #expect(Self.near(t.trade.entryPrice, g.entry_price), sourceLocation: sourceLocation)
            #expect(Self.near(t.trade.exitPrice, g.exit_price), "exit price \(t.trade.exitPrice) vs \(g.exit_price)", sourceLocation: sourceLocation)
            #expect(Self.near(t.trade.fees, g.entry_fees + g.exit_fees), sourceLocation: sourceLocation)
            #expect(abs(t.trade.pnl - g.pnl) <= 1e-9 * g.size * g.entry_price, "pnl \(t.trade.pnl) vs \(g.pnl)", sourceLocation: sourceLocation)
        }
    }
}
