import Backtest
import Foundation
import Strategies

extension Command {
    static let benchExpr = Command(
        path: ["bench", "expr"],
        summary: "Time ma-cross 10/30 written as an expression against the built-in: one run and a sweep",
        discussion: """
            The expression strategy is entry cross_above(sma(close, $fast), sma(close, $slow)),
            exit cross_below(...). Single run: signals plus portfolio (depth none) on --bars
            synthetic 1m bars (default 1,000,000), best of --repeat (default 7). Sweep: the
            2,850-combination workload of 'bt bench sweep' on --candles daily bars (default
            10,000), best of 3 (or of --repeat when smaller). Both
            strategies run on the same data in alternation; generating data is not timed. Build
            with -c release. --json prints {"bars", "builtin_seconds", "expr_seconds",
            "sweep_builtin_seconds", "sweep_expr_seconds"}.
            """,
        options: [
            .bars.withHelp("Bars of the single run (default 1000000)"),
            .repeat.withHelp("Single runs per figure; the best counts (default 7)"),
            .candles.withHelp("Bars of the sweep (default 10000)"),
            .json,
        ]
    ) { args in
        let bars = try args.int(.bars) ?? 1_000_000
        let repeats = try args.int(.repeat) ?? 7
        guard bars >= 31 else { throw UsageError("\(Option.bars) must be at least 31 for ma-cross 10/30", command: "bench expr") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench expr") }
        let sweepBars = try args.int(.candles) ?? 10_000
        guard sweepBars >= 201 else { throw UsageError("\(Option.candles) must be at least 201 for windows up to 200", command: "bench expr") }
        Allocator.keepFreedMemory()
        let expr = try BenchWorkloads.expressionMACross()
        let builtIn = Strategy.maCross

        // One run on many bars.
        let candles = Synth.series(symbol: "BENCH", bars: bars, seed: 1, timeframe: .minute1)
        var config = ExecutionConfig()
        config.depth = .none
        func single(_ s: Strategy) throws -> Double {
            let p = try s.parameters([])
            let start = DispatchTime.now().uptimeNanoseconds
            let signals = try s.signals(candles, p)
            _ = try Engine.run(candles, signals: signals, config: config)
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        var best = (builtIn: Double.infinity, expr: Double.infinity)
        for _ in 0..<repeats {
            best.builtIn = min(best.builtIn, try single(builtIn))
            best.expr = min(best.expr, try single(expr))
        }

        // The sweep of 'bt bench sweep'.
        let sweepCandles = Synth.series(symbol: "BENCH", bars: sweepBars, seed: 1, timeframe: .day1)
        let pairs = BenchWorkloads.anchorPairs
        let sweep = BenchWorkloads.sweep
        func sweepSeconds(_ s: Strategy) throws -> Double {
            let evaluator = try BenchWorkloads.evaluator(s, pairs: pairs)
            let start = DispatchTime.now().uptimeNanoseconds
            let summary = try sweep.run(combinations: pairs.count, evaluator: evaluator, candles: sweepCandles) { _ in }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard summary.failed == 0 else { throw InternalError("bench expr: \(summary.failed) combinations failed") }
            return seconds
        }
        var sweepBest = (builtIn: Double.infinity, expr: Double.infinity)
        for _ in 0..<min(3, repeats) {
            sweepBest.builtIn = min(sweepBest.builtIn, try sweepSeconds(builtIn))
            sweepBest.expr = min(sweepBest.expr, try sweepSeconds(expr))
        }

        if args.flag(.json) {
            let json: JSONValue = ["bars": .int(bars), "builtin_seconds": .number(best.builtIn), "expr_seconds": .number(best.expr),
                                   "sweep_builtin_seconds": .number(sweepBest.builtIn), "sweep_expr_seconds": .number(sweepBest.expr)]
            Output.line(json.serialized())
        } else {
            Output.line("ma-cross 10/30, built-in vs expression (best of \(repeats) and \(min(3, repeats)); build with -c release):")
            Output.line(String(format: "  one run, %d bars:        built-in %8.2f ms   expression %8.2f ms   (x%.2f)",
                               bars, best.builtIn * 1000, best.expr * 1000, best.expr / best.builtIn))
            Output.line(String(format: "  sweep, %d combinations x %d bars: built-in %8.3f s    expression %8.3f s    (x%.2f)",
                               pairs.count, sweepBars, sweepBest.builtIn, sweepBest.expr, sweepBest.expr / sweepBest.builtIn))
        }
    }
}
