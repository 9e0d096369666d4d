import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// The rules the function table of docs/guide/strategies.md states, on small hand-made series.
@Suite("Expression semantics")
struct ExpressionSemanticsTests {
    /// Bars with the given closes (open = previous close, high/low 1 around), volume 10..
    static func candles(_ close: [Double]) -> CandleSeries {
        var s = CandleSeries(symbol: "T", timeframe: .day1)
        for (i, c) in close.enumerated() {
            let o = i == 0 ? c : close[i - 1]
            s.append(time: Int64(i) * 86_400, open: o, high: max(o, c) + 1, low: min(o, c) - 1, close: c, volume: Double(10 + i))
        }
        return s
    }

    static func values(_ text: String, _ candles: CandleSeries, _ parameters: [String: ExpressionValue] = [:]) throws -> [Double] {
        try LocatedExpression(text, origin: .setting(.entry)).values(on: candles, parameters: parameters)
    }

    /// Equal as arrays with NaN equal to NaN.
    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }

    static let nan = Double.nan

    @Test("x[n] is x n bars ago, NaN for the first n bars; change(x, n) = x - x[n]")
    func offsets() throws {
        let c = Self.candles([1, 2, 4, 7, 11])
        #expect(Self.same(try Self.values("close[2]", c), [.nan, .nan, 1, 2, 4]))
        #expect(Self.same(try Self.values("close[0]", c), [1, 2, 4, 7, 11]))
        #expect(Self.same(try Self.values("change(close, 2)", c), [.nan, .nan, 3, 5, 7]))
        #expect(Self.same(try Self.values("change(close)", c), [.nan, 1, 2, 3, 4]))
        #expect(Self.same(try Self.values("close[$k]", c, ["k": .number(4)]), [.nan, .nan, .nan, .nan, 1]))
        #expect(Self.same(try Self.values("(close > 3)[1]", c), [.nan, 0, 0, 1, 1]))
    }

    @Test("cross_above/below: a > b now and a <= b on the previous bar; unknown when any of the four is undefined")
    func crosses() throws {
        let c = Self.candles([1, 3, 2, 2, 5, 1])
        #expect(Self.same(try Self.values("cross_above(close, 2)", c), [.nan, 1, 0, 0, 1, 0]))
        #expect(Self.same(try Self.values("cross_below(close, 2)", c), [.nan, 0, 0, 0, 0, 1]))  // equal is not below
        #expect(Self.same(try Self.values("cross_above(close, close[2])", c), [.nan, .nan, .nan, 0, 1, 0]))
    }

    @Test("highest, lowest and sum include the current bar; windows and indicators split at NaN gaps")
    func windows() throws {
        let c = Self.candles([1, 5, 3, 4, 2, 6])
        #expect(Self.same(try Self.values("highest(close, 3)", c), [.nan, .nan, 5, 5, 4, 6]))
        #expect(Self.same(try Self.values("lowest(close, 3)", c), [.nan, .nan, 1, 3, 2, 2]))
        #expect(Self.same(try Self.values("sum(close, 2)", c), [.nan, 6, 8, 7, 6, 8]))
        // 1 / (close - 3) is undefined at close = 3: the window restarts after the gap.
        let g = Self.candles([1, 2, 3, 4, 5, 6])
        #expect(Self.same(try Self.values("sum(1 / (close - 3), 2)", g), [.nan, -1.5, .nan, .nan, 1.5, 1.0 / 2 + 1.0 / 3]))
        #expect(Self.same(try Self.values("sma(1 / (close - 3), 2)", g), [.nan, -0.75, .nan, .nan, 0.75, (1.0 / 2 + 1.0 / 3) / 2]))
    }

    @Test("rising(x, n): x above each of its previous n values (Pine's ta.rising); falling mirrors it")
    func risingFalling() throws {
        let c = Self.candles([1, 2, 3, 2, 4, 5])
        #expect(Self.same(try Self.values("rising(close, 2)", c), [.nan, .nan, 1, 0, 1, 1]))
        #expect(Self.same(try Self.values("falling(close, 1)", c), [.nan, 0, 0, 1, 0, 0]))
        #expect(Self.same(try Self.values("rising(close, 1)", c), [.nan, 1, 1, 0, 1, 1]))
    }

    @Test("zscore uses the population sd (TA-Lib STDDEV); a flat window divides by zero and is NaN")
    func zscore() throws {
        let c = Self.candles([2, 4, 4, 4, 5, 5, 7, 9, 9, 9, 9])
        let z = try Self.values("zscore(close, 8)", c)
        // The window 2,4,4,4,5,5,7,9 has mean 5 and population sd 2.
        #expect(abs(z[7] - 2) < 1e-12)
        #expect(z[6].isNaN)
        let flat = Self.candles([3, 3, 3, 3])
        #expect(Self.same(try Self.values("zscore(close, 2)", flat), [.nan, .nan, .nan, .nan]))
    }

    @Test("bars_since: bars since the condition was last true, NaN before it first is")
    func barsSince() throws {
        let c = Self.candles([1, 3, 2, 5, 4, 4])
        #expect(Self.same(try Self.values("bars_since(close > 2)", c), [.nan, 0, 1, 0, 0, 0]))
        #expect(Self.same(try Self.values("bars_since(close > 4)", c), [.nan, .nan, .nan, 0, 1, 2]))
        // Unknown is not true: nothing before the first defined true.
        #expect(Self.same(try Self.values("bars_since(close[2] > 0)", c), [.nan, .nan, 0, 0, 0, 0]))
    }

    @Test("and/or/not are three-valued: unknown stays unknown unless the other side decides")
    func kleene() throws {
        let c = Self.candles([1, 2, 3, 4])
        // sma(close, 3) > 0 is unknown on bars 0 and 1.
        #expect(Self.same(try Self.values("not (sma(close, 3) > 0)", c), [.nan, .nan, 0, 0]))
        #expect(Self.same(try Self.values("close > 100 and sma(close, 3) > 0", c), [0, 0, 0, 0]))
        #expect(Self.same(try Self.values("close > 0 and sma(close, 3) > 0", c), [.nan, .nan, 1, 1]))
        #expect(Self.same(try Self.values("close > 0 or sma(close, 3) > 0", c), [1, 1, 1, 1]))
        #expect(Self.same(try Self.values("close > 100 or sma(close, 3) > 0", c), [.nan, .nan, 1, 1]))
        #expect(Self.same(try Self.values("close[1] == close[1]", c), [.nan, 1, 1, 1]))
        #expect(Self.same(try Self.values("close[1] != 2", c), [.nan, 1, 0, 1]))
    }

    @Test("division by zero and domain errors give NaN, never infinities; min and max propagate NaN")
    func domains() throws {
        let c = Self.candles([0, 1, 4, -4])
        #expect(Self.same(try Self.values("1 / close", c), [.nan, 1, 0.25, -0.25]))
        #expect(Self.same(try Self.values("0 / close", c), [.nan, 0, 0, 0]))
        #expect(Self.same(try Self.values("log(close)", c), [.nan, 0, Foundation.log(4.0), .nan]))
        #expect(Self.same(try Self.values("sqrt(close)", c), [0, 1, 2, .nan]))
        #expect(Self.same(try Self.values("exp(close) > 0", c), [1, 1, 1, 1]))
        #expect(Self.same(try Self.values("max(close, close[1], 2)", c), [.nan, 2, 4, 4]))
        #expect(Self.same(try Self.values("min(close, 2)", c), [0, 1, 2, -4]))
        #expect(Self.same(try Self.values("abs(close) + floor(close / 3) + ceil(close / 3)", c), [0, 2, 7, 1]))
    }

    @Test("price averages: hl2, hlc3, ohlc4 in their usual operation order")
    func averages() throws {
        let c = try ShippedData.goog()
        let hl2 = try Self.values("hl2", c), hlc3 = try Self.values("hlc3", c), ohlc4 = try Self.values("ohlc4", c)
        for i in c.close.indices {
            #expect(hl2[i] == (c.high[i] + c.low[i]) / 2)
            #expect(hlc3[i] == (c.high[i] + c.low[i] + c.close[i]) / 3)
            #expect(ohlc4[i] == (c.open[i] + c.high[i] + c.low[i] + c.close[i]) / 4)
        }
    }

    @Test("an indicator of a derived series starts after the input's warm-up plus its own lookback")
    func derivedWarmUp() throws {
        let c = try ShippedData.goog()
        let v = try Self.values("sma(atr(14), 50)", c)
        let atr = try Indicators.atr(high: c.high, low: c.low, close: c.close, period: 14)
        let expected = try Indicators.sma(Array(atr[14...]), period: 50)
        #expect(v.prefix(14 + 49).allSatisfy(\.isNaN) && !v[14 + 49].isNaN)
        #expect(Self.same(Array(v[14...]), expected))
        // warmUp says the same, for nested and shifted forms too.
        for (text, warmUp) in [("sma(atr(14), 50)", 63), ("ema(rsi(close, 14), 10)[3]", 14 + 9 + 3), ("close", 0),
                               ("cross_above(sma(close, 5), sma(close, 20))", 20), ("rising(close, 4)", 4),
                               ("zscore(close, 10)", 9), ("macd(close).signal", 33)] {
            let e = try LocatedExpression(text, origin: .setting(.entry))
            try e.check(parameters: [])
            let node = try e.bind([:])
            #expect(node.warmUp == warmUp, "\(text)")
            let values = try e.values(on: c)
            #expect(values.firstIndex { !$0.isNaN } == warmUp, "\(text)")
        }
    }

    @Test("constants fold, parameters bind, a word parameter names the function")
    func binding() throws {
        let c = try ShippedData.goog()
        #expect(Self.same(try Self.values("sma(close, 2 * 5)", c), try Indicators.sma(c.close, period: 10)))
        #expect(Self.same(try Self.values("$type(close, $n)", c, ["type": .word("ema"), "n": .number(12)]),
                          try Indicators.ema(c.close, period: 12)))
        #expect(Self.same(try Self.values("donchian(max(1, floor($p / 2))).lower", c, ["p": .number(21)]),
                          try Indicators.donchian(high: c.high, low: c.low, period: 10).lower))
        #expect(Self.same(try Self.values("macd(close).hist", c),
                          try Indicators.macd(c.close, fast: 12, slow: 26, signal: 9).histogram))
    }

    /// `text` checked and bound (no parameters), as a plan's root.
    static func bind(_ text: String) throws -> ExpressionNode {
        let e = try LocatedExpression(text, origin: .setting(.entry))
        try e.check(parameters: [])
        return try e.bind([:])
    }

    @Test("a plan computes shared subexpressions once and reuses buffers")
    func plan() throws {
        let bind = Self.bind
        let p = ExpressionPlan([try bind("cross_above(sma(close, 10), sma(close, 30))"),
                                try bind("cross_below(sma(close, 10), sma(close, 30))")])
        #expect(p.passCount == 4)  // two indicators, two crosses
        let long = ExpressionPlan([try bind(Array(repeating: "(close - 1)", count: 40).joined(separator: " * ") + " > 0")])
        #expect(long.slotCount <= 3)
        let c = try ShippedData.goog()
        let cache = IndicatorCache()
        _ = try p.evaluate(on: c, cache: cache, workspace: ExpressionWorkspace()) { $0.count }
        #expect(cache.count == 2)
    }

    @Test("a plan of thousands of roots merges what they share (one atr for 5,000 distances) and keeps each root's own values")
    func planOfManyRoots() throws {
        let bind = Self.bind
        let n = 5_000
        let roots = try (1...n).map { try bind("\($0) * atr(14)") }
        let p = ExpressionPlan(roots + roots)  // each root twice: merged
        #expect(p.roots.count == 2 * n && Array(p.roots[..<n]) == Array(p.roots[n...]))
        #expect(p.passCount == n + 1)  // the atr once, a multiply per distance
        #expect(p.slotCount == n)  // every root keeps its buffer to the end, nothing else needs one
        let c = try ShippedData.goog()
        let atr = try Indicators.atr(high: c.high, low: c.low, close: c.close, period: 14)
        let values = try p.outputs(on: c, cache: IndicatorCache(), workspace: ExpressionWorkspace(), truths: 0).values
        for k in [1, 2, 777, n] {
            #expect(Self.same(values[k - 1], atr.map { Double(k) * $0 }), "root \(k)")
            #expect(Self.same(values[n + k - 1], values[k - 1]))
        }
        // Constants are told apart by their bits: 0 and -0 are two steps, NaN is one.
        let close = ExpressionNode.column(.close)
        let zeros = ExpressionPlan([.binary(.multiply, close, .constant(0.0)), .binary(.multiply, close, .constant(-0.0)),
                                    .binary(.add, close, .constant(.nan)), .binary(.add, close, .constant(.nan))])
        #expect(zeros.roots[0] != zeros.roots[1] && zeros.roots[2] == zeros.roots[3])
        #expect(zeros.steps.count == 7)  // close, 0, -0, NaN and three binary passes (the fourth root is merged)
    }
}
