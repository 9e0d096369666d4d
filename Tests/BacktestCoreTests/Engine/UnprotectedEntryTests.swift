import Testing
@testable import BacktestCore
import TestSupport

/// An entry whose stop-loss, target or trailing stop is an expression not yet defined at its
/// signal bar (still in its warm-up) is not taken and is counted with the exit that was
/// undefined; `--allow-unprotected` takes it (without that exit). The same in one symbol's run
/// and in a portfolio (the one execution core).
@Suite("Entries whose exits are not yet defined")
struct UnprotectedEntryTests {
    static let bars = 400
    static let candles = OrdersTest.candles(bars: bars, seed: 42)
    static let signals = OrdersTest.signals(bars: bars, seed: 42)
    /// ATR(100): NaN on the first 100 bars.
    static let atr = try! Indicators.atr(high: candles.high, low: candles.low, close: candles.close, period: 100)

    static func config(_ setting: Setting, allow: Bool = false) throws -> ExecutionConfig {
        var config = ExecutionConfig()
        config.depth = .none
        config.allowUnprotected = allow
        try OrderSettings([.init(setting, "atr(100)", origin: .setting(setting))]).apply(to: &config)
        return config
    }

    @Test("an entry signal in the exit's warm-up places no order, counted by exit, as if the signal were not there",
          arguments: [Setting.stopLoss, .takeProfit, .trail])
    func notTaken(_ setting: Setting) throws {
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: Self.config(setting)))
        // Fills at the next open: the signal bar is the one before the entry.
        #expect(r.trades.allSatisfy { Self.atr[$0.entryIndex - 1] > 0 }, "an entry was taken in the warm-up")
        let warning = try #require(r.warnings.first { $0.kind == .unprotectedEntries }, "\(r.warnings)")
        let name = setting.name
        #expect(warning.message.contains(" placed no order: ") && warning.message.contains(
            "\(name) was not yet defined (\(name) atr(100) still in its warm-up?)"), "\(warning.message)")
        // The same as the run without the entry signals of the warm-up.
        var masked = Self.signals
        for i in masked.entries.indices where !(Self.atr[i] > 0) { masked.entries[i] = false }
        let same = try Engine.run(Engine.Request(Self.candles, signals: masked, config: Self.config(setting)))
        #expect(same.trades == r.trades && same.fills == r.fills)
        #expect(same.warnings.allSatisfy { $0.kind != .unprotectedEntries })
    }

    @Test("--allow-unprotected takes them, and nothing is counted", arguments: [Setting.stopLoss, .takeProfit, .trail])
    func allowed(_ setting: Setting) throws {
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: Self.config(setting, allow: true)))
        #expect(r.trades.contains { !(Self.atr[$0.entryIndex - 1] > 0) }, "no entry in the warm-up")
        #expect(r.warnings.allSatisfy { $0.kind != .unprotectedEntries })
        #expect(try Self.config(setting, allow: true).parameters.contains { $0.name == "allow_unprotected" && $0.value == .bool(true) })
        #expect(try !Self.config(setting).parameters.contains { $0.name == "allow_unprotected" })
    }

    @Test("a fraction is always defined: nothing is skipped")
    func fractions() throws {
        var config = ExecutionConfig()
        config.depth = .none
        try OrderSettings([.init(.stopLoss, "5%", origin: .setting(.stopLoss))]).apply(to: &config)
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        #expect(r.trades.contains { $0.entryIndex < 100 })
        #expect(r.warnings.allSatisfy { $0.kind != .unprotectedEntries })
    }

    @Test("a portfolio skips them too (they take no slot), and takes them when allowed")
    func portfolio() throws {
        var other = OrdersTest.candles(bars: Self.bars, seed: 7)
        other.symbol = "ORE"
        let symbols = [PortfolioSymbol(candles: Self.candles, signals: Self.signals),
                       PortfolioSymbol(candles: other, signals: OrdersTest.signals(bars: Self.bars, seed: 7))]
        let atrs = [Self.atr, try Indicators.atr(high: other.high, low: other.low, close: other.close, period: 100)]
        let r = try Portfolio.run(symbols, rules: PortfolioRules(maxPositions: 1), config: Self.config(.stopLoss))
        #expect(!r.trades.isEmpty && r.trades.allSatisfy { atrs[$0.symbol][$0.entryBar - 1] > 0 })
        let warning = try #require(r.warnings.first { $0.kind == .unprotectedEntries }, "\(r.warnings)")
        #expect(warning.message.contains("sl was not yet defined (sl atr(100) still in its warm-up?)"), "\(warning.message)")
        let allowed = try Portfolio.run(symbols, rules: PortfolioRules(maxPositions: 1), config: Self.config(.stopLoss, allow: true))
        #expect(allowed.trades.contains { !(atrs[$0.symbol][$0.entryBar - 1] > 0) })
        #expect(allowed.warnings.allSatisfy { $0.kind != .unprotectedEntries })
    }
}
