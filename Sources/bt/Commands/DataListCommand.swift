import Backtest

extension Command {
    static let dataList = Command(
        path: ["data", "list"],
        summary: "List stored series (symbol, timeframe, first, last, bars) and recorded books",
        discussion: """
            --json prints {"series": [{"symbol", "timeframe", "first", "last", "bars"}],
            "books": [{"symbol", "first", "last", "events"}]} with ISO-8601 UTC times.
            """,
        options: [.json]
    ) { args in
        let store = try args.openStore()
        let series = try store.list()
        let books = try store.bookList()
        if args.flag(.json) {
            let s = series.map {
                "{\"symbol\":\(JSONWriter.string($0.symbol)),\"timeframe\":\(JSONWriter.string($0.timeframe)),"
                    + "\"first\":\"\(UTCTime.iso($0.first))\",\"last\":\"\(UTCTime.iso($0.last))\",\"bars\":\($0.bars)}"
            }
            let b = books.map {
                "{\"symbol\":\(JSONWriter.string($0.symbol)),\"first\":\"\(UTCTime.isoMs($0.firstMs))\","
                    + "\"last\":\"\(UTCTime.isoMs($0.lastMs))\",\"events\":\($0.events)}"
            }
            Output.line("{\"series\":[\(s.joined(separator: ","))],\"books\":[\(b.joined(separator: ","))]}")
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
