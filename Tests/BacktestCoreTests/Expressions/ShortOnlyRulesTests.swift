import Testing
@testable import BacktestCore
import TestSupport

/// Rules are a long pair, a short pair or both: a short-only strategy's long signals are never
/// true, and it runs as the same short rules beside long rules that never fire.
@Suite("Short-only rules")
struct ShortOnlyRulesTests {
    static let short: [SignalRules.Role: String] = [.shortEntry: "rsi(close, 5) > 70",
                                                    .shortExit: "rsi(close, 5) < 40 or bars_in_trade >= 5"]

    @Test("a short-only strategy equals the same rules with never-true long rules: signals, trades, fills and equity")
    func equalsDummyLongRules() throws {
        let candles = RandomStream.candles(count: 600, seed: 5)
        let alone = try Strategy.expressions(Self.short)
        var dummyRules = Self.short
        dummyRules[.entry] = "close < 0"
        dummyRules[.exit] = "close < 0"
        let dummy = try Strategy.expressions(dummyRules)
        let a = try alone.signals(candles, try alone.parameters([])), b = try dummy.signals(candles, try dummy.parameters([]))
        #expect(a.entries == b.entries && a.exits == b.exits && a.shortEntries == b.shortEntries && a.shortExits == b.shortExits)
        #expect(!a.entries.contains(true) && a.shortEntries?.contains(true) == true)
        var config = ExecutionConfig()
        config.allowShort = true
        let ra = try Engine.run(Engine.Request(candles, signals: a, config: config))
        let rb = try Engine.run(Engine.Request(candles, signals: b, config: config))
        #expect(!ra.trades.isEmpty && ra.trades.allSatisfy { $0.side == .short })
        #expect(ra.trades == rb.trades && ra.fills == rb.fills && ra.equity == rb.equity)
    }

    @Test("half a pair, or no pair, is refused with its message", arguments: [
        ([SignalRules.Role.shortEntry: "close > 1"], "short rules come in pairs"),
        ([.entry: "close > 1", .shortEntry: "close > 1", .shortExit: "close < 1"], "a strategy needs both an entry and an exit rule"),
        ([.exit: "close > 1"], "a strategy needs both an entry and an exit rule"),
        ([:], "a strategy needs both an entry and an exit rule"),
    ] as [([SignalRules.Role: String], String)])
    func halfPairs(_ rules: [SignalRules.Role: String], _ message: String) {
        do {
            _ = try Strategy.expressions(rules)
            Issue.record("made \(rules)")
        } catch let e as InputError {
            #expect(e.reason.contains(message), "\(e.reason)")
        } catch { Issue.record("\(error)") }
    }

    @Test("a file with only short_entry and short_exit is a short-only strategy")
    func file() throws {
        let f = try StrategyFile(parsing: "[rules]\nshort_entry = close > 1\nshort_exit = close < 1\n", path: "s.bt")
        #expect(f.rules.rules.map(\.role) == [.shortEntry, .shortExit])
    }
}
