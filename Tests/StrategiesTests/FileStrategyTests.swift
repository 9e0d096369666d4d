import Foundation
import Testing
@testable import Strategies
@testable import BacktestCore
@testable import BacktestAnalysis
import Backtest
import TestSupport

@Suite("Strategy files and expression strategies")
struct FileStrategyTests {
    static let library = StrategyLibrary(directory: Repository.path("strategies"))

    /// Parameter sets per built-in: the defaults and several others.
    static let parameterSets: [(String, [[String]])] = [
        ("ma-cross", [[], ["fast=5", "slow=20"], ["fast=20", "slow=50", "type=ema"], ["fast=3", "slow=200"], ["type=ema"]]),
        ("rsi", [[], ["period=7", "lower=25", "upper=75"], ["period=21", "lower=40.5", "upper=60"], ["period=2"]]),
        ("macd", [[], ["fast=5", "slow=35", "signal=5"], ["fast=8", "slow=17", "signal=9"], ["fast=3", "slow=10", "signal=3"]]),
        ("bollinger", [[], ["period=10", "k=1.5"], ["period=50", "k=2.5"], ["k=0.25"]]),
        ("donchian", [[], ["period=2"], ["period=21"], ["period=55"], ["period=3"]]),
    ]

    @Test("the five built-ins as files declare the Swift strategies' indicators, for the reports to draw",
          arguments: parameterSets.map(\.0))
    func builtInIndicators(name: String) throws {
        let builtIn = try Strategy.named(name)
        let file = try Strategy.load(file: Repository.path("strategies/\(name).bt"))
        for assignments in Self.parameterSets.first(where: { $0.0 == name })!.1 {
            #expect(file.indicators(try file.parameters(assignments)) == builtIn.indicators(try builtIn.parameters(assignments)),
                    "\(name) \(assignments)")
        }
    }

    @Test("rules given as expressions declare their indicator calls of the close or of the candles")
    func expressionIndicators() throws {
        let s = try Strategy.expressions([.entry: "cross_above(ema(close, $f), sma(close, 50)) and rsi(close, 14) < 70 and atr(14) > 0",
                                          .exit: "close < bb(close, 20, 2.5).lower[1] or sma(high, 10) > sma(atr(14), 30) or ema(close, $f) < 0"],
                                         parameters: ["f=12"])
        #expect(s.indicators(try s.parameters([])).map(\.description) == ["ema:12", "sma:50", "rsi:14", "atr:14", "bb:20,2.5"])
        #expect(s.indicators(try s.parameters(["f=30"])).first == IndicatorSpec(.ema, 30))
    }

    @Test("the five built-ins as files give the Swift strategies' signals bit for bit on GOOG and EURUSD",
          arguments: parameterSets.map(\.0))
    func builtInsAsFiles(name: String) throws {
        let builtIn = try Strategy.named(name)
        let file = try Strategy.load(file: Repository.path("strategies/\(name).bt"))
        #expect(file.name == builtIn.name)
        #expect(file.summary == builtIn.summary)
        #expect(file.parameters.map(\.name) == builtIn.parameters.map(\.name))
        #expect(file.parameters.map(\.defaultValue) == builtIn.parameters.map(\.defaultValue))
        #expect(file.parameters.map(\.typeDescription) == builtIn.parameters.map(\.typeDescription))
        let sets = Self.parameterSets.first { $0.0 == name }!.1
        for candles in [try ShippedData.goog(), try ShippedData.eurusd()] {
            for assignments in sets {
                let expected = try builtIn.signals(candles, try builtIn.parameters(assignments))
                let actual = try file.signals(candles, try file.parameters(assignments))
                #expect(actual == expected, "\(name) \(assignments) on \(candles.symbol)")
                #expect(expected.entries.contains(true) && expected.exits.contains(true), "\(name) \(assignments) fires")
            }
        }
    }

    @Test("requirements reject what the built-ins reject")
    func requirements() throws {
        let file = try Strategy.load(file: Repository.path("strategies/ma-cross.bt"))
        let candles = try ShippedData.goog()
        #expect(throws: InputError("requirement '$fast < $slow' does not hold (fast=30, slow=10, type=sma)", setting: .parameter)) {
            try file.signals(candles, try file.parameters(["fast=30", "slow=10"]))
        }
        let rsi = try Strategy.load(file: Repository.path("strategies/rsi.bt"))
        #expect(throws: InputError.self) { try rsi.signals(candles, try rsi.parameters(["upper=100"])) }
    }

    @Test("the strategies directory: names find files, built-ins come first, paths load files")
    func library() throws {
        let lib = Self.library
        #expect(lib.files.map { StrategyFile.stem(of: $0) } == ["bollinger", "donchian", "ma-cross", "macd", "rsi"])
        #expect(try lib.strategy(named: "ma-cross").file == nil)  // the built-in
        #expect(try lib.strategy(named: Repository.path("strategies/ma-cross.bt")).file != nil)
        #expect(try lib.strategy(named: "rsi.bt").file == Repository.path("strategies/rsi.bt"))
        #expect(throws: InputError.self) { try lib.strategy(named: "ma-crosss") }
        for (_, result) in lib.fileStrategies() { _ = try result.get() }
    }

    /// Holds the cache a sweep's combinations shared, to count its keys afterwards.
    final class CacheProbe: @unchecked Sendable {
        var cache: IndicatorCache?
    }

    @Test("a sweep over an expression strategy equals direct runs row for row (file and --entry forms)")
    func sweepEqualsDirectRuns() throws {
        let candles = try ShippedData.goog()
        let file = try Strategy.load(file: Repository.path("strategies/ma-cross.bt"))
        let inline = try Strategy.expressions(
            [.entry: "cross_above(ema(close, $fast), ema(close, $slow)) and rsi(close) < 70",
             .exit: "cross_below(ema(close, $fast), ema(close, $slow))"], swept: [("fast", 5), ("slow", 20)])
        for strategy in [file, inline] {
            var combos: [StrategyParameters] = []
            for fast in stride(from: 5, through: 25, by: 10) {
                for slow in [20, 30, 60] {
                    var p = try strategy.parameters([])
                    try p.set("fast", to: Double(fast))
                    try p.set("slow", to: Double(slow))
                    combos.append(p)
                }
            }
            var config = ExecutionConfig()
            config.depth = .synthetic
            let list = combos
            let evaluator = SweepEvaluator(config: config, periodsPerYear: 252) { candles, cache, combo in
                try strategy.signals(candles, list[combo], cache: cache)
            }
            var rows: [Sweep.Row] = []
            _ = try Sweep(rankStat: .sharpe).run(combinations: combos.count, evaluator: evaluator, candles: candles) { rows += $0 }
            #expect(rows.map(\.combo) == Array(0..<combos.count))
            for row in rows {
                let direct = Result { try Engine.run(Engine.Request(candles, signals: try strategy.signals(candles, combos[row.combo]), config: config)) }
                switch direct {
                case .failure(let error):
                    // fast >= slow: the file's requirement fails in both.
                    #expect(row.error == "\(error)", "combo \(row.combo)")
                case .success(let result):
                    let stats = Stats(result, periodsPerYear: 252)
                    let m = try #require(row.stats, "combo \(row.combo): \(row.error ?? "")")
                    for metric in SweepStats.columns {
                        let a = m[metric], b = stats[metric]
                        #expect(a == b || (a.isNaN && b.isNaN), "\(strategy.name) combo \(row.combo) \(metric): \(a) vs \(b)")
                    }
                }
            }
            #expect(rows.filter { $0.stats != nil }.count >= 8)
        }
    }

    @Test("in a sweep, indicators (of columns and of derived series) are computed once per distinct input")
    func sweepSharesIndicators() throws {
        let strategy = try Strategy.expressions(
            [.entry: "cross_above(ema(close, $fast), sma(ema(close, $fast), $slow))",
             .exit: "cross_below(ema(close, $fast), sma(ema(close, $fast), $slow)) or rsi(close) > 80"],
            swept: [("fast", 5), ("slow", 10)])
        let pairs = [5, 10].flatMap { f in [10, 20, 30].map { (f, $0) } }
        let probe = CacheProbe()
        let evaluator = SweepEvaluator(config: ExecutionConfig(), periodsPerYear: 252) { candles, cache, combo in
            probe.cache = cache
            var p = try strategy.parameters([])
            try p.set("fast", to: Double(pairs[combo].0))
            try p.set("slow", to: Double(pairs[combo].1))
            return try strategy.signals(candles, p, cache: cache)
        }
        var sweep = Sweep(rankStat: .sharpe)
        sweep.chunkSize = 2
        sweep.overfittingBlocks = 0
        let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: try ShippedData.goog()) { _ in }
        #expect(summary.failed == 0)
        // ema 5 and 10 of the close, rsi 14, and sma 10/20/30 of each ema: 2 + 1 + 6.
        #expect(probe.cache?.count == 9)
    }
}
