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
        let count = try args.count(.symbolCount, default: 500, in: 1...Int.max)
        let bars = try args.count(.bars, default: 5000, in: 31...Int.max)
        let repeats = try args.count(.repeat, default: 3, in: 1...Int.max)
        let r = try ScreenBenchmark.run(.maCross, symbols: count, bars: bars, repeats: repeats, commandLine: ["bt", "bench", "screen"],
                                        reword: ErrorMessage.reworded)
        Output.write(args.flag(.json) ? r.json(symbols: count, bars: bars).serialized() + "\n"
                     : r.text(symbols: count, bars: bars, repeats: repeats))
    }
}
