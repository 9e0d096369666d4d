import Backtest
import BacktestBenchmarks

extension Command {
    static let benchScale = Command(path: ["bench", "scale"], help: EmbeddedAssets.benchScaleTXT,
                                    options: [.bars.withHelp("Smallest size (default 1000000)"), .json]) { args in
        let r = try ScaleBenchmark.run(bars: try args.count(.bars, default: 1_000_000, in: 1_000...Synth.maximumBars / 10))
        Output.write(args.flag(.json) ? r.json.serialized() + "\n" : r.text)
    }
}
