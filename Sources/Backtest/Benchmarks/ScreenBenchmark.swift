import Backtest
import Foundation

/// A screen of synthetic symbols loaded from a temporary store, for `bt bench screen`.
package enum ScreenBenchmark {
    package struct Result: Sendable {
        /// Best of the runs, in seconds.
        package var seconds: Double
        /// Symbols that failed (of the last run).
        package var failed: Int
    }

    /// Stores `count` synthetic daily series of `bars` bars in a temporary store (not timed),
    /// then times `repeats` screens of `strategy` over all of them (loading, synthetic depth,
    /// every statistic, screen.csv/screen.md written) and keeps the best.
    package static func run(_ strategy: Strategy, symbols count: Int, bars: Int, repeats: Int, commandLine: [String],
                           reword: @escaping @Sendable (Error) -> Error) throws -> Result {
        let tmp = (NSTemporaryDirectory() as NSString).appendingPathComponent("bt-bench-screen-\(getpid())")
        try? FileManager.default.removeItem(atPath: tmp)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let db = (tmp as NSString).appendingPathComponent("bench.sqlite")
        let (run, symbols) = try BenchWorkloads.screen(strategy, symbols: count, bars: bars, db: db, commandLine: commandLine,
                                                       reword: reword)
        var best = Double.infinity
        var failed = 0
        for k in 0..<repeats {
            let dir = (tmp as NSString).appendingPathComponent("out\(k)")
            let start = DispatchTime.now().uptimeNanoseconds
            let report = try BenchWorkloads.runScreen(run, symbols: symbols, db: db, directory: dir)
            best = min(best, BenchWorkloads.seconds(since: start))
            failed = report.rows.filter { $0.status == .error }.count
        }
        return Result(seconds: best, failed: failed)
    }
}
