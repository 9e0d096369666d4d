import Testing
import TestSupport
@testable import Strategies
import Backtest

@Suite("Strategies")
struct StrategyTests {
    @Test("crosses need a > b at t and a <= b at t-1, both defined")
    func crossings() {
        let a: [Double] = [.nan, 1, 2, 3, 2, 2, 1, .nan, 5]
        let b: [Double] = [0, 2, 2, 2, 2, 3, 0, 0, 0]
        #expect(Cross.above(a, b) == [false, false, false, true, false, false, true, false, false])
        #expect(Cross.below(a, b) == [false, false, false, false, false, true, false, false, false])  // equal is not below
        #expect(Cross.both(a, b).above == Cross.above(a, b) && Cross.both(a, b).below == Cross.below(a, b))
        #expect(Cross.above([], []) == [] && Cross.both([], []).above == [])
        #expect(Cross.above([1], [0]) == [false])
        #expect(Cross.compare([1, .nan, 3], [2, 2, .nan], <) == [true, false, false])
    }

    @Test("both crossings eight bars at a time equal the scalar ones: NaN, infinities and ties, every length")
    func crossingsEightAtATime() {
        // Few distinct values, so ties are common; NaN and both infinities among them.
        let values: [Double] = [0, 1, 2, 1, .nan, .infinity, -.infinity, 1, 2, -0.0]
        var seed: UInt64 = 7
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return values[Int(seed >> 33) % values.count]
        }
        for n in 0...70 {
            let a = (0..<n).map { _ in next() }, b = (0..<n).map { _ in next() }
            let both = Cross.both(a, b)
            #expect(both.above == Cross.above(a, b) && both.below == Cross.below(a, b), "n \(n)")
        }
    }

    @Test("registry: names are unique and every parameter default parses back")
    func registry() throws {
        #expect(Set(Strategy.all.map(\.name)).count == Strategy.all.count)
        for s in Strategy.all {
            let defaults = try s.parameters([])
            let text = s.parameters.map { "\($0.name)=\($0.defaultValue)" }
            #expect(try s.parameters(text) == defaults)
        }
    }

    @Test("each strategy declares exactly the indicators its signals read (what reports draw)", arguments: [
        ("ma-cross", [String]()), ("ma-cross", ["fast=5", "slow=50", "type=ema"]), ("rsi", []), ("rsi", ["period=7"]),
        ("macd", []), ("macd", ["fast=8", "slow=21", "signal=5"]), ("bollinger", ["period=30", "k=2.5"]),
        ("donchian", []), ("donchian", ["period=9"]),
    ])
    func declaredIndicators(name: String, assignments: [String]) throws {
        let strategy = try Strategy.named(name)
        let parameters = try strategy.parameters(assignments)
        let goog = try ShippedData.goog()
        let cache = IndicatorCache()
        _ = try strategy.signals(goog, parameters, cache: cache)
        let declared = strategy.indicators(parameters)
        #expect(Set(declared).count == declared.count && declared.count == cache.count,
                "\(name) declares \(declared) but read \(cache.count) indicators")
        // Every declared spec is already in the cache: asking for it computes nothing new.
        for spec in declared { _ = try cache.outputs(spec, on: goog) }
        #expect(cache.count == declared.count, "\(name) declares an indicator it does not read")
    }

    @Test("parameters override defaults and keep declaration order")
    func parameters() throws {
        let p = try Strategy.maCross.parameters(["slow=50", "type=ema"])
        #expect(p.values.map(\.name) == ["fast", "slow", "type"])
        #expect(p.int("fast") == 10 && p.int("slow") == 50 && p.string("type") == "ema")
        #expect(try Strategy.rsi.parameters(["lower=25.5"]).double("lower") == 25.5)
    }

    @Test("bad names and values are input errors listing what is valid",
          arguments: [
            ("ma-cross", "fats=5", "unknown parameter 'fats' for ma-cross; did you mean 'fast'? (valid: fast, slow, type)"),
            ("ma-cross", "type=wma", "parameter 'type' must be one of sma|ema, got 'wma'"),
            ("ma-cross", "fast=0", "parameter 'fast' needs a whole number >= 1, got '0'"),
            ("ma-cross", "fast", "'fast' is not name=value (parameters of ma-cross: fast, slow, type)"),
            ("rsi", "upper=x", "parameter 'upper' needs a number > 0, got 'x'"),
          ])
    func badParameters(strategy: String, assignment: String, message: String) throws {
        let s = try Strategy.named(strategy)
        #expect(throws: InputError(message, setting: .parameter)) { try s.parameters([assignment]) }
    }

    @Test("a number set on a parameter gives what its text gives to --param: the same value or the same error",
          arguments: Strategy.all.map(\.name))
    func typedValues(strategy: String) throws {
        let s = try Strategy.named(strategy)
        let defaults = try s.parameters([])
        let numbers: [Double] = [-5, -0.0, 0, 0.1 + 0.2, 1, 2, 2.5, 30, 99.99, 1e-300, 999_999_999_999_999, 1e15, 1e16,
                                 -1e15, .infinity, -.infinity, .nan]
        for p in s.parameters {
            for v in numbers {
                let viaText = Result { try s.parameters(["\(p.name)=\(NumberText.shortest(v))"]) }
                let typed = Result { () throws -> StrategyParameters in
                    var q = defaults
                    try q.set(p.name, to: v)
                    return q
                }
                switch (viaText, typed) {
                case let (.success(a), .success(b)): #expect(a == b, "\(strategy) \(p.name)=\(v)")
                case let (.failure(a), .failure(b)):
                    #expect(a as? InputError == b as? InputError, "\(strategy) \(p.name)=\(v)")
                default: Issue.record("\(strategy) \(p.name)=\(v): text gives \(viaText), set gives \(typed)")
                }
            }
        }
        var q = defaults
        #expect(throws: InputError("unknown parameter 'xxxxxxxxxxxx' for \(strategy) (valid: \(s.parameters.map(\.name).joined(separator: ", ")))",
                                   setting: .parameter)) { try q.set("xxxxxxxxxxxx", to: 1) }
    }

    @Test("an unknown strategy names the valid ones")
    func unknownStrategy() {
        #expect(throws: InputError("unknown strategy 'ma-cros'; did you mean 'ma-cross'? (valid: ma-cross, rsi, macd, bollinger, donchian)")) {
            try Strategy.named("ma-cros")
        }
    }

    @Test("inconsistent parameter pairs are rejected")
    func inconsistent() throws {
        let s = EngineData.walk(200)
        #expect(throws: InputError.self) { try Strategy.maCross.signals(s, Strategy.maCross.parameters(["fast=30", "slow=10"])) }
        #expect(throws: InputError.self) { try Strategy.rsi.signals(s, Strategy.rsi.parameters(["lower=80"])) }
        #expect(throws: InputError.self) { try Strategy.maCross.signals(s, Strategy.maCross.parameters(["slow=500"])) }
    }

    @Test("signals at or before t do not change when bars after t change", arguments: Strategy.all.map(\.name))
    func noLookAhead(name: String) throws {
        let s = try Strategy.named(name)
        let base = EngineData.walk(400)
        let reference = try s.signals(base)
        #expect(reference.entries.contains(true) && reference.exits.contains(true), "\(name) should signal on a random walk")
        for t in [50, 123, 250, 398] {
            var changed = base
            for i in (t + 1)..<base.count {
                changed.close[i] *= 1.3; changed.high[i] *= 1.35; changed.low[i] *= 0.7; changed.open[i] *= 0.9
            }
            let other = try s.signals(changed)
            #expect(Array(other.entries[...t]) == Array(reference.entries[...t]))
            #expect(Array(other.exits[...t]) == Array(reference.exits[...t]))
        }
    }

    @Test("donchian: breakout above the prior high, exit below the prior half-period low")
    func donchianByHand() throws {
        // period 4: entry channel = max high of the 4 previous bars; exit = min low of 2 previous.
        let closes: [Double] = [10, 11, 12, 11, 13, 12, 10, 9, 12]
        let s = CandleSeries(symbol: "D", time: (0..<9).map { Int64($0) }, open: closes,
                             high: closes.map { $0 + 0.5 }, low: closes.map { $0 - 0.5 }, close: closes,
                             volume: Array(repeating: 1, count: 9))
        let sig = try Strategy.donchian.signals(s, Strategy.donchian.parameters(["period=4"]))
        // bar 4: 13 > max(10.5, 11.5, 12.5, 11.5) = 12.5.
        #expect(sig.entries == [false, false, false, false, true, false, false, false, false])
        // bar 6: 10 < min(12.5, 11.5) = 11.5; bar 7: 9 < min(11.5, 9.5) = 9.5.
        #expect(sig.exits == [false, false, false, false, false, false, true, true, false])
    }
}

/// A seeded random walk for strategy tests.
enum EngineData {
    static func walk(_ n: Int, seed: UInt = 3) -> CandleSeries {
        let rng = GSL.Random(seed: seed)
        var s = CandleSeries(symbol: "W", timeframe: .day1)
        var p = 100.0
        for i in 0..<n {
            let o = p, c = p * (1 + rng.gaussian(sigma: 0.02))
            s.append(time: Int64(i) * 86_400, open: o, high: max(o, c) * 1.005, low: min(o, c) * 0.995, close: c,
                     volume: 1_000)
            p = c
        }
        return s
    }
}
