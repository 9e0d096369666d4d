import Backtest
import Foundation

/// The workloads `make perf-check` counts (`bt bench kernel`): small enough to run under
/// callgrind in seconds, each the hot path of one `bt bench` figure.
package struct PerfWorkload: Sendable {
    package let name: String
    /// Sets the workload up in a scratch directory (not counted) and returns the run that is counted.
    package let prepare: @Sendable (_ directory: String) throws -> () throws -> Void

    static let indicatorBars = 100_000
    static let engineBars = 200_000

    /// Every workload, in `--list` order; `maCross` is the built-in ma-cross strategy (from the
    /// layer above) and `reword` words a screen symbol's error as bt does.
    package static func all(maCross: Strategy, reword: @escaping @Sendable (Error) -> Error) -> [PerfWorkload] {
        IndicatorBenchmark.names.map { indicator in
            PerfWorkload(name: "indicator_\(indicator)") { _ in
                let data = IndicatorBenchmark.Workload(bars: indicatorBars)
                return { data.run(indicator) }
            }
        } + [
            PerfWorkload(name: "engine_none") { _ in try engine(.none, strategy: maCross) },
            PerfWorkload(name: "engine_synthetic") { _ in try engine(.synthetic, strategy: maCross) },
            PerfWorkload(name: "engine_orders") { _ in try engine(.none, strategy: maCross, config: BenchWorkloads.ordersConfig) },
            PerfWorkload(name: "engine_perp") { _ in try engine(.none, strategy: maCross, config: BenchWorkloads.perpConfig) },
            PerfWorkload(name: "expression_run") { _ in
                try engine(.none, strategy: BenchWorkloads.expressionMACross())
            },
            PerfWorkload(name: "expression_daily_filter") { _ in
                let candles = Synth.series(symbol: "BENCH", bars: engineBars, seed: 1, timeframe: .minute1)
                let config = BenchWorkloads.engineConfig(.none, candles: candles)
                return {
                    let strategy = try ExpressionBenchmark.dailyFilter(reading: candles)
                    let signals = try strategy.signals(candles, try strategy.parameters([]))
                    _ = try Engine.run(Engine.Request(candles, signals: signals, config: config))
                }
            },
            PerfWorkload(name: "sweep_200") { _ in try sweep(maCross) },
            PerfWorkload(name: "screen_40x2000") { try screen(maCross, symbols: 40, bars: 2000, directory: $0, reword: reword) },
            PerfWorkload(name: "store_load") { try storeLoad(bars: engineBars, directory: $0) },
            PerfWorkload(name: "run_report_20000") { try runReport(maCross, bars: 20_000, directory: $0) },
            PerfWorkload(name: "run_whole_\(wholeRunBars)") { try wholeRun(maCross, bars: wholeRunBars, directory: $0) },
            PerfWorkload(name: "replay_synthetic_\(replayEvents)") { _ in try replay(events: replayEvents) },
        ]
    }

    /// Events of the replay workload: `bt bench replay`'s synthetic day at a twentieth of its
    /// size, over a twentieth of the day, so a step still falls every 11.6 events as in the day.
    static let replayEvents = 500_000

    /// `bt bench replay`'s synthetic run (`ReplayBenchmark`) over `events` events and
    /// `events` x 8.64 ms: the book, the queue, the exchange's answers and a step every 100 ms.
    private static func replay(events: Int) throws -> () throws -> Void {
        let replay = try ReplayBenchmark.replay(lot: SyntheticMarket.lot)
        return {
            var market = SyntheticMarket(count: events, seed: 47, durationMs: Int64(events) * 864 / 100)
            let r = try replay.run(&market)
            guard r.events == events, !r.fills.isEmpty else { throw InternalError("bench kernel: replayed \(r.events) of \(events) events") }
        }
    }

    /// `bt run --out`'s files for a ma-cross run of `bars` synthetic 1m bars (synthetic depth):
    /// the page, charts, CSVs and JSON made and written; the run and its statistics are not counted.
    private static func runReport(_ strategy: Strategy, bars: Int, directory tmp: String) throws -> () throws -> Void {
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1)
        let parameters = try strategy.parameters([])
        let result = try Engine.run(Engine.Request(candles, signals: try strategy.signals(candles, parameters), config: ExecutionConfig()))
        var report = Report(strategy: strategy.name, parameters: parameters.runParameters, execution: ExecutionConfig().parameters,
                            commandLine: ["bt", "bench", "kernel", "run_report_20000"], result: result, stats: Stats(result), costs: nil)
        report.indicators = strategy.indicators(parameters)
        var k = 0
        return {
            let dir = (tmp as NSString).appendingPathComponent("report\(k)")
            k += 1
            let paths = try report.write(to: dir)
            guard paths.count == 9 else { throw InternalError("bench kernel: \(paths.count) report files") }
        }
    }

    /// Bars of the whole-run workload. `bt bench scale` times 1,000,000; under callgrind that
    /// would take minutes of `make perf-check` (100,000 bars: 1.8 billion instructions, more than
    /// every other workload together). 40,000 keeps every part (the cost table's re-runs, every
    /// file) and is above `Uncertainty.longSeries`, so the bootstrap takes a long run's path.
    static let wholeRunBars = 40_000

    /// The whole `bt run ma-cross --out` on `bars` synthetic 1m bars in a store, as the command
    /// does it (default execution, synthetic depth): load, signals, run, statistics with the
    /// bootstrap beside the cost table, the terminal summary and equity chart, every report file.
    private static func wholeRun(_ strategy: Strategy, bars: Int, directory tmp: String) throws -> () throws -> Void {
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let store = try CandleStore(path: db)
        try store.write([.generated(Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1), source: "bench")])
        try store.checkpoint()
        let parameters = try strategy.parameters([])
        let job = RunJob(strategy: strategy.name, parameters: parameters.runParameters, indicators: strategy.indicators(parameters),
                         config: ExecutionConfig(), commandLine: ["bt", "run", strategy.name, "BENCH", "--out", "DIR"])
        var k = 0
        return {
            let candles = try store.load(symbol: "BENCH")
            let signals = try strategy.signals(candles, parameters)
            let cache = IndicatorCache()
            let result = try Engine.run(Engine.Request(candles, signals: signals, config: job.config, cache: cache))
            let report = try job.report(result, periodsPerYear: nil, costs: {
                try CostSensitivity.run(CandleWindow(candles), signals: signals, config: job.config, periodsPerYear: $0, cache: cache)
            }, requested: { nil })
            let text = RunSummaryText.text(report, rules: []) + (try EquityChart.render(
                time: candles.time, equity: result.equity, initial: result.initialCash, drawdown: report.drawdowns.curve,
                size: ChartSize(width: 100, height: 24)))
            let dir = (tmp as NSString).appendingPathComponent("whole\(k)")
            k += 1
            let paths = try report.write(to: dir)
            guard paths.count == 9, !text.isEmpty else { throw InternalError("bench kernel: \(paths.count) report files") }
        }
    }

    /// Signals plus one engine run over `engineBars` synthetic 1m bars, as `bt bench engine`.
    /// With `config`, the execution it gives for the bars (`BenchWorkloads.ordersConfig`, `perpConfig`).
    private static func engine(_ depth: ExecutionConfig.Depth, strategy: Strategy,
                               config make: ((CandleSeries) throws -> ExecutionConfig)? = nil) throws -> () throws -> Void {
        let candles = Synth.series(symbol: "BENCH", bars: engineBars, seed: 1, timeframe: .minute1)
        let parameters = try strategy.parameters([])
        let config = try make?(candles) ?? BenchWorkloads.engineConfig(depth, candles: candles)
        return {
            let signals = try strategy.signals(candles, parameters)
            _ = try Engine.run(Engine.Request(candles, signals: signals, config: config))
        }
    }

    /// ma-cross over fast 5...24 x slow 30, 40, ..., 120 (200 combinations) on 5,000 daily bars,
    /// fees 10 bps, depth none, Sharpe ranked: `bt bench sweep`'s path at a smaller size.
    private static func sweep(_ maCross: Strategy) throws -> () throws -> Void {
        let candles = Synth.series(symbol: "BENCH", bars: 5000, seed: 1, timeframe: .day1)
        var pairs: [(Int, Int)] = []
        for fast in 5...24 { for slow in Swift.stride(from: 30, through: 120, by: 10) { pairs.append((fast, slow)) } }
        let evaluator = try BenchWorkloads.evaluator(maCross, pairs: pairs)
        let sweep = BenchWorkloads.sweep
        return {
            let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: candles) { _ in }
            guard summary.failed == 0 else { throw InternalError("bench kernel: \(summary.failed) combinations failed") }
        }
    }

    /// `bt bench screen` at `symbols` x `bars`: load from a store, synthetic depth, every
    /// statistic, the report folder written.
    private static func screen(_ maCross: Strategy, symbols count: Int, bars: Int, directory tmp: String,
                               reword: @escaping @Sendable (Error) -> Error) throws -> () throws -> Void {
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let (run, symbols) = try BenchWorkloads.screen(maCross, symbols: count, bars: bars, db: db,
                                                       commandLine: ["bt", "bench", "kernel", "screen_40x2000"], reword: reword)
        var k = 0
        return {
            let dir = (tmp as NSString).appendingPathComponent("out\(k)")
            k += 1
            let report = try BenchWorkloads.runScreen(run, symbols: symbols, db: db, directory: dir)
            guard !report.rows.contains(where: { $0.status == .error }) else { throw InternalError("bench kernel: a symbol failed") }
        }
    }

    /// One whole-series load of `bars` 1m bars from a store (checkpointed, as after an import).
    private static func storeLoad(bars: Int, directory tmp: String) throws -> () throws -> Void {
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let store = try CandleStore(path: db)
        try store.write([.generated(Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1), source: "bench")])
        try store.checkpoint()
        return {
            let loaded = try store.load(symbol: "BENCH")
            guard loaded.count == bars else { throw InternalError("bench kernel: loaded \(loaded.count) of \(bars) bars") }
        }
    }
}
