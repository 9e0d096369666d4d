import Testing
@testable import BacktestCore
import TestSupport

/// Through the library: every integer setting of a run at 0, 1, the series' length and
/// Int64.max either runs or is refused with an `InputError` naming it (a
/// count beyond the series is clamped: the same run as the series' length), never a trap; an
/// exit whose distance in price is never a positive number on the run's bars is refused, and
/// the readings where it is not are counted in the run's warnings.
@Suite("Integer settings at their edges and exit distances")
struct IntegerEdgeTests {
    static let bars = 300
    static let candles = OrdersTest.candles(bars: bars, seed: 42)
    static let signals = OrdersTest.signals(bars: bars, seed: 42)
    static let edges = [0, 1, bars, Int.max]
    /// A second, shorter symbol for portfolios.
    static let other: CandleSeries = {
        var s = OrdersTest.candles(bars: 250, seed: 7)
        s.symbol = "ORE"
        return s
    }()

    /// One integer setting given as text, as a command line or strategy file gives it.
    struct Case: CustomTestStringConvertible, Sendable {
        var setting: Setting
        var value: Int
        var testDescription: String { "\(setting.name) \(value)" }
    }

    static let orderCases = [Setting.exitAfter, .orderBars, .pyramid].flatMap { s in edges.map { Case(setting: s, value: $0) } }

    /// A configuration with the setting's `value` and what makes it matter (a limit entry for
    /// `order_bars`, a stop and a target beside a time exit).
    static func config(_ c: Case) throws -> ExecutionConfig {
        var config = ExecutionConfig()
        config.depth = .none
        let items = [OrderSettings.Item(c.setting, String(c.value), origin: .setting(c.setting)),
                     OrderSettings.Item(.entryLimit, "close * 0.995", origin: .setting(.entryLimit)),
                     OrderSettings.Item(.stopLoss, "2 * atr(14)", origin: .setting(.stopLoss))]
        try OrderSettings(items).apply(to: &config)
        return config
    }

