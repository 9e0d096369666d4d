import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// A market-neutral long/short book (`PortfolioRules.neutral`): both legs hold m/K of the
/// portfolio's value (m = the smaller leg's size), so the long notional equals the short notional
/// after every row the book is balanced at; a book with a leg empty holds nothing.
@Suite("Portfolio market-neutral book")
struct PortfolioNeutralTests {
    static var frictionless: ExecutionConfig {
        var c = PortfolioRuleTests.plain
        c.allowShort = true
        c.feeBps = 0
        return c
    }

    /// Each symbol's signed quantity after each row's fills (rows = bars: one calendar).
    static func positions(_ r: PortfolioResult) -> [[Double]] {
        var q = [Double](repeating: 0, count: r.symbols.count), out: [[Double]] = []
        var f = 0
        for row in r.time.indices {
            while f < r.fills.count && r.fills[f].bar == row {
                let fill = r.fills[f].fill
                q[r.fills[f].symbol] += fill.side == .buy ? fill.quantityFilled : -fill.quantityFilled
                f += 1
            }
            out.append(q)
        }
        return out
    }

    @Test("hand-computed: 1 long and 1 short at 1/2 each, a second short halves the shorts, the long's exit closes the book")
    func handComputed() throws {
        // S0 at 10, then 12 from bar 2; S1 at 20; S2 at 40. K = 2 per side, cash 10,000.
        let prices: (Int, Int) -> Double = { j, k in j == 0 ? (k < 2 ? 10 : 12) : j == 1 ? 20 : 40 }
        // Without short rules a symbol's exit signal opens a short: S0 long at bar 1, S1 short at
        // bar 1, S2 short at bar 3; S0's exit at bar 5 reverses nothing (its short waits for a partner).
        let s = PortfolioRuleTests.symbols(3, bars: 10, price: prices, entries: [0: [0]], exits: [0: [5], 1: [0], 2: [2]])
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, neutral: true), config: Self.frictionless)
        PortfolioInvariants.check(r, account: true)
        let q = Self.positions(r)
        // Row 1: legs (1, 1), m = 1: each at 1/2 of V = 10,000.
        #expect(q[1] == [500, -250, 0])
        // Row 3: legs (1, 2), m = 1: the long at 1/2, each short at 1/4 of V = 10,000 + 500 × (12 − 10) = 11,000.
        #expect(abs(q[3][0] - 5_500.0 / 12) < 1e-9 && q[3][1] == -137.5 && q[3][2] == -68.75, "\(q[3])")
        // Row 6: the long's exit empties its leg; the shorts close (exit kind rebalance), S0 stays flat.
        #expect(q[6] == [0, 0, 0], "\(q[6])")
        let shortExits = r.trades.filter { $0.trade.side == .short }.map { ($0.symbol, $0.exitBar, $0.trade.exitKind) }
        #expect(shortExits.count == 2 && shortExits.allSatisfy { $0.1 == 6 && $0.2 == .rebalance }, "\(shortExits)")
        #expect(r.skippedEntries == 1)  // S0's short entry at bar 5 found no long to balance it
        #expect(abs(r.finalEquity - 11_000) < 1e-9)
    }

    @Test("random signals on 8 symbols: long notional = short notional after every row the book trades (within the fee rate)",
          arguments: [ExecutionConfig.FillTiming.nextOpen, .close], [1.0, 3.0])
    func netZero(fill: ExecutionConfig.FillTiming, leverage: Double) throws {
        let m = 8, n = 600
        let s: [PortfolioSymbol] = (0..<m).map { j in
            var c = EngineTest.random(bars: n, seed: UInt(40 + j))
            c.symbol = "R\(j)"
            let signals = EngineTest.randomSignals(bars: n, seed: UInt(90 + j), p: 0.05)
            return PortfolioSymbol(candles: c, signals: signals, rank: (0..<n).map { Double(($0 * (j + 3)) % 11) })
        }
        for feeBps in [0.0, 10] {
            var config = Self.frictionless
            (config.fill, config.leverage, config.feeBps) = (fill, leverage, feeBps)
            // 100% a leg: a full book's 200% gross needs 2/3 of the equity as margin at 3x, so no order is cut.
            let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 3, rebalance: .bars(20), neutral: true), config: config)
            PortfolioInvariants.check(r, account: true)
            let q = Self.positions(r)
            let rows = Set(r.orders.map(\.row))
            #expect(rows.count > 40 && r.trades.contains { $0.trade.side == .short } && r.trades.contains { $0.trade.side == .long })
            for row in rows.sorted() {
                // At the price each order of the row filled at: the open (the close with close fills).
                var long = 0.0, short = 0.0
                for j in 0..<m where q[row][j] != 0 {
                    let p = fill == .close ? r.candles[j].close[row] : r.candles[j].open[row]
                    if q[row][j] > 0 { long += q[row][j] * p } else { short -= q[row][j] * p }
                }
                // Exact without fees; an order that opens or adds keeps its fee inside its budget.
                let tolerance = max(1e-9, feeBps / 10_000) * max(1, long + short)
                #expect(abs(long - short) <= tolerance, "fee \(feeBps) row \(row): long \(long), short \(short)")
                let longs = (0..<m).filter { q[row][$0] > 0 }.count, shorts = (0..<m).filter { q[row][$0] < 0 }.count
                #expect(longs <= 3 && shorts <= 3 && (longs == 0) == (shorts == 0), "row \(row)")
            }
        }
    }

    @Test("rotation: a stop between rebalance dates changes a leg, and the book is balanced at the next row",
          arguments: [PortfolioRules.Weighting.equal, .rank])
    func rotationAfterStop(weighting: PortfolioRules.Weighting) throws {
        // Ranks 4, 3, 1, 2: S0, S1 long, S2, S3 short from row 5 (rebalance every 5 rows); S0 gaps
        // from 10 to 9 at bar 7, through its 5% stop, which fills at the open.
        let s = PortfolioBookRulesTests.universe(bars: 12).enumerated().map { j, s -> PortfolioSymbol in
            guard j == 0 else { return s }
            return PortfolioRuleTests.symbols(1, bars: 12, price: { _, k in k < 7 ? 10 : 9 }, rank: { _, _ in 4 }).map {
                var p = $0
                p.candles.symbol = "S0"
                p.signals = s.signals
                return p
            }[0]
        }
        var config = PortfolioBookRulesTests.config
        config.stopLoss = 0.05
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, weighting: weighting, rebalance: .bars(5), rotate: true, neutral: true),
                                  config: config)
        PortfolioInvariants.check(r, account: true)
        let q = Self.positions(r)
        #expect(q[5].map { $0 > 0 ? 1 : $0 < 0 ? -1 : 0 } == [1, 1, -1, -1], "\(q[5])")
        #expect(r.trades.contains { $0.symbol == 0 && $0.exitBar == 7 && $0.trade.exitKind == .stopGap }, "\(r.trades.map { ($0.symbol, $0.exitBar, $0.trade.exitKind) })")
        // Row 8: one long (S1) against two shorts, m = 1: S1 holds 1/2 of the value, the shorts
        // 1/2 together (equal: 1/4 each; rank: S2, ranked lowest, 1/3, S3 1/6), at the row's opens.
        let v = r.equity[7]
        let shorts: [Double] = weighting == .equal ? [0.25, 0.25] : [1.0 / 3, 1.0 / 6]
        let expected = [0, 0.5 * v / 20, -shorts[0] * v / 40, -shorts[1] * v / 50]
        #expect(zip(q[8], expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(q[8]) vs \(expected)")
        #expect(abs(q[8][1] * 20 + q[8][2] * 40 + q[8][3] * 50) < 1e-6)
    }

    @Test("a neutral book needs shorts, two symbols or more and sizes by value; off, results are the book's")
    func refusals() throws {
        let s = PortfolioRuleTests.symbols(2, bars: 30, entries: [0: [2]], exits: [1: [3]])
        func setting(_ rules: PortfolioRules, _ config: ExecutionConfig, _ symbols: [PortfolioSymbol]? = nil) -> Setting? {
            do { _ = try Portfolio.run(symbols ?? s, rules: rules, config: config); return nil } catch let e as InputError { return e.setting } catch { return nil }
        }
        #expect(setting(PortfolioRules(neutral: true), PortfolioRuleTests.plain) == .short)
        #expect(setting(PortfolioRules(neutral: true), Self.frictionless, [s[0]]) == .neutral)
        var units = Self.frictionless
        units.sizing = .units(10)
        #expect(setting(PortfolioRules(neutral: true), units) == .size)
        #expect(setting(PortfolioRules(neutral: true), Self.frictionless) == nil)
        #expect(PortfolioRules(neutral: true).parameters(symbols: 2, rank: nil).last == RunParameter("neutral", .bool(true)))
        #expect(!PortfolioRules().parameters(symbols: 2, rank: nil).contains { $0.name == "neutral" })
    }
}
