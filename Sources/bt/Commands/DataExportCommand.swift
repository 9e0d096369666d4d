import Backtest

extension Command {
    static let dataExport = Command(
        path: ["data", "export"],
        help: EmbeddedAssets.dataExportTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: CommonOptions.range
    ) { args in
        let series = try args.loadCandles(symbol: try args.symbol(at: 0))
        Output.write(series.csvText())
    }
}
