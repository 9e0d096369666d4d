import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchStats = Command(
        path: ["bench", "stats"],
        help: EmbeddedAssets.benchStatsTXT,
        options: [
            .returns,
            .runs.withHelp("Timed calls (default 20)"),
            .json,
        ]
    ) { args in
        let count = try args.count(.returns, default: 5_000, in: 3...Synth.maximumBars)
        let runs = try args.count(.runs, default: 20, in: 1...Int.max)
        let r = StatsBenchmark.run(count: count, runs: runs)
        Output.write(args.flag(.json) ? r.json.serialized(.spaced) + "\n" : r.text)
    }
}
