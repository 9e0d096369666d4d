import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchChart = Command(
        path: ["bench", "chart"],
        help: EmbeddedAssets.benchChartTXT,
        options: [
            .candles,
            .runs.withHelp("Timed renders (default 50)"),
            .width.withHelp("Chart width (default 120)"),
            .height.withHelp("Chart height (default 40)"),
        ]
    ) { args in
        let candles = try args.count(.candles, default: 10_000, in: 1...Synth.maximumBars)
        let size = ChartSize(width: try args.int(.width) ?? 120, height: try args.int(.height) ?? 40)
        try size.checkMaximum()
        let r = try ChartBenchmark.run(count: candles,
                                       size: size,
                                       runs: max(1, try args.int(.runs) ?? 50))
        Output.write(r.text)
    }
}
