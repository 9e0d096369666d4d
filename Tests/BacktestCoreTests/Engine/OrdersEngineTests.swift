import Testing
@testable import BacktestCore

/// Hand-made bars for rules of docs/design/orders.md that the goldens do not reach; each test's
/// comment gives the rule and the mistake it guards against.
@Suite("Orders: hand-made cases")
struct OrdersEngineTests {
    static func config() -> ExecutionConfig {
        var c = EngineTest.plain()
        c.feeBps = 0
        c.sizing = .units(10)
        return c
    }

    /// With shorts, an exit signal in a long both closes it (at the next open) and places the
    /// short entry order, which works from that bar: orders.md cancels a working order only on
    /// expiry, replacement or an exit signal while flat. (The order was marked as an add to the
    /// long, so the flat position at the next bar cancelled it.)
    @Test("a reversal's limit entry works from the bar after the signal")
    func reversalLimitEntryWorks() throws {
        let candles = EngineTest.candles([
            (100, 101, 99, 100, 1e6),       // 0: entry signal: buy limit at 99
            (100, 100.5, 98.5, 99.5, 1e6),  // 1: the low reaches 99: long at 99
            (99.5, 100, 99, 100, 1e6),      // 2: exit signal: sell the long at the next open, sell short at 101
            (100, 101.5, 99.8, 101, 1e6),   // 3: long closed at the open (100), the high reaches 101: short at 101
            (101, 101.2, 100.5, 100.8, 1e6),
        ])
        var config = Self.config()
        config.allowShort = true
        config.entries = EntryRules(limit: OrdersTest.expression("close * 0.99", .entryLimit),
                                    shortLimit: OrdersTest.expression("close * 1.01", .entryLimit), orderBars: 2)
        let signals = Signals(entries: [true, false, false, false, false], exits: [false, false, true, false, false])
        let r = try EngineTest.run(candles, signals, config)
        let fills = r.fills.map { "\($0.index) \($0.side) \($0.quantityFilled) @ \($0.referencePrice)" }
        #expect(fills == ["1 buy 10.0 @ 99.0", "3 sell 10.0 @ 100.0", "3 sell 10.0 @ 101.0"])
        #expect(r.position == [0, 10, 10, -10, -10])
        #expect(r.trades.map(\.exitKind) == [.signal, .end])
    }

    /// "An expression distance is re-read at each completed bar" of the position; a limit entry
    /// filled inside its bar starts the position's bars at the next one, so the fill bar's
    /// distance does not move the level (entry − D at the signal bar until then). The engine
    /// re-read D on the fill bar as well.
    @Test("a trailing distance is not re-read on the bar a limit entry filled inside")
    func trailNotReadOnAnInsideFillBar() throws {
        let candles = EngineTest.candles([
            (100, 101, 99, 100, 1e6),       // 0: signal: buy limit at 99; D = high - low = 2
            (100, 100.2, 98.9, 99.5, 1e6),  // 1: filled at 99 inside the bar; level 99 - 2 = 97 (D here 1.3: not read)
            (99.5, 99.8, 97.5, 99, 1e6),    // 2: low 97.5 stays above 97; at the close peak 99.8, D 2.3: level 97.5
            (99, 99.5, 98.8, 99.2, 1e6),    // 3: not reached
        ])
        var config = Self.config()
        config.entries = EntryRules(limit: OrdersTest.expression("close * 0.99", .entryLimit))
        config.exits = ExitRules(trail: .price(OrdersTest.expression("high - low", .trail)))
        let signals = Signals(entries: [true, false, false, false], exits: [false, false, false, false])
        let r = try EngineTest.run(candles, signals, config)
        #expect(r.fills.map(\.index) == [1])
        #expect(r.trades.map(\.exitKind) == [.end])
    }
}
