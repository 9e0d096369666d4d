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
        let count = try args.int(.returns) ?? 5_000
        guard count <= Synth.maximumBars else {
            throw UsageError("\(Option.returns) must be at most \(Synth.maximumBars)", command: "bench stats")
        }
        guard count >= 3 else { throw UsageError("\(Option.returns) must be at least 3 (got \(count))", command: "bench stats") }
        let runs = try args.int(.runs) ?? 20
        guard runs >= 1 else { throw UsageError("\(Option.runs) must be at least 1 (got \(runs))", command: "bench stats") }
        let r = StatsBenchmark.run(count: count, runs: runs)
        Output.write(args.flag(.json) ? r.json.serialized(.spaced) + "\n" : r.text)
    }
}
