import Foundation
import Testing
@testable import BacktestCore
import TestSupport

/// The planner's rules on small hand-made universes, and the errors for settings that cannot run.
@Suite("Portfolio rules")
struct PortfolioRuleTests {
    /// `m` symbols on the same daily calendar from Monday 2024-01-01, prices from `price(j, k)`,
    /// entries and exits at the given bars.
    static func symbols(_ m: Int, bars n: Int, price: (Int, Int) -> Double = { j, k in 10 + Double(j) + 0.1 * Double(k % 7) },
                        entries: [Int: [Int]] = [:], exits: [Int: [Int]] = [:], rank: ((Int, Int) -> Double)? = nil) -> [PortfolioSymbol] {
        (0..<m).map { j in
            var s = CandleSeries(symbol: "S\(j)", timeframe: .day1)
            for k in 0..<n {
                let p = price(j, k)
                s.append(time: 1_704_067_200 + Int64(k) * 86_400, open: p, high: p * 1.01, low: p * 0.99, close: p, volume: 1e9)
            }
            var e = [Bool](repeating: false, count: n), x = e
            for k in entries[j] ?? [] { e[k] = true }
            for k in exits[j] ?? [] { x[k] = true }
            return PortfolioSymbol(candles: s, signals: Signals(entries: e, exits: x), rank: rank.map { f in (0..<n).map { f(j, $0) } })
        }
    }

    static var plain: ExecutionConfig {
        var c = ExecutionConfig()
        c.depth = .none
        c.maxParticipation = nil
        return c
    }

