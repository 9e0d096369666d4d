import Backtest

extension Command {
    static let chart = Command(
        path: ["chart"],
        summary: "Draw candlesticks with volume and indicators in the terminal",
        discussion: """
            Price indicators (sma, ema, wma, bb, donchian, vwap) are drawn over the candles; the
            others (rsi, macd, stoch, ...) get a panel each. Indicators are computed on the whole
            loaded range before --last cuts it, so their warm-up is complete. Each column shows
            the bars it covers merged (first open, highest high, lowest low, last close).
            """,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: [
            .ind,
            .last,
        ] + CommonOptions.range + ChartOptions.all
    ) { args in
        let symbol = try args.symbol(at: 0)
        let specs = try args.values(.ind).map { try IndicatorSpec(parsing: $0) }
        let last = try args.int(.last)
        if let last, last < 1 { throw UsageError("\(Option.last) must be at least 1", command: "chart") }
        let size = try args.chartSize()
        let style = try args.chartStyle()
        let candles = try args.loadCandles(symbol: symbol)
        let layers = try CandleChart.layers(for: specs, on: candles, last: last)
        Output.write(chart: try CandleChart.render(layers.candles, overlays: layers.overlays, panels: layers.panels,
                                            size: size, style: style))
    }
}
