import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchExpr = Command(
        path: ["bench", "expr"],
        help: EmbeddedAssets.benchExprTXT,
        options: [
            .bars.withHelp("Bars of the single run (default 1000000)"),
            .repeat.withHelp("Single runs per figure; the best counts (default 7)"),
            .candles.withHelp("Bars of the sweep (default 10000)"),
            .json,
        ]
    ) { args in
        let bars = try args.count(.bars, default: 1_000_000, in: 28_800...Int.max)  // 20 days for the daily filter
        let repeats = try args.count(.repeat, default: 7, in: 1...Int.max)
        let sweepBars = try args.count(.candles, default: 10_000, in: 201...Int.max)  // windows up to 200
        let r = try ExpressionBenchmark.run(builtIn: .maCross, bars: bars, repeats: repeats, sweepBars: sweepBars)
        Output.write(args.flag(.json) ? r.json(bars: bars).serialized() + "\n"
                     : r.text(bars: bars, repeats: repeats, sweepBars: sweepBars))
    }
}
