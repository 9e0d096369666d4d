import Testing
import TestSupport
@testable import BacktestCore

/// Every kind of expression error, with the column its caret points at.
@Suite("Expression errors")
struct ExpressionErrorTests {
    static let parameters = [ExpressionParameter("fast", .number), ExpressionParameter("slow", .number),
                             ExpressionParameter("type", .word(["sma", "ema"]))]

    /// Parses, checks as a condition and binds (fast=10, slow=30, type=sma): the first error.
    static func error(_ text: String, parameters: [ExpressionParameter] = parameters) -> ExpressionError? {
        do {
            let e = try SignalExpression(parsing: text)
            let checker = ExpressionChecker(source: text, parameters: parameters)
            try checker.require(e.root, .condition, for: "the entry rule")
            let node = try ExpressionBinder(source: text, values: ["fast": .number(10), "slow": .number(30), "type": .word("sma")]).bind(e.root)
            if node.isLarger(than: ExpressionNode.maximumSize) { return ExpressionError(.tooLarge, "too large", at: 0..<1, in: text) }
            return nil
        } catch let e as ExpressionError {
            return e
        } catch {
            Issue.record("not an ExpressionError: \(error)")
            return nil
        }
    }

    @Test("the table below covers every kind of error (too deep has its own test)")
    func everyKind() {
        #expect(Set(Self.cases.map(\.1)).union([.tooDeep, .tooLarge]) == Set(ExpressionError.Kind.allCases))
    }

