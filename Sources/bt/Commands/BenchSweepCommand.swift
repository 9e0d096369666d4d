import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchSweep = Command(
        path: ["bench", "sweep"],
        help: EmbeddedAssets.benchSweepTXT,
        options: [
            .bars.withHelp("Number of bars (default 10000)"),
            .repeat,
            .json,
        ]
    ) { args in
        let bars = try args.int(.bars) ?? 10_000
        let repeats = try args.int(.repeat) ?? 3
        guard bars >= 201 else { throw UsageError("\(Option.bars) must be at least 201 for windows up to 200", command: "bench sweep") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench sweep") }
        try Synth.validate(symbols: 1, bars: bars, timeframe: .day1)
        let r = try SweepBenchmark.run(.maCross, bars: bars, repeats: repeats)
        Output.write(args.flag(.json) ? r.json(bars: bars).serialized() + "\n" : r.text(bars: bars, repeats: repeats))
    }
}
