import Backtest

extension Command {
    static let dataList = Command(
        path: ["data", "list"],
        help: EmbeddedAssets.dataListTXT,
        options: [.json]
    ) { args in
        let store = try args.openStore()
        let series = try store.list()
        let books = try store.bookList()
        if args.flag(.json) {
            let s = series.map { s -> JSONValue in
                ["symbol": .string(s.symbol), "timeframe": .string(s.timeframe), "first": .string(UTCTime.iso(s.first)),
                 "last": .string(UTCTime.iso(s.last)), "bars": .int(s.bars)]
            }
            let b = books.map { b -> JSONValue in
                ["symbol": .string(b.symbol), "first": .string(UTCTime.isoMs(b.firstMs)), "last": .string(UTCTime.isoMs(b.lastMs)),
                 "events": .int(b.events)]
            }
            Output.line((["series": .array(s), "books": .array(b)] as JSONValue).serialized())
            return
        }
        if series.isEmpty && books.isEmpty {
            Diagnostics.line("the store is empty; import data with 'bt data import'")
            return
        }
        var rows = [["SYMBOL", "TIMEFRAME", "FIRST", "LAST", "BARS"]]
        for s in series {
            rows.append([s.symbol, s.timeframe, UTCTime.iso(s.first), UTCTime.iso(s.last), String(s.bars)])
        }
        for b in books {
            rows.append([b.symbol, "book", UTCTime.isoMs(b.firstMs), UTCTime.isoMs(b.lastMs), "\(b.events) events"])
        }
        Output.write(TextTable.render(rows, rightAligned: [4]))
    }
}