    static let cases: [(String, ExpressionError.Kind, Int, String)] = [
            // Syntax: characters, numbers, tokens, parentheses, chains.
            ("", .syntax, 0, "empty expression"),
            ("close >", .syntax, 7, "expected a value, found the end of the expression"),
            ("close > > 3", .syntax, 8, "expected a value, found '>'"),
            ("close @ 3", .syntax, 6, "'@' must be followed by a symbol or a timeframe"),
            ("(close@SPY + 1)@1d > 0", .otherSeries, 6, "'@' inside an expression read with '@1d'"),
            ("close && open", .syntax, 6, "'&' is not an operator; write 'and'"),
            ("close || open", .syntax, 6, "'|' is not an operator; write 'or'"),
            ("!(close > 1)", .syntax, 0, "'!' is not an operator; write 'not'"),
            ("close = 3", .syntax, 6, "'=' alone is not an operator; compare with '=='"),
            ("(close > 3", .syntax, 10, "expected ')' to close the '(' at column 1"),
            ("close > 3)", .syntax, 9, "')' without a matching '('"),
            ("close[1 3] > 1", .syntax, 8, "expected ']' to close the '[' at column 6, found number"),
            ("sma(close, 10 1) > 1", .syntax, 14, "expected ',' or ')' in the call opened at column 4"),
            ("1 < close < 2", .syntax, 10, "comparisons do not chain"),
            ("12abc > close", .syntax, 0, "'12abc' is not a number"),
            ("1e999 > close", .syntax, 0, "number '1e999' is out of range"),
            ("$ > 1", .syntax, 0, "'$' must be followed by a parameter name"),
            (".5 < close", .syntax, 0, "a number needs a digit before its point"),
            ("close > 1 and", .syntax, 13, "expected a value"),
            ("close > 1 open", .syntax, 10, "expected an operator or the end of the expression, found 'open'"),
            ("macd(close). > 1", .syntax, 13, "expected an output name after '.'"),
            // Names.
            ("smaa(close, 10) > 1", .unknownFunction, 0, "unknown function 'smaa'; did you mean 'sma'?"),
            ("close(1) > 1", .unknownFunction, 0, "'close' is a series: write it without parentheses"),
            ("clsoe > 1", .unknownSeries, 0, "unknown series 'clsoe'; did you mean 'close'?"),
            ("obv > 1", .unknownSeries, 0, "'obv' is a function: call it, as in obv()"),
            ("close > $fsat", .unknownParameter, 8, "undefined parameter '$fsat'; did you mean '$fast'? (defined: $fast, $slow, $type)"),
            ("bb(close) > 1", .unknownOutput, 0, "bb(...) has several outputs: add .upper, .middle or .lower"),
            ("macd(close).signl > 1", .unknownOutput, 12, "macd has no output '.signl'; did you mean '.signal'?"),
            ("close.upper > 1", .unknownOutput, 6, "'.upper': only macd, bb, stoch and donchian have outputs"),
            // Arguments.
            ("sma(close, 1, 2) > 1", .arguments, 0, "sma takes 1 to 2 arguments, sma(x, n = 20); got 3"),
            ("cross_above(close)", .arguments, 0, "cross_above takes 2 arguments, cross_above(a, b); got 1"),
            ("min(close) > 1", .arguments, 0, "min takes 2 or more arguments"),
            ("obv(close) > 1", .arguments, 0, "obv takes 0 arguments, obv(); got 1"),
            // Offsets.
            ("close[-1] > 1", .offset, 6, "an offset must be a whole number >= 0 (x[1] is the previous bar), got -1 (nothing can read a later bar)"),
            ("close[1.5] > 1", .offset, 6, "got 1.5"),
            ("close[$fast - 11] > 1", .offset, 6, "got -1"),
            // Types.
            ("close + 1", .type, 0, "the entry rule needs a condition, but this is a number"),
            ("close > 1 + (open > 2)", .type, 12, "'+' needs a number, but this is a condition"),
            ("not close", .type, 4, "'not' needs a condition"),
            ("close > 1 and open", .type, 14, "'and' needs a condition"),
            ("sma(close > 1, 10) > 1", .type, 4, "argument x of sma needs a number"),
            ("bars_since(close) > 1", .type, 11, "argument cond of bars_since needs a condition"),
            ("$type > 1", .type, 0, "$type is a word (sma|ema): it can only name a function"),
            ("$fast(close, 10) > 1", .type, 0, "$fast is a number, not a function name"),
            // Constants and values.
            ("sma(close, close) > 1", .notConstant, 11, "argument n of sma must be a fixed number"),
            ("close[open] > 1", .notConstant, 6, "an offset must be a fixed whole number"),
            ("sma(close, 0) > 1", .value, 11, "n of sma must be a whole number from 1 to 10000000, got 0"),
            ("sma(close, 2.5) > 1", .value, 11, "got 2.5"),
            ("sma(close, $fast / 4) > 1", .value, 11, "got 2.5"),
            ("bb(close, 20, -1).upper > 1", .value, 14, "k of bb must be a number >= 0, got -1"),
            ("macd(close, $slow, $fast) > 0", .value, 0, "fast period (30) must be shorter than slow period (10)"),
            // Position series where their past is needed (PositionSeriesRefusalTests has every context).
            ("sma(trade_return, $fast) > 0", .positionSeries, 4, "'trade_return' is a position series, known only bar by bar during a run: it cannot feed sma(...)"),
            ("close > entry_price[1]", .positionSeries, 8, "it has no value n bars ago for [n]"),
    ]

