import Backtest

extension Command {
    static let dataRemove = Command(
        path: ["data", "remove"],
        help: EmbeddedAssets.dataRemoveTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbol, or one series as SYMBOL@TF")],
        options: [.timeframe.withHelp("Remove only this stored timeframe")]
    ) { args in
        let store = try args.openStoreForWriting()
        let (symbol, timeframe) = try SeriesName.resolve(try args.symbol(at: 0), timeframe: try args.timeframe,
                                                         stored: (try? store.list()) ?? [])
        let removed = try store.remove(symbol: symbol, timeframe: timeframe)
        for info in removed.series { Output.line("removed \(info.symbol) \(info.timeframe) (\(info.bars) bars)") }
        if removed.book { Output.line("removed \(symbol) book") }
        if removed.funding > 0 { Output.line("removed \(symbol) funding (\(removed.funding) rates)") }
        if removed.instrument { Output.line("removed \(symbol) instrument settings") }
    }
}
