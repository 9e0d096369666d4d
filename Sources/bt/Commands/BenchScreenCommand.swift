import Backtest
import Foundation
import Strategies

extension Command {
    static let benchScreen = Command(
        path: ["bench", "screen"],
        summary: "Time a screen of synthetic symbols loaded from the store, with depth fills, stats and reports",
        discussion: """
            Stores --symbols synthetic daily series of --bars bars (Synth seed 1) in a temporary
            store (not timed), then times 'bt screen ma-cross' over all of them: loading from the
            store, synthetic depth fills, every statistic (Sharpe bootstrap included) and
            screen.csv/screen.md written. Best of --repeat runs. Build with -c release.
            --json prints {"symbols", "bars", "seconds"}.
            """,
        options: [
            .symbolCount.withHelp("Number of symbols (default 500)"),
            .bars.withHelp("Bars per symbol (default 5000)"),
            .repeat,
            .json,
        ]
    ) { args in
        let count = try args.int(.symbolCount) ?? 500
        let bars = try args.int(.bars) ?? 5000
        let repeats = try args.int(.repeat) ?? 3
        guard count >= 1, bars >= 31, repeats >= 1 else {
            throw UsageError("need \(Option.symbolCount) >= 1, \(Option.bars) >= 31, \(Option.repeat) >= 1", command: "bench screen")
        }
        let tmp = (NSTemporaryDirectory() as NSString).appendingPathComponent("bt-bench-screen-\(getpid())")
        try? FileManager.default.removeItem(atPath: tmp)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let (run, symbols) = try BenchWorkloads.screen(symbols: count, bars: bars, db: db, commandLine: ["bt", "bench", "screen"])
        var best = Double.infinity
        var failed = 0
        for k in 0..<repeats {
            let dir = (tmp as NSString).appendingPathComponent("out\(k)")
            let start = DispatchTime.now().uptimeNanoseconds
            let report = try BenchWorkloads.runScreen(run, symbols: symbols, db: db, directory: dir)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            failed = report.rows.filter { $0.status == .error }.count
        }
        if args.flag(.json) {
            Output.line((["symbols": .int(count), "bars": .int(bars), "seconds": .number(best)] as JSONValue).serialized())
        } else {
            Output.line("screen ma-cross over \(count) symbols x \(bars) bars (synthetic depth, stats, reports), best of \(repeats):")
            Output.line(String(format: "  %.3f s (%d failed)", best, failed))
        }
    }
}
