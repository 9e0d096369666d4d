import Testing
@testable import BacktestCore
import TestSupport

/// The expression language one bar at a time (`ExpressionPlan.Stream`) against the whole-array
/// plan, bit for bit at every checked prefix, for every function and operator, on random
/// streams with gaps (NaN candles, log of negatives, division by zero).
@Suite("Streaming expressions equal the batch, bit for bit")
struct ExpressionStreamTests {
    /// Every function at least once, with defaults and explicit arguments, on columns and on
    /// derived series (which may hold NaN), and every operator.
    static let expressions: [String] = [
        "sma(close, 5)", "ema(close - open, 3)", "wma(hl2, 4)", "rsi(close)", "rsi(log(close - 120), 3)",
        "stddev(close, 7)", "roc(close, 2)", "macd(close).signal", "macd(close, 3, 7, 2).hist", "macd(volume)",
        "bb(close, 10, 1.5).upper", "bb(close / (volume - 500), 5).lower",
        "atr(5)", "cci(6)", "willr(4)", "adx(3)", "obv()", "vwap(5)", "stoch(5, 2, 2).k", "stoch().d",
        "donchian(6).upper", "donchian(3).middle", "sma(atr(3), 4)", "ema(rsi(close, 3), 2)",
        "cross_above(sma(close, 3), sma(close, 8))", "cross_below(close, 110)", "cross_above(rsi(close, 5), 30)",
        "highest(high, 5)", "lowest(low, 3)", "sum(volume, 4)", "sum(log(close - 110), 3)", "highest(sqrt(close - 115), 2)",
        "change(close)", "change(close, 3)", "rising(close, 2)", "falling(sma(close, 3), 3)", "zscore(close, 6)",
        "bars_since(close > open)", "bars_since(cross_above(close, sma(close, 5)))",
        "abs(close - open)", "min(open, close, low)", "max(high, close * 1.01)", "log(volume)", "exp(close / 100)",
        "sqrt(close - 120)", "floor(close)", "ceil(close / 7)", "-close + open * 2 - high / low",
        "close > open and volume > 400 or not (high - low < 0.2)", "close >= sma(close, 4) or close <= 100",
        "close == open", "close != open", "close[1]", "close[3] < close", "sma(close, 3)[2]", "volume / (close - open)",
        "(close - open) / (close - open)", "not (close > sma(close, 20))",
    ]

    static func plan(_ text: String) throws -> ExpressionPlan {
        let e = try LocatedExpression(text, origin: .setting(.entry))
        try e.check(parameters: [])
        return ExpressionPlan([try e.bind([:])])
    }

    /// Every function of the language appears above.
    @Test func coversEveryFunction() {
        let all = Self.expressions.joined(separator: " ")
        for f in ExpressionFunction.allCases {
            #expect(all.contains(f.rawValue + "("), "\(f.rawValue) is not exercised")
        }
    }

    @Test("stream equals the batch at every prefix", arguments: expressions)
    func streamEqualsBatch(_ text: String) throws {
        let plan = try Self.plan(text)
        for (seed, count) in [(UInt64(11), 1_100), (12, 300)] {
            let candles = RandomStream.candles(count: count, seed: seed, gaps: true)
            var stream = try ExpressionPlan.Stream(plan)
            var streamed: [Double] = []
            for i in 0..<count {
                stream.next(candles[bar: i])
                streamed.append(stream.root(0))
            }
            for n in RandomStream.checkpoints(count: count, seed: seed) {
                guard let batch = try? plan.evaluate(on: RandomStream.prefix(candles, n), cache: IndicatorCache(),
                                                     workspace: ExpressionWorkspace(), { Array($0[0]) }) else {
                    #expect(streamed[n - 1].isNaN, "\(text): no batch value at \(n) bars, the stream has \(streamed[n - 1])")
                    continue
                }
                let ok = sameBits(batch[n - 1], streamed[n - 1])
                #expect(ok, "\(text) at bar \(n - 1) of \(n) (seed \(seed)): batch \(batch[n - 1]), stream \(streamed[n - 1])")
                if !ok { return }
            }
        }
    }

    /// Rules one bar at a time (`SignalStream` over an expression strategy) equal the strategy's
    /// whole-series signals, position rules (their precomputed columns, bit for bit) and short
    /// rules included.
    @Test func strategiesOfRules() throws {
        let strategies = [
            try Strategy.expressions([.entry: "cross_above(sma(close, $fast), sma(close, $slow))",
                                      .exit: "cross_below(sma(close, $fast), sma(close, $slow))"],
                                     parameters: ["fast=3", "slow=9"]),
            try Strategy.expressions([.entry: "rsi(close, 5) < 35 and close > lowest(low, 10)",
                                      .exit: "trade_return > 0.01 or bars_in_trade >= 6 or close < highest_since_entry * 0.99",
                                      .shortEntry: "rsi(close, 5) > 70", .shortExit: "bars_in_trade >= 4 or trade_return < -sma(abs(change(close)), 5) / close"]),
            // Short only: the long signals are all false, at every prefix too.
            try Strategy.expressions([.shortEntry: "rsi(close, 5) > 70", .shortExit: "bars_in_trade >= 4 or rsi(close, 5) < 40"]),
        ]
        let candles = RandomStream.candles(count: 700, seed: 21, gaps: true)
        for strategy in strategies {
            let parameters = try strategy.parameters([])
            let warm = 40
            var stream = try #require(try SignalStream(strategy, parameters, history: RandomStream.prefix(candles, warm)))
            for n in (warm + 1)...candles.count {
                stream.append(candles[bar: n - 1])
                guard n % 37 == 0 || n == candles.count || n < warm + 5 else { continue }
                let batch = try strategy.signals(RandomStream.prefix(candles, n), parameters)
                let streamed = stream.signals
                #expect(streamed.entries == batch.entries && streamed.exits == batch.exits, "\(strategy.summary) at \(n)")
                #expect(streamed.shortEntries == batch.shortEntries && streamed.shortExits == batch.shortExits)
                for role in SignalRules.Role.allCases {
                    let a = streamed.positionRules?[role], b = batch.positionRules?[role]
                    #expect((a == nil) == (b == nil), "\(role) position rule present in one only")
                    if let a, let b {
                        #expect(a.count == b.count && a.width == b.width && a.program == b.program && a.result == b.result)
                        #expect(a.values.count == b.values.count && zip(a.values, b.values).allSatisfy(sameBits), "\(role) columns at \(n)")
                    }
                }
            }
            // A provisional bar is not kept.
            let before = stream.signals
            _ = stream.signals(adding: Candle(time: candles.time.last! + 60, open: 1, high: 1, low: 1, close: 1, volume: 0))
            #expect(stream.count == candles.count && stream.signals.entries == before.entries)
        }
    }
}
