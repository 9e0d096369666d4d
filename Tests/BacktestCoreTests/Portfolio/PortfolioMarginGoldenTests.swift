import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A two-symbol long/short book of perpetuals at 5x, cross and isolated, against the independent
/// reference `Tests/Fixtures/portfolio/margin_reference.py` (its docstring states the rules): a
/// rebalance, reversals of both symbols, a close, each symbol's own funding rows (at and inside
/// bars, with and without a mark), and a shock that liquidates both positions on one row.
@Suite("Portfolio margin goldens")
struct PortfolioMarginGoldenTests {
    struct Golden: Decodable, Sendable {
        struct Config: Decodable, Sendable { var cash, fee_bps, leverage, mmr, liq_fee_bps: Double }
        struct Fill: Decodable, Sendable { var row: Int; var symbol, side: String; var quantity, price, fee: Double }
        struct Trade: Decodable, Sendable {
            var symbol, side: String
            var entry_row, exit_row: Int
            var exit_kind: String
            var pnl, funding: Double
        }
        struct Case: Decodable, Sendable, CustomTestStringConvertible {
            var margin: String
            var equity, cash: [Double]
            var fills: [Fill]
            var trades: [Trade]
            var funding_paid: Double
            var liquidations: Int
            var stopped_at: Int?
            var testDescription: String { margin }
        }
        var time0, day: Int64
        var bars: [String: [[Double]]]
        var funding: [String: [[Double?]]]
        var orders: [[OrderCell]]
        var config: Config
        var cases: [Case]
    }

    enum OrderCell: Decodable, Sendable {
        case number(Double), text(String)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let v = try? c.decode(Double.self) { self = .number(v) } else { self = .text(try c.decode(String.self)) }
        }
        var number: Double { if case .number(let v) = self { return v } else { return .nan } }
        var text: String { if case .text(let v) = self { return v } else { return "" } }
    }

    static let path = "Tests/Fixtures/portfolio/margin_goldens.json"
    static func golden() throws -> Golden { try JSONDecoder().decode(Golden.self, from: Repository.data(path)) }
    static func cases() throws -> [Golden.Case] { try golden().cases }

    @Test("fills, round trips, cash and equity on every row, funding and liquidations equal the reference", arguments: try cases())
    func equalsReference(_ expected: Golden.Case) throws {
        let g = try Self.golden()
        var config = ExecutionConfig()
        config.depth = .none
        config.maxParticipation = nil
        config.initialCash = g.config.cash
        config.feeBps = g.config.fee_bps
        config.leverage = g.config.leverage
        config.mmr = g.config.mmr
        config.liqFeeBps = g.config.liq_fee_bps
        config.instrument = .perp
        config.allowShort = true
        config.margin = try #require(MarginMode(rawValue: expected.margin))
        let names = ["A", "B"]
        let symbols = names.map { name in
            var candles = CandleSeries(symbol: name, timeframe: .day1)
            for (k, b) in g.bars[name]!.enumerated() {
                candles.append(time: g.time0 + Int64(k) * g.day, open: b[0], high: b[1], low: b[2], close: b[3], volume: 1e9)
            }
            var own = config
            own.funding = g.funding[name]!.map { FundingRate(timeMs: Int64($0[0]!), rate: $0[1]!, markPrice: $0[2]) }
            return PortfolioSymbol(candles: candles, liquidity: own)
        }
        let orders = g.orders.map { o in
            PortfolioOrder(row: Int(o[0].number), symbol: names.firstIndex(of: o[1].text)!, target: o[2].number,
                           reason: o[2].number == 0 ? .exit : .entry)
        }
        let r = try Portfolio.execute(symbols, orders: orders, config: config)
        PortfolioInvariants.check(r, account: true)
        func near(_ a: Double, _ b: Double, _ scale: Double = g.config.cash) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(scale)) }
        let equity = r.equity.indices.first { !near(r.equity[$0], expected.equity[$0]) }
        #expect(equity == nil, "equity first differs at row \(equity ?? -1): \(equity.map { (r.equity[$0], expected.equity[$0]) } as Any)")
        let cash = r.cash.indices.first { !near(r.cash[$0], expected.cash[$0]) }
        #expect(cash == nil, "cash first differs at row \(cash ?? -1)")
        #expect(r.fills.count == expected.fills.count, "\(r.fills.count) fills, expected \(expected.fills.count)")
        for (a, b) in zip(r.fills, expected.fills) {
            let ok = a.fill.index == b.row && names[a.symbol] == b.symbol && a.fill.side.rawValue == b.side
                && near(a.fill.quantityFilled, b.quantity, b.quantity) && near(a.fill.vwap, b.price, b.price) && near(a.fill.fee, b.fee)
            #expect(ok, "fill \(a.fill) vs \(b)")
            if !ok { break }
        }
        #expect(r.trades.count == expected.trades.count)
        for (a, b) in zip(r.trades, expected.trades) {
            let ok = names[a.symbol] == b.symbol && a.trade.side.rawValue == b.side && a.trade.entryIndex == b.entry_row
                && a.trade.exitIndex == b.exit_row && a.trade.exitKind.rawValue == b.exit_kind && near(a.trade.pnl, b.pnl)
                && near(a.trade.funding, b.funding)
            #expect(ok, "trade \(a.trade) vs \(b)")
        }
        let account = try #require(r.account.account)
        #expect(near(account.fundingPaid, expected.funding_paid) && account.liquidations == expected.liquidations
                && account.stoppedAt == expected.stopped_at, "\(account)")
    }
}
