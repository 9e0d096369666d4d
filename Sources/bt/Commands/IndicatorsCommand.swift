import Backtest

extension Command {
    static let indicators = Command(
        path: ["indicators"],
        help: EmbeddedAssets.indicatorsTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: [.ind.withHelp("Indicator spec, e.g. sma:20 or macd:12,26,9 (repeatable)")] + CommonOptions.range
    ) { args in
        let symbol = try args.symbol(at: 0)
        let texts = args.values(.ind)
        guard !texts.isEmpty else { throw UsageError("give at least one \(Option.ind) SPEC (e.g. \(Option.ind) sma:20)", command: "indicators") }
        let specs = try texts.map { try IndicatorSpec(parsing: $0) }
        let candles = try args.loadCandles(symbol: symbol)
        var names: [String] = []
        var columns: [[Double]] = []
        for spec in specs {
            names += spec.columns
            columns += try spec.compute(on: candles)
        }
        Output.line((["time", "open", "high", "low", "close", "volume"] + names).joined(separator: ","))
        for i in 0..<candles.count {
            var line = "\(UTCTime.iso(candles.time[i])),\(candles.open[i]),\(candles.high[i]),\(candles.low[i]),\(candles.close[i]),\(candles.volume[i])"
            for column in columns {
                line += ","
                let v = column[i]
                if !v.isNaN { line += v.description }
            }
            Output.line(line)
        }
    }
}
