import Testing
import TestSupport
@testable import BacktestCore

/// No expression can read a later bar: random expressions from the whole vocabulary give the
/// same values at and before t whatever happens after t.
@Suite("Expressions: no look-ahead")
struct ExpressionLookAheadTests {
    /// Random well-typed expressions over every function, series and operator (seeded).
    struct Generator {
        var rng: SplitMix64

        mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        mutating func period() -> String { pick(["2", "3", "5", "8", "$n", "13"]) }

        mutating func number(_ depth: Int) -> String {
            if depth <= 0 { return pick(["close", "open", "high", "low", "volume", "hl2", "hlc3", "ohlc4", "2.5", "$n"]) }
            let d = depth - 1
            switch rng.next() % 28 {
            case 0: return "(\(number(d)) \(pick(["+", "-", "*", "/"])) \(number(d)))"
            case 1: return "-\(number(d))"
            case 2: return "\(pick(["sma", "ema", "wma", "rsi", "stddev", "roc"]))(\(number(d)), \(period()))"
            case 3: return "macd(\(number(d)), 3, 7, \(pick(["2", "4"])))\(pick(["", ".signal", ".hist", ".macd"]))"
            case 4: return "bb(\(number(d)), \(period()), 1.5).\(pick(["upper", "middle", "lower"]))"
            case 5: return "\(pick(["atr", "cci", "willr", "adx", "vwap"]))(\(period()))"
            case 6: return "obv()"
            case 7: return "stoch(\(period()), 2, 3).\(pick(["k", "d"]))"
            case 8: return "donchian(\(period())).\(pick(["upper", "middle", "lower"]))"
            case 9: return "\(pick(["highest", "lowest", "sum", "zscore"]))(\(number(d)), \(period()))"
            case 10: return "change(\(number(d)), \(pick(["1", "3", "$n"])))"
            case 11: return "bars_since(\(condition(d)))"
            case 12: return "\(pick(["abs", "log", "exp", "sqrt", "floor", "ceil"]))(\(number(d)))"
            case 13: return "\(pick(["min", "max"]))(\(number(d)), \(number(d)))"
            case 14: return "\(number(d))[\(pick(["1", "2", "$n"]))]"
            case 15: return "exp(\(number(d)) / 1000)"
            default: return number(0)
            }
        }

        mutating func condition(_ depth: Int) -> String {
            let d = max(0, depth - 1)
            switch rng.next() % 8 {
            case 0: return "\(number(d)) \(pick(["<", "<=", ">", ">=", "==", "!="])) \(number(d))"
            case 1: return "\(pick(["cross_above", "cross_below"]))(\(number(d)), \(number(d)))"
            case 2: return "\(pick(["rising", "falling"]))(\(number(d)), \(period()))"
            case 3 where depth > 0: return "(\(condition(d)) \(pick(["and", "or"])) \(condition(d)))"
            case 4 where depth > 0: return "not \(condition(d))"
            case 5: return "(\(condition(d)))[\(pick(["1", "3"]))]"
            default: return "\(number(d)) > \(number(d))"
            }
        }
    }

    static func values(_ text: String, _ candles: CandleSeries) throws -> [Double] {
        try LocatedExpression(text, origin: .setting(.entry)).values(on: candles, parameters: ["n": .number(4)])
    }

    /// `candles` with every bar after `t` replaced by a different valid bar.
    static func changed(after t: Int, _ candles: CandleSeries, _ rng: inout SplitMix64) -> CandleSeries {
        var c = candles
        for i in (t + 1)..<c.count {
            let f = 0.5 + rng.unit()
            let o = c.open[i] * f, cl = c.close[i] * (0.5 + rng.unit())
            c.open[i] = o
            c.close[i] = cl
            c.high[i] = max(o, cl) * (1 + rng.unit() * 0.05)
            c.low[i] = min(o, cl) * (1 - rng.unit() * 0.05)
            c.volume[i] = rng.next() % 5 == 0 ? 0 : c.volume[i] * (0.2 + 2 * rng.unit())
        }
        return c
    }

    @Test("changing (or dropping) the bars after t changes no value at or before t, for 300 random expressions")
    func noLookAhead() throws {
        let candles = Synth.series(symbol: "LA", bars: 400, seed: 11, timeframe: .day1)
        var generator = Generator(rng: SplitMix64(seed: 2024))
        var rng = SplitMix64(seed: 7)
        var checked = 0, conditions = 0
        for k in 0..<300 {
            let isCondition = k % 2 == 0
            let text = isCondition ? generator.condition(3) : generator.number(3)
            let base: [Double]
            do { base = try Self.values(text, candles) } catch let e as InputError {
                Issue.record("\(text): \(e)")
                continue
            }
            let t = 20 + Int(rng.next() % 370)
            let other = try Self.values(text, Self.changed(after: t, candles, &rng))
            let cut = try Self.values(text, candles.slice(0..<(t + 1)))
            for i in 0...t {
                // Later bars changed: the same bits. Later bars dropped: the same values up to
                // rounding, since the smoothers' blocked recurrences (EMA, RSI, ATR) step the last
                // few bars of a series one at a time instead of in a block.
                let same = base[i].bitPattern == other[i].bitPattern || (base[i].isNaN && other[i].isNaN)
                let close = base[i] == cut[i] || (base[i].isNaN && cut[i].isNaN) || abs(base[i] - cut[i]) <= 1e-9 * abs(base[i])
                #expect(same, "\(text): bar \(i) <= \(t) changed with later bars: \(base[i]) vs \(other[i])")
                #expect(close, "\(text): bar \(i) <= \(t) changed when later bars were dropped: \(base[i]) vs \(cut[i])")
                if !same || !close { break }
            }
            checked += 1
            if isCondition && base.contains(1) { conditions += 1 }
        }
        #expect(checked == 300)
        #expect(conditions > 40)  // the conditions are not all trivially false
    }
}