    @Test("each error kind points at the offending column and says why", arguments: cases)
    func errors(text: String, kind: ExpressionError.Kind, column: Int, reason: String) throws {
        let e = try #require(Self.error(text), "'\(text)' should fail")
        #expect(e.kind == kind, "\(text): \(e)")
        #expect(e.column == column, "\(text): \(e)")
        #expect(e.reason.contains(reason), "\(text): \(e.reason)")
        // The caret line has the caret at the column, under the expression's line.
        let lines = e.caret.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[0] == "  " + text && lines[1].firstIndex(of: "^").map { lines[1].distance(from: lines[1].startIndex, to: $0) } == column + 2,
                "\(e.caret)")
    }

    @Test("the message shows the expression and carets under the whole offending name")
    func caretShape() throws {
        let e = try #require(Self.error("cross_above(smaa(close, 10), sma(close, 30))"))
        #expect(e.description == """
            unknown function 'smaa'; did you mean 'sma'?
              cross_above(smaa(close, 10), sma(close, 30))
                          ^^^^
            """)
        // A multi-line expression (strategy files): the caret is on the offending line.
        let m = try #require(Self.error("close > 1 and\nsmaa(close, 2) > 1"))
        #expect(m.line == 1 && m.column == 0)
        #expect(m.caret == "  smaa(close, 2) > 1\n  ^^^^")
    }

    @Test("undefined parameters list what is defined, or say none is")
    func undefined() throws {
        let none = try #require(Self.error("close > $n", parameters: []))
        #expect(none.reason == "undefined parameter '$n' (no parameters are defined)")
    }

    @Test("nesting is bounded: deep input is an error, never a stack overflow")
    func deep() throws {
        let depth = SignalExpression.maximumDepth
        for text in [String(repeating: "(", count: 5000) + "close",
                     String(repeating: "-", count: 5000) + "close",
                     String(repeating: "not ", count: 5000) + "close > 1",
                     "close" + String(repeating: "[1]", count: 5000) + " > 1",
                     Array(repeating: "close", count: 5000).joined(separator: " + ") + " > 1",
                     String(repeating: "abs(", count: 5000) + "close" + String(repeating: ")", count: 5000) + " > 1"] {
            let e = try #require(Self.error(text))
            #expect(e.kind == .tooDeep, "\(e.reason)")
        }
        // Helpers that repeat their argument double the work per level: bounded too.
        let doubling = String(repeating: "change(", count: 30) + "close" + String(repeating: ", 1)", count: 30) + " > 0"
        let e = try LocatedExpression(doubling, origin: .setting(.entry))
        try e.check(parameters: [])
        #expect(throws: InputError.self) { try e.bind([:]) }
        do { _ = try e.bind([:]) } catch let error as InputError { #expect(error.reason.hasPrefix("expression too large")) }
        // A word parameter's choices are checked once per call, not once per nesting path.
        let words = String(repeating: "$type(", count: 40) + "close" + String(repeating: ", 3)", count: 40) + " > 0"
        #expect(Self.error(words) == nil)
        // At the limit it still parses.
        let ok = Array(repeating: "close", count: depth - 2).joined(separator: " + ") + " > 1"
        #expect(Self.error(ok) == nil)
    }

    @Test("random bytes never crash the parser, checker or binder (bounded fuzz)")
    func fuzzBytes() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 48)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = Self.error(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("mutated valid expressions never crash parsing, checking, binding or evaluating (bounded fuzz)")
    func fuzzMutations() throws {
        var generator = ExpressionLookAheadTests.Generator(rng: SplitMix64(seed: 10))
        var rng = SplitMix64(seed: 12)
        let inserts = Array("()[],.$<>=!+-*/ 0123456789abcz_\u{0}é")
        let candles = Synth.series(symbol: "FUZZ", bars: 60, seed: 3, timeframe: .day1)
        var evaluated = 0, failed = 0
        for k in 0..<3_000 {
            var chars = Array(k % 2 == 0 ? generator.condition(3) : generator.number(3))
            for _ in 0..<Int(rng.next() % 3) where !chars.isEmpty {  // a third stay valid
                let i = Int(rng.next() % UInt64(chars.count))
                switch rng.next() % 3 {
                case 0: chars.remove(at: i)
                case 1: chars.insert(inserts[Int(rng.next() % UInt64(inserts.count))], at: i)
                default: chars.insert(contentsOf: chars[i..<min(chars.count, i + 1 + Int(rng.next() % 6))], at: i)
                }
            }
            let text = String(chars)
            let parameters = [ExpressionParameter("n", .number)]
            guard Self.error(text, parameters: parameters) == nil else { failed += 1; continue }
            let e = try LocatedExpression(text, origin: .setting(.entry))
            let node = try e.bind(["n": .number(4)])
            do {
                _ = try ExpressionPlan([node]).evaluate(on: candles, cache: IndicatorCache(), workspace: ExpressionWorkspace()) { $0[0].count }
                evaluated += 1
            } catch is InputError {
                // A period longer than the 60 bars: an input error, not a crash.
            }
        }
        #expect(evaluated > 300 && failed > 300, "evaluated \(evaluated), failed \(failed)")
    }
}
