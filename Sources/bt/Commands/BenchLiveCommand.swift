import Backtest
import BacktestBenchmarks
import Foundation

extension Command {
    static let benchLive = Command(
        path: ["bench", "live"],
        help: EmbeddedAssets.benchLiveTXT,
        options: [
            .updates,
            .sessionBars,
            .fps.withHelp("Dashboard redraws a second while the updates are timed again, 1 to 30 (default 4)"),
            .json,
        ]
    ) { args in
        let updates = try args.int(.updates) ?? 100_000
        guard (1...5_000_000).contains(updates) else {
            throw UsageError("\(Option.updates) must be 1 to 5000000 (got \(updates))", command: "bench live")
        }
        let bars = try args.int(.sessionBars) ?? 60
        guard (1...10_000).contains(bars) else {
            throw UsageError("\(Option.sessionBars) must be 1 to 10000 (got \(bars))", command: "bench live")
        }
        let fps = try args.double(.fps) ?? 4
        guard fps >= 1, fps <= 30 else { throw UsageError("\(Option.fps) must be 1 to 30", command: "bench live") }
        let r = try LiveBenchmark.run(updates: updates, sessionBars: bars, fps: fps)
        Output.write(args.flag(.json) ? r.json.serialized(.spaced) + "\n" : r.text)
    }
}
