import Testing
import TestSupport
@testable import BacktestCore

/// Rules that read position series, compiled into `PositionRule`s, give at every bar what the
/// whole-array plan gives with that bar's state written into the rule as constants.
@Suite("Position rules")
struct PositionRuleTests {
    static let parameters: [String: ExpressionValue] = ["n": .number(4), "type": .word("ema")]
    static let declared = [ExpressionParameter("n", .number), ExpressionParameter("type", .word(["sma", "ema"]))]

    /// A sequence of states as a run might give: flat stretches, longs and shorts of random
    /// lengths, with the fields the design note defines, on `candles`.
    static func states(_ candles: CandleSeries, _ rng: inout SplitMix64) -> [PositionState] {
        var out: [PositionState] = []
        var t = 0
        func uniform(_ rng: inout SplitMix64) -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        while t < candles.count {
            let length = 1 + Int(rng.next() % 12)
            let side = [0.0, 1, -1][Int(rng.next() % 3)]
            if side == 0 {
                for _ in 0..<min(length, candles.count - t) { out.append(.flat); t += 1 }
                continue
            }
            let entry = candles.open[t] * (0.98 + 0.04 * uniform(&rng))
            var highest = entry, lowest = entry
            for k in 0..<min(length, candles.count - t) {
                highest = max(highest, candles.high[t])
                lowest = min(lowest, candles.low[t])
                let r = side > 0 ? candles.close[t] / entry - 1 : 1 - candles.close[t] / entry
                out.append(PositionState(position: side, entryPrice: entry, barsInTrade: Double(k), tradeReturn: r,
                                         highestSinceEntry: highest, lowestSinceEntry: lowest))
                t += 1
            }
        }
        return out
    }

    /// `node` with each position series replaced by its value in `state`.
    static func substituted(_ node: ExpressionNode, _ state: PositionState) -> ExpressionNode {
        switch node {
        case .position(let s): return .constant(s.value(in: state))
        case .column, .constant, .other: return node
        case .unary(let op, let x): return .unary(op, substituted(x, state))
        case .binary(let op, let a, let b): return .binary(op, substituted(a, state), substituted(b, state))
        case .shift(let x, let k): return .shift(substituted(x, state), k)
        case .window(let op, let x, let n): return .window(op, substituted(x, state), n)
        case .cross(let above, let a, let b): return .cross(above: above, substituted(a, state), substituted(b, state))
        case .barsSince(let x): return .barsSince(substituted(x, state))
        case .indicator(let spec, let input, let output): return .indicator(spec, input: input.map { substituted($0, state) }, output: output)
        }
    }

    /// The brute force: at each bar, the whole-array plan of the rule with that bar's state as
    /// constants, read at that bar.
    static func bruteForce(_ node: ExpressionNode, _ candles: CandleSeries, _ states: [PositionState],
                           cache: IndicatorCache) throws -> [Double] {
        let workspace = ExpressionWorkspace()
        var memo: [Int: [Double]] = [:]  // flat bars share one evaluation
        return try (0..<candles.count).map { t in
            if states[t] == .flat, let v = memo[0] { return v[t] }
            let v = try ExpressionPlan([substituted(node, states[t])]).evaluate(on: candles, cache: cache, workspace: workspace) { Array($0[0]) }
            if states[t] == .flat { memo[0] = v }
            return v[t]
        }
    }

    /// The position rule of `text` as the exit of a strategy, through `SignalRules.signals`.
    static func rule(_ text: String, _ candles: CandleSeries, cache: IndicatorCache) throws -> PositionRule {
        let rules = try SignalRules([.entry: LocatedExpression("close > sma(close, 5)", origin: .setting(.entry)),
                                     .exit: LocatedExpression(text, origin: .setting(.exit))], parameters: declared)
        let signals = try rules.signals(on: candles, values: parameters, cache: cache)
        #expect(signals.exits == [Bool](repeating: false, count: candles.count))
        return try #require(signals.positionRules?.exit, "\(text) gave no position rule")
    }

