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
        let updates = try args.count(.updates, default: 100_000, in: 1...5_000_000)
        let bars = try args.count(.sessionBars, default: 60, in: 1...10_000)
        let fps = try args.double(.fps) ?? 4
        guard fps >= 1, fps <= 30 else { throw UsageError("\(Option.fps) must be 1 to 30", command: "bench live") }
        let r = try LiveBenchmark.run(updates: updates, sessionBars: bars, fps: fps)
        Output.write(args.flag(.json) ? r.json.serialized(.spaced) + "\n" : r.text)
    }
}
