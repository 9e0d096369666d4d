import Foundation
import Backtest
import BacktestBenchmarks

extension Command {
    static let benchStore = Command(
        path: ["bench", "store"],
        help: EmbeddedAssets.benchStoreTXT,
        options: [.bars.withHelp("Candles (default 1000000)"), .json]
    ) { args in
        let bars = try args.int(.bars) ?? 1_000_000
        guard bars >= 2 else { throw UsageError("\(Option.bars) must be at least 2", command: "bench store") }
        try Synth.validate(symbols: 1, bars: bars, timeframe: .minute1)
        Diagnostics.line("bench store: \(bars) candles...")
        let r = try StoreBenchmark.run(bars: bars, directory: NSTemporaryDirectory())
        if args.flag(.json) {
            let json: JSONValue = ["bars": .int(r.bars), "load_ms": .numberLiteral(Format.fixed(r.loadMilliseconds, 3)),
                                   "csv_parse_ms": .numberLiteral(Format.fixed(r.csvParseMilliseconds, 3)),
                                   "csv_bytes": .int(r.csvBytes)]
            Output.line(json.serialized())
        } else {
            Output.line("load \(r.bars) candles from the store: \(Format.fixed(r.loadMilliseconds, 1)) ms")
            Output.line("parse the same candles from CSV (\(Format.fixed(Double(r.csvBytes) / 1e6, 1)) MB): \(Format.fixed(r.csvParseMilliseconds, 1)) ms")
        }
    }
}
