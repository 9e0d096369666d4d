import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchStore = Command(
        path: ["bench", "store"],
        help: EmbeddedAssets.benchStoreTXT,
        options: [.bars.withHelp("Candles (default 1000000)"), .json]
    ) { args in
        let bars = try args.count(.bars, default: 1_000_000, in: 2...Int.max)
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        Diagnostics.line("bench store: \(bars) candles...")
        let r = try StoreBenchmark.run(bars: bars, directory: NSTemporaryDirectory())
        Output.write(args.flag(.json) ? r.json.serialized() + "\n" : r.text)
    }
}
