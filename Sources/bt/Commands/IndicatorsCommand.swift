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
        Output.write(try args.loadCandles(symbol: symbol).csvText(indicators: specs))
    }
}