    @Test("exit_after, order_bars and pyramid at 0, 1, the series' length and Int64.max: refused (0) or run, in a run, a fold and a portfolio",
          arguments: orderCases)
    func orderCounts(_ c: Case) throws {
        let config: ExecutionConfig
        do {
            config = try Self.config(c)
            try config.validate()
        } catch let e as InputError {
            #expect(c.value < 1 && e.setting == c.setting, "\(e)")
            return
        }
        #expect(c.value >= 1, "\(c.setting.name) \(c.value) was accepted")
        let run = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        #expect(run.fills.count > 0)
        // A walk-forward fold: the last 200 bars, expressions computed on all 300.
        _ = try Engine.run(Engine.Request(CandleWindow(Self.candles, start: 100), signals: Self.signals, config: config))
        let portfolio = try Portfolio.run([PortfolioSymbol(candles: Self.candles, signals: Self.signals),
                                           PortfolioSymbol(candles: Self.other, signals: OrdersTest.signals(bars: 250, seed: 7))],
                                          rules: PortfolioRules(maxPositions: 2), config: config)
        #expect(portfolio.fills.count > 0)
        if c.value == Int.max {
            // Beyond the series is the series' length: the same run.
            let clamped = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: Self.config(Case(setting: c.setting, value: Self.bars))))
            #expect(run.equity == clamped.equity && run.trades.count == clamped.trades.count)
            if c.setting == .exitAfter { #expect(!run.trades.contains { $0.exitKind == .time }) }
        }
    }

    @Test("a sweep's exit_after and order_bars beyond 1e9 bars are refused with the reason, never rounded into a trap")
    func sweptCounts() throws {
        for setting in [Setting.exitAfter, .orderBars] {
            for value in [0.0, 1.5, Double(Int.max), 1e300] {
                var c = ExecutionConfig()
                #expect(throws: InputError.self) { try c.set(setting, to: value) }
            }
            var c = ExecutionConfig()
            try c.set(setting, to: 1e9)
        }
    }

    @Test("windows of the synthetic book at 0, 1, the series' length and Int64.max: refused below 2, else run (clamped to the series)",
          arguments: [Setting.spreadWindow, .impactWindow].flatMap { s in edges.map { Case(setting: s, value: $0) } })
    func windows(_ c: Case) throws {
        var config = ExecutionConfig()
        if c.setting == .spreadWindow { config.synthetic.spreadWindow = c.value } else { config.synthetic.impactWindow = c.value }
        do {
            try config.validate()
        } catch let e as InputError {
            #expect(c.value < 2 && e.setting == c.setting, "\(e)")
            return
        }
        #expect(c.value >= 2)
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        #expect(r.fills.count > 0)
    }

    @Test("offsets and periods in a distance's expression at 0, 1, the series' length and Int64.max: refused with the reason, or run",
          arguments: edges)
    func expressionCounts(_ n: Int) throws {
        for text in ["close[\(n)] * 0.02", "atr(\(n))", "highest(high, \(n)) - lowest(low, \(n))"] {
            var config = ExecutionConfig()
            config.depth = .none
            do {
                try OrderSettings([.init(.stopLoss, text, origin: .setting(.stopLoss))]).apply(to: &config)
                _ = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
                #expect(n != Int.max, "\(text) ran")
            } catch let e as InputError {
                // Int64.max and periods of 0 are refused when read; at the series' length when
                // run, where no bar (or only the last) has a value. 1 always runs.
                #expect(n != 1, "\(text): \(e)")
            }
        }
    }

    // MARK: - Finding 5: distances never positive

    static let neverPositive = ["-atr(14)", "1/0", "close/0", "log(0)", "close[1000000]", "0 * close", "close - close - 1"]

    @Test("a distance that is never a positive number on the run's bars is refused, naming its setting",
          arguments: [Setting.stopLoss, .takeProfit, .trail])
    func neverPositiveRefused(_ setting: Setting) throws {
        for text in Self.neverPositive {
            var config = ExecutionConfig()
            config.depth = .none
            try OrderSettings([.init(setting, text, origin: .setting(setting))]).apply(to: &config)
            do {
                _ = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
                Issue.record("\(setting.name) \(text) ran")
            } catch let e as InputError {
                #expect(e.setting == setting && e.value == text && e.reason.contains("not on any of ORD's 300 bars"), "\(e)")
            }
            // The same in a portfolio and a fold.
            #expect(throws: InputError.self) {
                try Portfolio.run([PortfolioSymbol(candles: Self.candles, signals: Self.signals)], rules: PortfolioRules(maxPositions: 1), config: config)
            }
            #expect(throws: InputError.self) {
                try Engine.run(Engine.Request(CandleWindow(Self.candles, start: 200), signals: Self.signals, config: config))
            }
        }
    }

    @Test("a file's distance never positive is refused at its file and line")
    func neverPositiveInFile() throws {
        var config = ExecutionConfig()
        config.depth = .none
        try OrderSettings([.init(.trail, "-atr(14)", origin: .file(path: "s.bt", line: 7))]).apply(to: &config)
        do {
            _ = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
            Issue.record("ran")
        } catch let e as InputError {
            #expect(e.file == "s.bt" && e.line == 7 && e.reason.hasPrefix("trail '-atr(14)': a distance in price must be a positive number"), "\(e)")
        }
    }

    @Test("a distance that is not positive on some bars runs, and the readings without a level are counted in a warning")
    func sometimesPositiveCounted() throws {
        var config = ExecutionConfig()
        config.depth = .none
        config.allowUnprotected = true  // else an entry without its stop is not taken (UnprotectedEntryTests)
        // Positive only once the ATR has warmed up (the first 14 bars are NaN) and where it is above 1.
        try OrderSettings([.init(.stopLoss, "atr(14) - 1", origin: .setting(.stopLoss)),
                           .init(.trail, "3 * atr(14)", origin: .setting(.trail))]).apply(to: &config)
        let r = try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: config))
        let warning = r.warnings.first { $0.kind == .unsetExitLevels }
        #expect(warning?.message.contains("sl ") == true, "\(r.warnings)")
        // The count is the entries whose stop-loss distance was not positive at their signal bar.
        let atr = try Indicators.atr(high: Self.candles.high, low: Self.candles.low, close: Self.candles.close, period: 14)
        // Fills at the next open: the signal bar is the one before the entry.
        let unset = r.trades.filter { t in let d = atr[t.entryIndex - 1] - 1; return !(d > 0) }.count
        if unset > 0 { #expect(warning?.message.contains("sl \(unset) time") == true, "\(warning?.message ?? "none"), want \(unset)") }
        // Fractions, and expressions positive on every bar they are read, count nothing.
        var plain = ExecutionConfig()
        plain.depth = .none
        try OrderSettings([.init(.stopLoss, "5%", origin: .setting(.stopLoss))]).apply(to: &plain)
        #expect(try Engine.run(Engine.Request(Self.candles, signals: Self.signals, config: plain)).warnings.allSatisfy { $0.kind != .unsetExitLevels })
    }
}
