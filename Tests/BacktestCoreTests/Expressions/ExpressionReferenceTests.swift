@testable import BacktestCore
import Testing

/// `bt help expressions` is generated from the function table: every function is in it, with an
/// example that is a rule (a condition) using that function, and the warm-up the binder gives.
@Suite("Expression reference")
struct ExpressionReferenceTests {
    @Test("every function has an entry whose example is a condition that calls it")
    func examples() throws {
        let entries = try ExpressionReference.entries()
        #expect(entries.count == ExpressionFunction.allCases.count)
        for (f, e) in zip(ExpressionFunction.allCases, entries) {
            #expect(e.signature == f.signature)
            #expect(e.example.contains(f.rawValue + "("), "\(f.rawValue)'s example does not call it: \(e.example)")
            let located = try LocatedExpression(e.example, origin: .setting(.entry))
            #expect(try located.check(parameters: []) == .condition, "\(e.example) is not a condition")
        }
    }

    @Test("warm-ups are the binder's: TA-Lib lookbacks, plus one bar for a cross")
    func warmUps() throws {
        let byName = Dictionary(uniqueKeysWithValues: zip(ExpressionFunction.allCases.map(\.rawValue), try ExpressionReference.entries()))
        #expect(byName["sma"]?.warmUp == Indicators.Lookback.sma(period: 50))
        #expect(byName["rsi"]?.warmUp == Indicators.Lookback.rsi(period: 14))
        #expect(byName["macd"]?.warmUp == Indicators.Lookback.macd(fast: 12, slow: 26, signal: 9) + 1)
        #expect(byName["adx"]?.warmUp == Indicators.Lookback.adx(period: 14))
        #expect(byName["donchian"]?.warmUp == Indicators.Lookback.donchian(period: 20) + 1)
        #expect(byName["rising"]?.warmUp == 3)
    }

    @Test("the text lists the series, the operators and every signature with its example")
    func text() throws {
        let text = try ExpressionReference.text()
        for s in ExpressionSeries.allCases { #expect(text.contains(s.rawValue)) }
        for word in ["or, and, not", "x[n]", "$name"] { #expect(text.contains(word)) }
        for e in try ExpressionReference.entries() {
            #expect(text.contains("  \(e.signature) -> \(e.result)\n"))
            #expect(text.contains("e.g. \(e.example)   (warm-up \(e.warmUp))"))
        }
    }

    @Test("the text lists each position series with its summary, where they may be used, and an example rule that is one")
    func positionSeries() throws {
        let text = try ExpressionReference.text()
        #expect(text.contains("POSITION SERIES"))
        for s in PositionSeries.allCases {
            #expect(text.contains("  \(s.rawValue)  ") && text.contains(s.summary), "\(s.rawValue)")
        }
        #expect(text.contains("in entry/exit/short_entry/short_exit rules only, not in --where/--show or a rank"))
        let example = try #require(text.split(separator: "\n").first { $0.contains("e.g. exit: ") })
        let rule = try LocatedExpression(String(example.split(separator: ":", maxSplits: 1)[1]), origin: .setting(.exit))
        #expect(try rule.check(parameters: []) == .condition && rule.readsPositionSeries)
    }
}
