import Backtest
import Foundation

extension Command {
    static let chart = Command(
        path: ["chart"],
        summary: "Draw candlesticks with volume and indicators in the terminal",
        discussion: """
            Price indicators (sma, ema, wma, bb, donchian, vwap) are drawn over the candles; the
            others (rsi, macd, stoch, ...) get a panel each. Indicators are computed on the whole
            loaded range before --last cuts it, so their warm-up is complete. Each column shows
            the bars it covers merged (first open, highest high, lowest low, last close).
            --html FILE writes the same chart as one self-contained page instead (report.html's
            chart: zoom, pan, crosshair, timeframe switches; opens from disk, fetches nothing).
            An existing FILE is refused (exit 2) unless --force.
            """,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: [
            .ind,
            .last,
            .html,
            .force.withHelp("Let --html overwrite an existing file"),
        ] + CommonOptions.range + ChartOptions.all
    ) { args in
        let symbol = try args.symbol(at: 0)
        let specs = try args.values(.ind).map { try IndicatorSpec(parsing: $0) }
        let last = try args.int(.last)
        if let last, last < 1 { throw UsageError("\(Option.last) must be at least 1", command: "chart") }
        if let path = args.value(.html) {
            if FileManager.default.fileExists(atPath: path) && !args.flag(.force) {
                throw InputError("\(path) already exists; nothing was written (choose another \(Option.html) or pass \(Option.force))")
            }
            let candles = try args.loadCandles(symbol: symbol)
            let page = try ChartReport(candles: candles, specs: specs, last: last, commandLine: args.commandLine)
            try page.write(to: path, force: args.flag(.force))
            Diagnostics.line("chart written to \(path)")
            return
        }
        let size = try args.chartSize()
        let style = try args.chartStyle()
        let candles = try args.loadCandles(symbol: symbol)
        let layers = try CandleChart.layers(for: specs, on: candles, last: last)
        Output.write(chart: try CandleChart.render(layers.candles, overlays: layers.overlays, panels: layers.panels,
                                            size: size, style: style))
    }
}
