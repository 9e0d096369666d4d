import Backtest
import BacktestBenchmarks
import Foundation
import Strategies

extension Command {
    static let benchPortfolio = Command(
        path: ["bench", "portfolio"],
        help: EmbeddedAssets.benchPortfolioTXT,
        options: [
            .symbolCount.withHelp("Number of symbols (default 500)"),
            .bars.withHelp("Bars per symbol (default 5000)"),
            .repeat.withHelp("Runs; the best counts (default 5)"),
            .json,
        ]
    ) { args in
        let count = try args.int(.symbolCount) ?? 500
        let bars = try args.int(.bars) ?? 5000
        let repeats = try args.int(.repeat) ?? 5
        guard count >= 1, bars >= 31, repeats >= 1 else {
            throw UsageError("need \(Option.symbolCount) >= 1, \(Option.bars) >= 31, \(Option.repeat) >= 1", command: "bench portfolio")
        }
        let r = try PortfolioBenchmark.run(.maCross, symbols: count, bars: bars, repeats: repeats)
        Output.write(args.flag(.json) ? r.json(symbols: count, bars: bars).serialized() + "\n"
                     : r.text(symbols: count, bars: bars, repeats: repeats))
    }
}
