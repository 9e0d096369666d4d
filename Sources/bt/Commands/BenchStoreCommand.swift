import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchStore = Command(
        path: ["bench", "store"],
        help: EmbeddedAssets.benchStoreTXT,
        options: [.bars.withHelp("Candles (default 1000000)"), .json]
    ) { args in
        let bars = try args.int(.bars) ?? 1_000_000
        guard bars >= 2 else { throw UsageError("\(Option.bars) must be at least 2", command: "bench store") }
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        Diagnostics.line("bench store: \(bars) candles...")
        let r = try StoreBenchmark.run(bars: bars, directory: NSTemporaryDirectory())
        Output.write(args.flag(.json) ? r.json.serialized() + "\n" : r.text)
    }
}
