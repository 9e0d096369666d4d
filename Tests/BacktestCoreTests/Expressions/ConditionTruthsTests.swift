import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// A rule's signal is written as booleans, and the conditions `and`/`or` combine are too: the
/// booleans must be true exactly where the three-valued value (1, 0, unknown) is 1.
@Suite("Conditions combined as booleans")
struct ConditionTruthsTests {
    /// Bars from a seeded walk with undefined stretches (NaN closes) so unknowns meet every rule.
    static let candles: CandleSeries = {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        var state: UInt64 = 7
        var price = 100.0
        for i in 0..<400 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let step = Double(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000
            price = max(1, price + step)
            let close = (i % 97 < 3 || i % 31 == 5) ? Double.nan : price
            s.append(time: Int64(i) * 86_400, open: price - step / 2, high: price + 1, low: price - 1, close: close,
                     volume: Double(10 + i % 7))
        }
        return s
    }()

    static let rules = [
        "close > open and volume > 12",
        "close > open or volume > 12",
        "cross_above(sma(close, 3), sma(close, 8)) and close > sma(close, 20)",
        "(close > open and volume > 12) or not (close < sma(close, 5))",
        "(close > open or close < open) and (cross_below(close, sma(close, 4)) or volume == 10)",
        "close > open and close > open[1] and close > open[2] or volume < 11",
    ]

    @Test("each rule's booleans are true exactly where its value is 1", arguments: rules)
    func truthsMatchValues(_ rule: String) throws {
        let expression = try LocatedExpression(rule, origin: .setting(.entry))
        let values = try expression.values(on: Self.candles)
        let node = try expression.bind([:])
        let truths = try ExpressionPlan([node]).truths(on: Self.candles, cache: IndicatorCache(), workspace: ExpressionWorkspace())[0]
        #expect(truths == values.map { $0 == 1 })
        #expect(values.contains(1) && values.contains(0) && values.contains { $0.isNaN })  // every case met
    }

    @Test("a condition that another rule also reads keeps its own booleans")
    func sharedOperand() throws {
        let both = try LocatedExpression("close > open and volume > 12", origin: .setting(.entry)).bind([:])
        let one = try LocatedExpression("close > open", origin: .setting(.exit)).bind([:])
        let truths = try ExpressionPlan([both, one]).truths(on: Self.candles, cache: IndicatorCache(), workspace: ExpressionWorkspace())
        let c = Self.candles
        #expect(truths[1] == (0..<c.count).map { c.close[$0] > c.open[$0] })
        #expect(truths[0] == (0..<c.count).map { c.close[$0] > c.open[$0] && c.volume[$0] > 12 })
    }
}
