import Testing
@testable import BacktestCore
import TestSupport

/// Every run whose entries were cut below the size asked says how many and by how much, by
/// cause (cash or margin before the book; the participation cap or the book), whatever their
/// share of the orders; the fills' `quantityAsked` keeps its meaning (what reached the book).
@Suite("Entries cut below the size asked")
struct OrderCutTests {
    static let candles = OrdersTest.candles(bars: 300, seed: 42)
    static let signals = OrdersTest.signals(bars: 300, seed: 42)

    static func figures(_ w: RunWarning) -> [String: JSONValue] {
        guard case .object(let members) = w.json else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    @Test("fixed units the cash cannot pay: every such entry is counted, with the mean share the cash paid")
    func cash() throws {
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = nil
        config.sizing = .units(500)  // about 50,000 of notional on 10,000 of cash
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        let entries = r.fills.filter { $0.side == .buy }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.quantityFilled < 500 && $0.quantityAsked == $0.quantityFilled })
        let w = try #require(r.warnings.first { $0.kind == .cutOrders }, "\(r.warnings)")
        let f = Self.figures(w)
        let mean = entries.reduce(0) { $0 + $1.quantityFilled / 500 } / Double(entries.count)
        #expect(f["cut_orders"] == .int(entries.count) && f["cash_cut_orders"] == .int(entries.count) && f["liquidity_cut_orders"] == .int(0))
        if case .number(let v)? = f["avg_cash_fill_share"] { #expect(abs(v - mean) < 1e-12) } else { Issue.record("\(f)") }
        #expect(w.message.hasPrefix("\(entries.count) entries were cut below the size asked, filling ") && w.message.contains("by cash or margin"))
    }

    @Test("the participation cap: counted even when few orders are partial (no partial_fills warning)")
    func cap() throws {
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = 0.001
        config.sizing = .units(20)
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        let partial = r.fills.filter { $0.side == .buy && $0.isPartial }
        #expect(!partial.isEmpty)
        let w = try #require(r.warnings.first { $0.kind == .cutOrders }, "\(r.warnings)")
        let f = Self.figures(w)
        #expect(f["liquidity_cut_orders"] == .int(partial.count) && f["cash_cut_orders"] == .int(0))
        let mean = partial.reduce(0) { $0 + $1.quantityFilled / $1.quantityAsked } / Double(partial.count)
        if case .number(let v)? = f["avg_liquidity_fill_share"] { #expect(abs(v - mean) < 1e-12) } else { Issue.record("\(f)") }
    }

    @Test("an order sized by its budget (N% of equity) is not a cut; a portfolio counts its cuts too")
    func budgetAndPortfolio() throws {
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = nil
        let plain = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        #expect(plain.warnings.allSatisfy { $0.kind != .cutOrders }, "\(plain.warnings)")
        config.sizing = .units(500)
        let p = try Portfolio.run([PortfolioSymbol(candles: Self.candles, signals: Self.signals)], rules: PortfolioRules(maxPositions: 1), config: config)
        #expect(p.warnings.contains { $0.kind == .cutOrders }, "\(p.warnings)")
    }
}
