import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchScreen = Command(
        path: ["bench", "screen"],
        help: EmbeddedAssets.benchScreenTXT,
        options: [
            .symbolCount.withHelp("Number of symbols (default 500)"),
            .bars.withHelp("Bars per symbol (default 5000)"),
            .repeat,
            .json,
        ]
    ) { args in
        let count = try args.int(.symbolCount) ?? 500
        let bars = try args.int(.bars) ?? 5000
        let repeats = try args.int(.repeat) ?? 3
        guard count >= 1, bars >= 31, repeats >= 1 else {
            throw UsageError("need \(Option.symbolCount) >= 1, \(Option.bars) >= 31, \(Option.repeat) >= 1", command: "bench screen")
        }
        let r = try ScreenBenchmark.run(.maCross, symbols: count, bars: bars, repeats: repeats, commandLine: ["bt", "bench", "screen"],
                                        reword: ErrorMessage.reworded)
        Output.write(args.flag(.json) ? r.json(symbols: count, bars: bars).serialized() + "\n"
                     : r.text(symbols: count, bars: bars, repeats: repeats))
    }
}
