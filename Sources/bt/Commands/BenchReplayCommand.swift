import Backtest
import BacktestBenchmarks

extension Command {
    static let benchReplay = Command(
        path: ["bench", "replay"], help: EmbeddedAssets.benchReplayTXT,
        options: [.updates.withHelp("Events of the synthetic day (default 10000000)"), .symbol.withHelp("Also replay S's stored events"), .db, .json]
    ) { args in
        let events = try args.count(.updates, default: 10_000_000, in: 1...1_000_000_000)
        let symbol = try args.value(.symbol).map(SeriesName.normalized)
        let r = try ReplayBenchmark.run(events: events, store: symbol == nil ? nil : try args.openStore(), symbol: symbol)
        Output.write(args.flag(.json) ? r.json.serialized(.spaced) + "\n" : r.text)
    }
}
