import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchIndicators = Command(
        path: ["bench", "indicators"],
        help: EmbeddedAssets.benchIndicatorsTXT,
        options: [
            .bars.withHelp("Bars in the series (default 1000000)"),
            .json,
        ]
    ) { args in
        let bars = try args.count(.bars, default: 1_000_000, in: 100...Synth.maximumBars)
        let results = IndicatorBenchmark.nanosecondsPerBar(bars: bars)
        if args.flag(.json) {
            Output.line(IndicatorBenchmark.json(bars: bars, results: results).serialized(.spaced))
            return
        }
        let perCall = IndicatorBenchmark.microsecondsPerCall(bars: 1000, names: ["sma_20", "ema_20", "rsi_14", "macd_12_26_9"])
        Output.write(IndicatorBenchmark.text(bars: bars, results: results, perCall: perCall))
    }
}
