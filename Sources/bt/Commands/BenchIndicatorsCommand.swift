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
        let bars = try args.int(.bars) ?? 1_000_000
        guard bars <= Synth.maximumBars else {
            throw UsageError("\(Option.bars) must be at most \(Synth.maximumBars)", command: "bench indicators")
        }
        guard bars >= 100 else { throw UsageError("\(Option.bars) must be at least 100 (got \(bars))", command: "bench indicators") }
        let results = IndicatorBenchmark.nanosecondsPerBar(bars: bars)
        if args.flag(.json) {
            let fields = results.map { (key: $0.0, value: JSONValue.numberLiteral("\(($0.1 * 1000).rounded() / 1000)")) }
            Output.line((["bars": .int(bars), "results": .object(fields)] as JSONValue).serialized(.spaced))
            return
        }
        Output.line("bars: \(bars)")
        Output.line("indicator        ns/bar")
        for (name, ns) in results {
            Output.line(name.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%8.3f", ns))
        }
        Output.line("")
        Output.line("at 1000 bars     us/call")
        for (name, us) in IndicatorBenchmark.microsecondsPerCall(bars: 1000, names: ["sma_20", "ema_20", "rsi_14", "macd_12_26_9"]) {
            Output.line(name.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%8.3f", us))
        }
    }
}
