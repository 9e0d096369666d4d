import Testing
import TestSupport
@testable import BacktestCore

/// Position series have values only bar by bar inside a run: where their past is needed, or
/// where there is no run, they are refused with a caret under the series.
@Suite("Position series: where they are refused")
struct PositionSeriesRefusalTests {
    static let parameters = [ExpressionParameter("n", .number), ExpressionParameter("type", .word(["sma", "ema"]))]

    /// Each context that needs the series' past, and the column of the caret.
    static let needPast: [(String, Int, String)] = [
        ("sma(trade_return, 5) > 0", 4, "it cannot feed sma(...)"),
        ("rsi(close - entry_price) > 50", 12, "it cannot feed rsi(...)"),
        ("bb(entry_price, 20, 2).upper > close", 3, "it cannot feed bb(...)"),
        ("macd(highest_since_entry).signal > 0", 5, "it cannot feed macd(...)"),
        ("highest(position, 3) > 0", 8, "it cannot feed highest(...)"),
        ("lowest(lowest_since_entry, $n) < close", 7, "it cannot feed lowest(...)"),
        ("sum(bars_in_trade, 2) > 3", 4, "it cannot feed sum(...)"),
        ("change(trade_return) > 0", 7, "it cannot feed change(...)"),
        ("rising(entry_price, 2)", 7, "it cannot feed rising(...)"),
        ("falling(trade_return, 2)", 8, "it cannot feed falling(...)"),
        ("zscore(trade_return, 10) > 2", 7, "it cannot feed zscore(...)"),
        ("trade_return[1] > 0", 0, "it has no value n bars ago for [n]"),
        ("(position > 0)[1] and close > 1", 1, "it has no value n bars ago for [n]"),
        ("close > (entry_price * 2)[$n]", 9, "it has no value n bars ago for [n]"),
        ("cross_above(close, highest_since_entry * 0.95)", 19, "it cannot feed cross_above(...)"),
        ("cross_below(trade_return, 0)", 12, "it cannot feed cross_below(...)"),
        ("bars_since(position > 0) > 3", 11, "it cannot feed bars_since(...)"),
        ("sma(abs(min(close, entry_price)), 3) > 0", 19, "it cannot feed sma(...)"),
        ("$type(trade_return, 3) > 0", 6, "it cannot feed sma(...)"),
        ("close > 1 and ema(close * position, $n) > 0", 26, "it cannot feed ema(...)"),
    ]

    @Test("an indicator, a window, a shift, a crossing or bars_since of a position series is an error at the series",
          arguments: needPast)
    func needsPast(text: String, column: Int, reason: String) throws {
        let e = try SignalExpression(parsing: text)
        do {
            try ExpressionChecker(source: text, parameters: Self.parameters).require(e.root, .condition, for: "the exit rule")
            Issue.record("\(text) was accepted")
        } catch let error as ExpressionError {
            #expect(error.kind == .positionSeries)
            #expect(error.column == column, "\(text): caret at \(error.column)")
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(error.reason.contains("is a position series, known only bar by bar during a run"))
            #expect(error.reason.contains("compare or combine them directly"))
        }
    }

    @Test("a strategy file, --exit and a sweep's rules give the same message, at file:line or at the setting")
    func sameEverywhere() throws {
        let file = "[params]\nn = int 3\n[rules]\nentry = close > 1\nexit = close < 1 or\n  sma(trade_return, $n) > 0\n"
        #expect(throws: InputError.self) { try StrategyFile(parsing: file, path: "s.bt") }
        do {
            _ = try StrategyFile(parsing: file, path: "s.bt")
        } catch let e as InputError {
            #expect(e.file == "s.bt" && e.line == 6, "\(e)")
            #expect(e.reason.contains("'trade_return' is a position series") && e.reason.contains("it cannot feed sma(...)"))
            #expect(e.reason.hasSuffix("  sma(trade_return, $n) > 0\n      ^^^^^^^^^^^^"), "\(e.reason)")
        }
        do {
            _ = try Strategy.expressions([.entry: "close > 1", .exit: "trade_return[1] > 0"], swept: [("n", 3)])
            Issue.record("accepted")
        } catch let e as InputError {
            #expect(e.setting == .exit && e.reason.contains("it has no value n bars ago for [n]"))
            #expect(e.reason.hasSuffix("  trade_return[1] > 0\n  ^^^^^^^^^^^^"), "\(e.reason)")
        }
        // Allowed: every combination the note allows, in every role.
        let ok = try Strategy.expressions([
            .entry: "position == 0 and close > sma(close, $n)",
            .exit: "trade_return > 0.05 or bars_in_trade >= 10 or close < highest_since_entry * 0.95",
            .shortEntry: "not (position != 0) and close < sma(close, $n)",
            .shortExit: "abs(trade_return) > 0.05 or max(entry_price, close) / min(lowest_since_entry, close) > 1.1",
        ], swept: [("n", 3)])
        #expect(ok.expressions.count == 4)
    }

    @Test("values(on:), a whole-array plan and requireNoPositionSeries refuse position series, with a caret")
    func noRun() throws {
        let candles = Synth.series(symbol: "P", bars: 30, seed: 1)
        let e = try LocatedExpression("close > 1 and trade_return > 0", origin: .setting(.where))
        #expect(e.readsPositionSeries)
        #expect(try !LocatedExpression("close > sma(close, 5)", origin: .setting(.where)).readsPositionSeries)
        do {
            _ = try e.values(on: candles)
            Issue.record("values(on:) accepted a position series")
        } catch let error as InputError {
            #expect(error.setting == .where)
            #expect(error.reason.contains("'trade_return' is a position series, known only bar by bar during a run, and an expression evaluated over whole series is evaluated without one"), "\(error.reason)")
            #expect(error.reason.hasSuffix("  close > 1 and trade_return > 0\n                ^^^^^^^^^^^^"), "\(error.reason)")
        }
        do {
            try LocatedExpression("max(close,\n  highest_since_entry)", origin: .file(path: "f.bt", line: 3))
                .requireNoPositionSeries(for: "a limit price")
            Issue.record("accepted")
        } catch let error as InputError {
            #expect(error.file == "f.bt" && error.line == 4)
            #expect(error.reason.contains("a limit price is evaluated without one: position series may be read only by a strategy's rules (entry, exit, short_entry, short_exit)"))
        }
        try LocatedExpression("close * 0.99", origin: .setting(.entry)).requireNoPositionSeries(for: "a limit price")
        // A plan given a position series directly (the library's lowest level) throws, never traps.
        let node = try LocatedExpression("position > 0", origin: .setting(.entry)).bind([:])
        #expect(throws: InputError.self) {
            try ExpressionPlan([node]).evaluate(on: candles, cache: IndicatorCache(), workspace: ExpressionWorkspace()) { $0.count }
        }
        #expect(throws: InputError.self) {
            try ExpressionPlan([node]).truths(on: candles, cache: IndicatorCache(), workspace: ExpressionWorkspace())
        }
    }

    @Test("an unknown name suggests the position series too")
    func suggestions() throws {
        let text = "trade_retrun > 0"
        let e = try SignalExpression(parsing: text)
        #expect(throws: ExpressionError.self) { try ExpressionChecker(source: text, parameters: []).value(e.root) }
        do {
            _ = try ExpressionChecker(source: text, parameters: []).value(e.root)
        } catch let error as ExpressionError {
            #expect(error.kind == .unknownSeries && error.reason.contains("did you mean 'trade_return'?"), "\(error.reason)")
        }
    }
}
