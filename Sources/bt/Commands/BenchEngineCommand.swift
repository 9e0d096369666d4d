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
        let bars = try args.int(.bars) ?? 1_000_000
        let repeats = try args.int(.repeat) ?? 7
        guard bars >= 31 else { throw UsageError("\(Option.bars) must be at least 31 for ma-cross 10/30", command: "bench engine") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench engine") }
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        let r = try EngineBenchmark.run(.maCross, bars: bars, repeats: repeats)
        Output.write(args.flag(.json) ? r.json(bars: bars).serialized() + "\n" : r.text(bars: bars, repeats: repeats))
    }
}
