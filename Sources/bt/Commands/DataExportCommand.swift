import Backtest

extension Command {
    static let dataExport = Command(
        path: ["data", "export"],
        help: EmbeddedAssets.dataExportTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: CommonOptions.range + [.funding.withHelp("Write the stored funding rates (time, rate, mark_price) instead")]
    ) { args in
        let symbol = try args.symbol(at: 0), range = try args.dateRange
        Output.write(args.flag(.funding) ? try args.openStore().loadFunding(symbol: symbol, from: range.from, to: range.to).csvText()
                                         : try args.loadCandles(symbol: symbol).csvText())
    }
}
