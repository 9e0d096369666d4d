import Backtest
import Foundation

extension Command {
    static let chart = Command(
        path: ["chart"],
        help: EmbeddedAssets.chartTXT,
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
        Output.write(chart: try CandleChart.drawing(layers.candles, overlays: layers.overlays, panels: layers.panels,
                                             size: size, style: style))
    }
}
