// bt as a Swift library: the public API a package depending on the `Backtest` and `Strategies`
// products uses, from candles in a store to a report folder and a sweep.
// `scripts/check-public-api.sh` type-checks this file, and the Strategies target's sources,
// against the built modules without package access, so a declaration a library user needs
// cannot become `package` by accident. As the main file of a package that depends on bt by
// path, `swift run NAME DATA_DIR OUT_DIR` runs it.

import Backtest
import Foundation
import Strategies

func tour(data: String, out: String) throws {
    // Candles in: the importers read files as they come, the store keeps them.
    let store = try CandleStore(path: out + "/tour.db")
    let files = try Importer.read(paths: [data + "/GOOG.csv"], options: ImportOptions())
    for report in try store.write(files) { print(report.symbol, report.added) }
    let candles = try store.load(symbol: "GOOG")
    print(try store.list().map(\.symbol), candles.count, candles.timeframe?.rawValue ?? "?")

    // Indicators: TA-Lib's definitions and warm-up (NaN before the lookback).
    let rsi = try Indicators.rsi(candles.close, period: 14)
    let sma = try Indicators.sma(candles.close, period: 20)
    print(Indicators.Lookback.rsi(period: 14), rsi[14], sma.last ?? .nan)

    // A built-in strategy, and one written as rules.
    let maCross = try Strategy.named("ma-cross")
    let parameters = try maCross.parameters(["fast=10", "slow=30"])
    let rules = try Strategy.expressions([.entry: "cross_above(sma(close, 10), sma(close, 30))",
                                          .exit: "cross_below(sma(close, 10), sma(close, 30))"])
    let signals = try maCross.signals(candles, parameters)
    print(signals.entries.filter { $0 }.count, try rules.signals(candles).entries.count)

    // The engine: next-open fills through the synthetic book, fees, statistics.
    var config = ExecutionConfig()
    config.initialCash = 10_000
    config.feeBps = 5
    config.depth = .synthetic
    let result = try Engine.run(Engine.Request(candles, signals: signals, config: config))
    let stats = Stats(result)
    print(stats[.totalReturn], stats[.sharpe], stats[.maxDrawdown], result.trades.count)
    // The second half only, starting flat: the signals and indicators keep the first half as warm-up.
    let secondHalf = try Engine.run(Engine.Request(CandleWindow(candles, start: candles.count / 2), signals: signals, config: config))
    print(secondHalf.candles.count, secondHalf.trades.count)
    print(stats.drawdowns?.deepest?.depth ?? 0, Stat.sharpe.formatted(stats[.sharpe]))

    // A report folder: report.md, report.html, SVG charts, CSVs, stats.json.
    let report = Report(strategy: maCross.name, parameters: parameters.runParameters, execution: config.parameters,
                        commandLine: ["tour"], result: result, stats: stats,
                        costs: try CostSensitivity.run(candles, signals: signals, config: config,
                                                       periodsPerYear: stats.periodsPerYear))
    print(try report.write(to: out + "/report", force: true).count)

    // A sweep over a grid, streamed in combination order.
    let grid = try ParameterGrid(parsing: ["fast=5:20:5", "slow=30:60:10"])
    let evaluator = SweepEvaluator(config: config, periodsPerYear: stats.periodsPerYear) { candles, _, combo in
        let values = grid.combination(at: combo)
        return try maCross.signals(candles, try maCross.parameters(values.map { "\($0.key)=\($0.value)" }))
    }
    let summary = try Sweep(rankStat: .sharpe).run(combinations: grid.count, evaluator: evaluator, candles: candles) { _ in }
    print(summary.evaluated, summary.best.map(grid.combination(at:)) ?? [:])
}

let arguments = CommandLine.arguments
if arguments.count == 3 { try tour(data: arguments[1], out: arguments[2]) }
