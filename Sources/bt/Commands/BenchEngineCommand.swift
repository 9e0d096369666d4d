import Foundation
import Backtest
import BacktestBenchmarks
import Strategies

extension Command {
    static let benchEngine = Command(
        path: ["bench", "engine"],
        help: EmbeddedAssets.benchEngineTXT,
        options: [
            .bars.withHelp("Number of bars (default 1000000)"),
            .repeat.withHelp("Runs per figure; the best counts (default 7)"),
            .json,
        ]
    ) { args in
        let bars = try args.count(.bars, default: 1_000_000, in: 31...Int.max)  // ma-cross 10/30
        let repeats = try args.count(.repeat, default: 7, in: 1...Int.max)
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        let r = try EngineBenchmark.run(.maCross, bars: bars, repeats: repeats)
        Output.write(args.flag(.json) ? r.json(bars: bars).serialized() + "\n" : r.text(bars: bars, repeats: repeats))
    }
}
