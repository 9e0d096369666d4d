import Backtest

extension Command {
    static let dataExport = Command(
        path: ["data", "export"],
        summary: "Print a stored series as CSV (time,open,high,low,close,volume)",
        discussion: """
            Times are ISO-8601 UTC; values are printed in their shortest form that reads back
            to exactly the stored Double, so export then import round-trips bit for bit.
            """,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol")],
        options: CommonOptions.range
    ) { args in
        let series = try args.loadCandles(symbol: try args.symbol(at: 0))
        Output.write(series.csvText())
    }
}
