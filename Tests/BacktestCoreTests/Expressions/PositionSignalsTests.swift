import Testing
import TestSupport
@testable import BacktestCore

/// `SignalRules.signals` with rules that read the position: those roles get a `PositionRule`
/// and an all-false vector; the other roles' vectors are what they were without them.
@Suite("Signals with position rules")
struct PositionSignalsTests {
    static let entry = "cross_above(sma(close, 10), sma(close, 30))"
    static let exit = "cross_below(sma(close, 10), sma(close, 30))"
    static let positionExit = "trade_return > 0.05 or bars_in_trade >= 10 or close < highest_since_entry * 0.95"

    static func signals(_ rules: [SignalRules.Role: String], _ candles: CandleSeries) throws -> Signals {
        let located = try rules.mapValues { try LocatedExpression($0, origin: .setting(.entry)) }
        return try SignalRules(located, parameters: []).signals(on: candles, values: [:])
    }

    @Test("positionRules is nil without position series, and set for exactly the roles that read them")
    func roles() throws {
        let candles = Synth.series(symbol: "P", bars: 300, seed: 5)
        let none = try Self.signals([.entry: Self.entry, .exit: Self.exit], candles)
        #expect(none.positionRules == nil)
        let all: [SignalRules.Role: String] = [.entry: Self.entry, .exit: Self.exit,
                                               .shortEntry: "close < sma(close, 20)", .shortExit: "close > sma(close, 20)"]
        for role in SignalRules.Role.allCases {
            var rules = all
            rules[role] = "position == 0 and " + all[role]!
            let s = try Self.signals(rules, candles)
            let position = try #require(s.positionRules)
            for other in SignalRules.Role.allCases {
                #expect((position[other] != nil) == (other == role), "\(role): \(other)")
            }
            let vectors: [SignalRules.Role: [Bool]?] = [.entry: s.entries, .exit: s.exits, .shortEntry: s.shortEntries, .shortExit: s.shortExits]
            #expect(vectors[role]! == [Bool](repeating: false, count: candles.count), "\(role)'s vector is not all false")
        }
        let two = try Self.signals([.entry: "position == 0 and close > open", .exit: Self.positionExit], candles)
        #expect(two.positionRules?.entry != nil && two.positionRules?.exit != nil && two.positionRules?.shortEntry == nil)
        #expect(!two.entries.contains(true) && !two.exits.contains(true))
    }

    @Test("roles without position series are bit for bit what they are without the other role's position rule",
          arguments: [UInt64(1), 2, 3])
    func plainRolesUnchanged(seed: UInt64) throws {
        let candles = Synth.series(symbol: "P", bars: 500, seed: seed)
        let plain = try Self.signals([.entry: Self.entry, .exit: Self.exit,
                                      .shortEntry: "close > sma(close, 20)", .shortExit: "rsi(close, 14) > 60"], candles)
        // The exit reads the position; its parts (the maximal subtrees that do not) are the
        // entry rule, the short entry's and the short exit's roots, so the plan shares them
        // with those roles, and must still compute their values, not only their signals.
        let exit = "position > 0 and (\(Self.entry)) or position < 0 and close > sma(close, 20) "
            + "or trade_return > 0 and rsi(close, 14) > 60"
        let mixed = try Self.signals([.entry: Self.entry, .exit: exit,
                                      .shortEntry: "close > sma(close, 20)", .shortExit: "rsi(close, 14) > 60"], candles)
        #expect(mixed.entries == plain.entries)
        #expect(mixed.shortEntries == plain.shortEntries)
        #expect(mixed.shortExits == plain.shortExits)
        #expect(plain.entries.contains(true) && plain.shortExits!.contains(true))
        let rule = try #require(mixed.positionRules?.exit)
        var rng = SplitMix64(seed: seed)
        let states = PositionRuleTests.states(candles, &rng)
        let node = try LocatedExpression(exit, origin: .setting(.exit)).bind([:])
        let expected = try PositionRuleTests.bruteForce(node, candles, states, cache: IndicatorCache())
        for t in 0..<candles.count {
            #expect(PositionRuleTests.same(rule.value(at: t, states[t]), expected[t]), "bar \(t)")
        }
    }

    @Test("slicing keeps the position rules, bar k of the slice being bar start + k")
    func slice() throws {
        let candles = Synth.series(symbol: "P", bars: 120, seed: 9)
        let s = try Self.signals([.entry: Self.entry, .exit: "close < highest_since_entry * 0.97 and close < sma(close, 5)"], candles)
        let part = s.slice(40..<100)
        #expect(part.count == 60 && part.entries == Array(s.entries[40..<100]))
        let whole = try #require(s.positionRules?.exit), cut = try #require(part.positionRules?.exit)
        #expect(cut.count == 60)
        let state = PositionState(position: 1, entryPrice: 100, barsInTrade: 3, tradeReturn: 0.01,
                                  highestSinceEntry: candles.close[60] * 1.05, lowestSinceEntry: 90)
        for k in 0..<60 {
            #expect(cut.value(at: k, state).bitPattern == whole.value(at: 40 + k, state).bitPattern)
        }
        #expect(s == s && part != s)
    }

    @Test("a strategy file and Strategy.expressions pass position rules through to their signals")
    func strategies() throws {
        let text = """
            name = trail
            [params]
            n = int 20 >= 1
            stop = number 0.95 > 0 < 1
            [rules]
            entry = position == 0 and close > highest(high, $n)[1]
            exit = close < highest_since_entry * $stop
                or bars_in_trade >= 2 * $n
            """
        let file = try StrategyFile(parsing: text, path: "trail.bt")
        let strategy = Strategy(file: file)
        let candles = Synth.series(symbol: "P", bars: 200, seed: 4)
        let s = try strategy.signals(candles)
        let exit = try #require(s.positionRules?.exit)
        let entry = try #require(s.positionRules?.entry)
        let held = PositionState(position: 1, entryPrice: 50, barsInTrade: 40, tradeReturn: 0, highestSinceEntry: 1e9, lowestSinceEntry: 1)
        #expect(exit.isTrue(at: 150, held))  // bars_in_trade >= 40, and the close is below the peak
        #expect(!entry.isTrue(at: 150, held))
        #expect(strategy.indicators(try strategy.parameters([])).isEmpty)

        let expressions = try Strategy.expressions([.entry: "close > sma(close, $n)", .exit: "trade_return < -$loss or trade_return > 0.1"],
                                                   parameters: ["n=20", "loss=0.02"])
        let e = try expressions.signals(candles)
        #expect(e.positionRules?.entry == nil && e.entries.contains(true))
        let rule = try #require(e.positionRules?.exit)
        func state(_ r: Double) -> PositionState {
            PositionState(position: -1, entryPrice: 1, barsInTrade: 0, tradeReturn: r, highestSinceEntry: 1, lowestSinceEntry: 1)
        }
        #expect(rule.isTrue(at: 0, state(-0.03)) && rule.isTrue(at: 0, state(0.2)) && !rule.isTrue(at: 0, state(0)))
        #expect(!rule.isTrue(at: 0, .flat) && rule.value(at: 0, .flat).isNaN)
    }
}