    /// Same value, or both NaN.
    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    static func expectEqual(_ text: String, seeds: [UInt64], bars: Int = 160) throws {
        for seed in seeds {
            let candles = Synth.series(symbol: "P", bars: bars, seed: seed)
            var rng = SplitMix64(seed: seed &* 31 &+ 7)
            let states = Self.states(candles, &rng)
            let cache = IndicatorCache()
            let rule = try Self.rule(text, candles, cache: cache)
            #expect(rule.count == candles.count)
            let node = try LocatedExpression(text, origin: .setting(.exit)).bind(parameters)
            let expected = try bruteForce(node, candles, states, cache: cache)
            var mismatches = 0
            for t in 0..<candles.count {
                let v = rule.value(at: t, states[t])
                if !same(v, expected[t]) {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("\(text), seed \(seed), bar \(t): \(v), expected \(expected[t]) (\(states[t]))") }
                }
                #expect(rule.isTrue(at: t, states[t]) == (expected[t] == 1))
            }
        }
    }

    static let table = [
        "trade_return > 0.05 or bars_in_trade >= 10",
        "close < highest_since_entry * 0.95",
        "close > lowest_since_entry * 1.05 and position < 0",
        "position == 0 and close > sma(close, 20)",
        "position != 0 and cross_below(close, sma(close, 10))",
        "close < entry_price - 2 * atr(14)",
        "not (trade_return > 0) and rsi(close, 14) > 50",
        "not (position == 0)",
        "abs(trade_return) > 0.03",
        "max(highest_since_entry, close) / min(lowest_since_entry, close) > 1.02",
        "min(trade_return, 0.1, close - open) < 0",
        "log(close / entry_price) * position < -0.01",
        "sqrt(bars_in_trade) >= 2 or exp(trade_return) < 0.99",
        "floor(bars_in_trade / 5) == 1 and ceil(trade_return * 100) <= 1",
        "-trade_return > 0.01",
        "trade_return / (close - close) > 0",
        "entry_price == entry_price",
        "(trade_return > 0.02 or trade_return < -0.02) and (trade_return > 0.02 or trade_return < -0.02)",
        "1 > 0 and trade_return > 0",
        "position > 0 and close > bb(close, 20, 2).upper or position < 0 and close < bb(close, 20, 2).lower",
        "low <= lowest_since_entry or high >= highest_since_entry",
        "position == 1 and close[1] > entry_price * 1.01 or bars_in_trade > $n",
        "$type(close, $n) < highest_since_entry - atr(5)",
        "trade_return > change(close, 3) / close and not falling(close, 2)",
        "bars_in_trade >= bars_since(cross_above(close, sma(close, 8)))",
        "(close > sma(close, 5)) and not (trade_return > 0) or position == -1",
    ]

    @Test("each rule of the table equals the whole-array plan with the bar's state as constants, bit for bit",
          arguments: table)
    func equalsBruteForce(text: String) throws {
        try Self.expectEqual(text, seeds: [1, 2, 3])
    }

    /// Random rules mixing position series with the whole vocabulary (as the look-ahead test's
    /// generator writes it) through everything that may lie between them and the rule.
    struct Generator {
        var inner: ExpressionLookAheadTests.Generator

        mutating func pick<T>(_ items: [T]) -> T { inner.pick(items) }

        mutating func number(_ depth: Int) -> String {
            if depth <= 0 {
                return inner.rng.next() % 3 == 0 ? inner.number(1) : pick(PositionSeries.allCases.map(\.rawValue) + ["0.02", "$n"])
            }
            let d = depth - 1
            switch inner.rng.next() % 7 {
            case 0: return "(\(number(d)) \(pick(["+", "-", "*", "/"])) \(number(d)))"
            case 1: return "-\(number(d))"
            case 2: return "\(pick(["abs", "log", "exp", "sqrt", "floor", "ceil"]))(\(number(d)))"
            case 3: return "\(pick(["min", "max"]))(\(number(d)), \(number(d)))"
            case 4: return inner.number(2)
            default: return number(0)
            }
        }

        mutating func condition(_ depth: Int) -> String {
            let d = max(0, depth - 1)
            switch inner.rng.next() % 6 {
            case 0 where depth > 0: return "(\(condition(d)) \(pick(["and", "or"])) \(condition(d)))"
            case 1 where depth > 0: return "not \(condition(d))"
            case 2: return inner.condition(1)
            default: return "\(number(d)) \(pick(["<", "<=", ">", ">=", "==", "!="])) \(number(d))"
            }
        }
    }

    @Test("random rules over position series equal the brute force (seeded)")
    func randomRules() throws {
        var generator = Generator(inner: ExpressionLookAheadTests.Generator(rng: SplitMix64(seed: 2024)))
        var checked = 0
        while checked < 120 {
            let text = generator.condition(3)
            guard try LocatedExpression(text, origin: .setting(.exit)).readsPositionSeries else { continue }
            try Self.expectEqual(text, seeds: [UInt64(checked % 5 + 11)], bars: 90)
            checked += 1
        }
    }

    @Test("the program keeps constants and the parts that do not read the position out of the per-bar work")
    func compiledShape() throws {
        func program(_ text: String) throws -> PositionProgram {
            try #require(PositionProgram(try LocatedExpression(text, origin: .setting(.exit)).bind(Self.parameters)))
        }
        let a = try program("trade_return > 0.05 or bars_in_trade >= 10")
        #expect(a.subtrees.isEmpty)
        #expect(a.rule(columns: [], count: 1).program.count == 3 && a.rule(columns: [], count: 1).constants == [0.05, 10])
        let b = try program("close < highest_since_entry * 0.95")
        #expect(b.subtrees == [.column(.close)])
        // A whole condition that does not read the position is one array; equal operations once.
        let c = try program("position > 0 and close > sma(close, 20) or (position > 0 and close > sma(close, 20))")
        #expect(c.subtrees.count == 1)
        #expect(c.rule(columns: [[0]], count: 1).program.count == 3)
        #expect(PositionProgram(try LocatedExpression("close > sma(close, 20)", origin: .setting(.exit)).bind([:])) == nil)
    }

    @Test("the state's fields fill the slots PositionSeries.slot names, in PositionState's order")
    func stateSlots() throws {
        let state = PositionState(position: -1, entryPrice: 2, barsInTrade: 3, tradeReturn: 4, highestSinceEntry: 5, lowestSinceEntry: 6)
        let candles = Synth.series(symbol: "P", bars: 3, seed: 1)
        for s in PositionSeries.allCases {
            let rules = try SignalRules([.entry: LocatedExpression("close > 0", origin: .setting(.entry)),
                                         .exit: LocatedExpression("\(s.rawValue) + 0 == \(s.value(in: state))", origin: .setting(.exit))],
                                        parameters: [])
            let rule = try #require(try rules.signals(on: candles, values: [:]).positionRules?.exit)
            #expect(rule.isTrue(at: 1, state), "\(s.rawValue)")
            // Flat: position is 0 (so the comparison is false), the other series NaN (unknown).
            let flat = rule.value(at: 1, .flat)
            #expect(s == .position ? flat == 0 : flat.isNaN, "\(s.rawValue) when flat: \(flat)")
        }
        #expect(PositionState.flat == .flat)
        #expect(PositionState.flat != state)
    }
}