    @Test("settings that cannot run are input errors naming the setting")
    func errors() throws {
        let s = Self.symbols(2, bars: 30)
        func setting(_ body: () throws -> Void) -> Setting? {
            do { try body(); return nil } catch let e as InputError { return e.setting } catch { return nil }
        }
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 0), config: Self.plain) } == .maxPositions)
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(rebalance: .monthly, rotate: true), config: Self.plain) } == .portfolioRank)
        let ranked = Self.symbols(2, bars: 30, rank: { _, k in Double(k) })
        #expect(setting { _ = try Portfolio.run(ranked, rules: PortfolioRules(rotate: true), config: Self.plain) } == .rebalance)
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(weighting: .rank), config: Self.plain) } == .portfolioRank)
        var short = Self.plain
        short.allowShort = true
        // A long/short book weighs and rotates as a long-only one, each leg its own (PortfolioBookRulesTests).
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(weighting: .inverseVolatility), config: short) } == nil)
        #expect(setting { _ = try Portfolio.run(ranked, rules: PortfolioRules(rebalance: .monthly, rotate: true), config: short) } == nil)
        var pyramid = short
        pyramid.entries.pyramid = 2
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: pyramid) } == nil)  // PortfolioBookRulesTests
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(neutral: true), config: pyramid) } == .pyramid)
        var risk = short
        risk.sizing = .risk(0.01)
        risk.stopLoss = 0.02
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: risk) } == .size)
        var limit = short
        limit.entries = EntryRules(limit: PortfolioPropertyTests.limit, shortLimit: PortfolioPropertyTests.limitAbove, orderBars: 2)
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: limit) } == nil)  // PortfolioBookEntriesTests
        limit.entries.shortLimit = nil  // long entries' prices without the short ones'
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: limit) } == .shortEntryLimit)
        // One account: a symbol traded as a perpetual beside spot at leverage 1 (a cash account).
        var perp = Self.plain
        perp.instrument = .perp
        let mixed = [PortfolioSymbol(candles: s[0].candles, signals: s[0].signals, liquidity: perp), s[1]]
        #expect(setting { _ = try Portfolio.run(mixed, rules: PortfolioRules(), config: Self.plain) } == .instrument)
        // Every instrument a run knows: the linear ones trade in a portfolio; an inverse contract
        // (coin-margined) only beside contracts of its own coin, which names like S0 do not tell
        // (PortfolioInverseTests), so it is refused naming the instrument.
        for kind in Instrument.allCases {
            var c = Self.plain
            c.instrument = kind
            c.leverage = 2
            c.mmr = 0.01
            let refused = setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: c) }
            #expect(refused == (kind.isInverse ? .instrument : nil), "\(kind)")
        }
        #expect(setting { _ = try Portfolio.run([s[0], s[0]], rules: PortfolioRules(), config: Self.plain) } == .symbol)
        #expect(setting { _ = try PortfolioRules.Weighting.parse("equall") } == .weight)
        #expect(setting { _ = try PortfolioRules.Rebalance.parse("0") } == .rebalance)
        #expect(setting { _ = try PortfolioRules.Rebalance.parse("1d") } == .rebalance)
        #expect(try PortfolioRules.Rebalance.parse("1M") == .monthly && PortfolioRules.Rebalance.parse("1w") == .weekly)
        #expect(try PortfolioRules.Rebalance.parse("21") == .bars(21))
        var cash = Self.plain
        cash.initialCash = -1
        #expect(setting { _ = try Portfolio.run(s, rules: PortfolioRules(), config: cash) } == .cash)
    }

    @Test("rebalance rows: first row of each Monday week, of each month, every N rows")
    func rebalanceRows() {
        // 2024-01-01 is a Monday; 70 daily rows to 2024-03-10.
        let clock = PortfolioClock([(0..<70).map { 1_704_067_200 + Int64($0) * 86_400 }])
        let weekly = clock.rebalanceRows(.weekly).indices.filter { clock.rebalanceRows(.weekly)[$0] }
        #expect(weekly == Array(stride(from: 7, to: 70, by: 7)))
        let monthly = clock.rebalanceRows(.monthly)
        #expect(monthly.indices.filter { monthly[$0] } == [31, 60])
        let bars = clock.rebalanceRows(.bars(20))
        #expect(bars.indices.filter { bars[$0] } == [20, 40, 60])
        #expect(!clock.rebalanceRows(.never).contains(true))
    }

    @Test("slots: highest rank first, ties by symbol, skipped signals dropped (not carried)")
    func slots() throws {
        // Bar 3: S0, S1, S2 signal; K = 2, S2 ranks highest, then S0 and S1 tie (S0 wins).
        // Bar 6: S0 exits; S1's bar-3 signal is not carried: S1 enters only on its bar-9 signal.
        let s = Self.symbols(3, bars: 20, entries: [0: [3], 1: [3, 9], 2: [3]], exits: [0: [6]],
                             rank: { j, _ in j == 2 ? 5 : 1 })
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2), config: Self.plain)
        PortfolioInvariants.check(r)
        let entries = r.orders.filter { $0.reason == .entry }.map { "\($0.row) \(r.symbols[$0.symbol])" }
        #expect(entries == ["4 S0", "4 S2", "10 S1"])
        #expect(r.orders.filter { $0.reason == .exit }.map { "\($0.row) \(r.symbols[$0.symbol])" } == ["7 S0"])
        #expect(r.skippedEntries == 1 && r.contributions[1].skippedEntries == 1)
        #expect(r.positions[5] == 2 && r.positions[8] == 1 && r.positions[12] == 2)
    }

    @Test("weights: rank ladder and inverse volatility over the book; a full book sums to 1")
    func weights() throws {
        // Three entries on bar 25 (after the volatility's warm-up), K = 3; ranks 1 < 3 < 2.
        let ranks: [Double] = [1, 3, 2]
        let s = Self.symbols(3, bars: 40, price: { j, k in 10 * (1 + Double(j + 1) * 0.01 * sin(Double(k))) },
                             entries: [0: [25], 1: [25], 2: [25]], rank: { j, _ in ranks[j] })
        let rank = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 3, weighting: .rank), config: Self.plain)
        let w = Dictionary(uniqueKeysWithValues: rank.orders.map { (rank.symbols[$0.symbol], $0.target) })
        let expected: [String: Double] = ["S1": 3.0 / 6, "S2": 2.0 / 6, "S0": 1.0 / 6]
        #expect(w == expected)
        let inverse = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 3, weighting: .inverseVolatility), config: Self.plain)
        let sigma = s.map { PortfolioRules.volatility($0.candles.close)[25] }
        let iw = inverse.orders.map(\.target)
        let total: Double = iw.reduce(0, +)
        #expect(abs(total - 1) < 1e-12)
        let inverseSum = sigma.map { 1 / $0 }.reduce(0, +)
        for (j, x) in iw.enumerated() {
            let want = (1 / sigma[j]) / inverseSum
            #expect(abs(x - want) < 1e-12)
        }
        // Volatile symbols get less.
        #expect(iw[0] > iw[1] && iw[1] > iw[2])
        // Two of three slots filled: the book holds 2/3 of the value, split by inverse volatility.
        var two = s
        two[2].signals = Signals(entries: [Bool](repeating: false, count: 40), exits: [Bool](repeating: false, count: 40))
        let half = try Portfolio.run(two, rules: PortfolioRules(maxPositions: 3, weighting: .inverseVolatility), config: Self.plain)
        let book: Double = half.orders.map(\.target).reduce(0, +)
        #expect(abs(book - 2.0 / 3) < 1e-12)
    }

    @Test("rotation: the top K at each rebalance; a held symbol without a bar keeps its slot")
    func rotation() throws {
        // S0 ranks best until bar 40, then worst; monthly rebalances at rows 31 and 60.
        var s = Self.symbols(3, bars: 70, rank: { j, k in j == 0 ? (k < 40 ? 10 : -10) : Double(j) })
        let r = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, rebalance: .monthly, rotate: true), config: Self.plain)
        PortfolioInvariants.check(r)
        let at31 = r.orders.filter { $0.row == 31 }.map { "\(r.symbols[$0.symbol]) \($0.reason.rawValue)" }
        #expect(at31 == ["S0 entry", "S2 entry"])
        let at60 = r.orders.filter { $0.row == 60 }.map { "\(r.symbols[$0.symbol]) \($0.reason.rawValue)" }
        #expect(at60 == ["S0 exit", "S1 entry", "S2 rebalance"])
        // S0 has no bar on row 60: it cannot be sold there and keeps its slot, so only one is chosen.
        let c = s[0].candles
        let keep = c.time.indices.filter { $0 != 60 }
        s[0].candles = CandleSeries(symbol: "S0", timeframe: .day1, time: keep.map { c.time[$0] }, open: keep.map { c.open[$0] },
                                    high: keep.map { c.high[$0] }, low: keep.map { c.low[$0] }, close: keep.map { c.close[$0] },
                                    volume: keep.map { c.volume[$0] })
        s[0].rank = keep.map { s[0].rank![$0] }
        s[0].signals = nil
        let gap = try Portfolio.run(s, rules: PortfolioRules(maxPositions: 2, rebalance: .monthly, rotate: true), config: Self.plain)
        PortfolioInvariants.check(gap)
        let g60 = gap.orders.filter { $0.row == 60 }.map { "\(gap.symbols[$0.symbol]) \($0.reason.rawValue)" }
        #expect(g60 == ["S2 rebalance"])
        #expect(gap.fills.allSatisfy { gap.candles[$0.symbol].time[$0.bar] == gap.time[$0.fill.index] })
    }

    @Test("one symbol needs no rank; its benchmark is its own buy and hold")
    func oneSymbolNoRank() throws {
        let s = Self.symbols(1, bars: 30, entries: [0: [3]], exits: [0: [10]])
        let r = try Portfolio.run(s, rules: PortfolioRules(), config: Self.plain)
        #expect(r.trades.count == 1 && r.positions.max() == 1)
        #expect(r.benchmark.last! == 10_000 * (s[0].candles.close.last! / s[0].candles.close[0]))
    }

    @Test("the equal-weight benchmark buys each symbol at its first close, cash before")
    func benchmark() throws {
        var s = Self.symbols(2, bars: 10, price: { j, k in j == 0 ? 10 + Double(k) : 20 })
        // S1 is listed on bar 4 only.
        let c = s[1].candles
        let keep = Array(4..<10)
        s[1].candles = CandleSeries(symbol: "S1", timeframe: .day1, time: keep.map { c.time[$0] }, open: keep.map { _ in 20 },
                                    high: keep.map { _ in 21 }, low: keep.map { _ in 19 },
                                    close: keep.map { Double($0) * 5 }, volume: keep.map { _ in 1e9 })
        s[1].signals = Signals(entries: [Bool](repeating: false, count: 6), exits: [Bool](repeating: false, count: 6))
        let r = try Portfolio.run(s, rules: PortfolioRules(), config: Self.plain)
        // Row 9: S0 from 10 to 19 (x1.9), S1 from 20 to 45 (x2.25); 5,000 each.
        #expect(abs(r.benchmark[9] - (5_000 * 1.9 + 5_000 * 2.25)) < 1e-9)
        #expect(abs(r.benchmark[2] - (5_000 * 1.2 + 5_000)) < 1e-9)
        // The account's closes are the benchmark, so its buy and hold (`buy_hold_return`) is the equal-weight one.
        #expect(r.account.candles.close == r.benchmark && r.account.candles.time == r.time)
    }
}
