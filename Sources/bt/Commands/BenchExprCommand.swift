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
        let bars = try args.int(.bars) ?? 1_000_000
        let repeats = try args.int(.repeat) ?? 7
        guard bars >= 31 else { throw UsageError("\(Option.bars) must be at least 31 for ma-cross 10/30", command: "bench expr") }
        guard repeats >= 1 else { throw UsageError("\(Option.repeat) must be at least 1", command: "bench expr") }
        let sweepBars = try args.int(.candles) ?? 10_000
        guard sweepBars >= 201 else { throw UsageError("\(Option.candles) must be at least 201 for windows up to 200", command: "bench expr") }
        let r = try ExpressionBenchmark.run(builtIn: .maCross, bars: bars, repeats: repeats, sweepBars: sweepBars)
        Output.write(args.flag(.json) ? r.json(bars: bars).serialized() + "\n"
                     : r.text(bars: bars, repeats: repeats, sweepBars: sweepBars))
    }
}
