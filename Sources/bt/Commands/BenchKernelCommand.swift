import Backtest
import BacktestBenchmarks
import CCallgrind
import Foundation
import Strategies

extension Command {
    static let benchKernel = Command(
        path: ["bench", "kernel"],
        summary: "Run one workload of 'make perf-check' once, counted by callgrind (instructions, not time)",
        discussion: """
            For 'make perf-check' (scripts/perf-check.sh), which runs each workload under
            'valgrind --tool=callgrind --instr-atstart=no' on the release build and compares the
            instruction count with Benchmarks/baseline.json. The workload is set up and run once
            uninstrumented (data generation, lazy initialisation, page faults), then run again
            between CALLGRIND_START_INSTRUMENTATION and CALLGRIND_STOP_INSTRUMENTATION, so only
            that second run is counted, on every thread. Outside valgrind it just runs them.
            --list prints the workload names, one per line. Needs valgrind's headers at build
            time (Debian 'valgrind'); a build without them refuses.
            """,
        positionals: [PositionalSpec(name: "WORKLOAD", help: "A name from --list", optional: true)],
        options: [.list.withHelp("Print the workload names and exit")]
    ) { args in
        if args.flag(.list) {
            for workload in PerfWorkload.all { Output.line(workload.name) }
            return
        }
        let name = try args.required(0)
        guard let workload = PerfWorkload.all.first(where: { $0.name == name }) else {
            let hint = Suggest.closest(to: name, among: PerfWorkload.all.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown workload '\(name)'\(hint); 'bt bench kernel --list' names them", command: "bench kernel")
        }
        guard bt_callgrind_compiled() == 1 else {
            throw InternalError("bt was built without valgrind's headers (valgrind/callgrind.h): install valgrind, touch Sources/CCallgrind/callgrind.c and rebuild")
        }
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("bt-bench-kernel-\(getpid())")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let measured = try workload.prepare(directory)
        try measured()
        bt_callgrind_start()
        try measured()
        bt_callgrind_stop()
    }
}

/// The workloads `make perf-check` counts: small enough to run under callgrind in seconds, each
/// the hot path of one `bt bench` figure.
struct PerfWorkload: Sendable {
    let name: String
    /// Sets the workload up in a scratch directory (not counted) and returns the run that is counted.
    let prepare: @Sendable (_ directory: String) throws -> () throws -> Void

    static let indicatorBars = 100_000
    static let engineBars = 200_000

    static let all: [PerfWorkload] =
        IndicatorBenchmark.names.map { indicator in
            PerfWorkload(name: "indicator_\(indicator)") { _ in
                let data = IndicatorBenchmark.Workload(bars: indicatorBars)
                return { data.run(indicator) }
            }
        } + [
            PerfWorkload(name: "engine_none") { _ in try engine(.none, strategy: .maCross) },
            PerfWorkload(name: "engine_synthetic") { _ in try engine(.synthetic, strategy: .maCross) },
            PerfWorkload(name: "expression_run") { _ in
                try engine(.none, strategy: BenchWorkloads.expressionMACross())
            },
            PerfWorkload(name: "sweep_200") { _ in try sweep() },
            PerfWorkload(name: "screen_40x2000") { try screen(symbols: 40, bars: 2000, directory: $0) },
            PerfWorkload(name: "store_load") { try storeLoad(bars: engineBars, directory: $0) },
        ]

    /// Signals plus one engine run over `engineBars` synthetic 1m bars, as `bt bench engine`.
    private static func engine(_ depth: ExecutionConfig.Depth, strategy: Strategy) throws -> () throws -> Void {
        let candles = Synth.series(symbol: "BENCH", bars: engineBars, seed: 1, timeframe: .minute1)
        let parameters = try strategy.parameters([])
        let config = BenchWorkloads.engineConfig(depth, candles: candles)
        return {
            let signals = try strategy.signals(candles, parameters)
            _ = try Engine.run(candles, signals: signals, config: config)
        }
    }

    /// ma-cross over fast 5...24 x slow 30, 40, ..., 120 (200 combinations) on 5,000 daily bars,
    /// fees 10 bps, depth none, Sharpe ranked: `bt bench sweep`'s path at a smaller size.
    private static func sweep() throws -> () throws -> Void {
        let candles = Synth.series(symbol: "BENCH", bars: 5000, seed: 1, timeframe: .day1)
        var pairs: [(Int, Int)] = []
        for fast in 5...24 { for slow in Swift.stride(from: 30, through: 120, by: 10) { pairs.append((fast, slow)) } }
        let evaluator = try BenchWorkloads.evaluator(.maCross, pairs: pairs)
        let sweep = BenchWorkloads.sweep
        return {
            let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: candles) { _ in }
            guard summary.failed == 0 else { throw InternalError("bench kernel: \(summary.failed) combinations failed") }
        }
    }

    /// `bt bench screen` at `symbols` x `bars`: load from a store, synthetic depth, every
    /// statistic, the report folder written.
    private static func screen(symbols count: Int, bars: Int, directory tmp: String) throws -> () throws -> Void {
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let (run, symbols) = try BenchWorkloads.screen(symbols: count, bars: bars, db: db,
                                                       commandLine: ["bt", "bench", "kernel", "screen_40x2000"])
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
