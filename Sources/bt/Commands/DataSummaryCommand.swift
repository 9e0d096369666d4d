import Backtest

extension Command {
    static let dataSummary = Command(
        path: ["data", "summary"],
        help: EmbeddedAssets.dataSummaryTXT,
        positionals: [PositionalSpec(name: "SYMBOL", help: "Stored symbols or SYMBOL@TF series (default: all)", optional: true,
                                     variadic: true)],
        options: CommonOptions.range + [.json]
    ) { args in
        let store = try args.openStore()
        let stored = try store.list()
        let timeframe = try args.timeframe
        let named = try args.positionals.map(SeriesName.normalized)
        var symbols: [String] = []
        let storedSymbols = stored.map(\.symbol).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in named.isEmpty ? storedSymbols : named {
            let series = stored.filter { $0.symbol == name }
            if timeframe == nil, series.count > 1 {
                symbols += series.map { "\($0.symbol)@\($0.timeframe)" }
            } else {
                symbols.append(name)
            }
        }
        guard !symbols.isEmpty else { throw InputError("the store holds no candles; import data with 'bt data import'", at: store.path) }
        // A series that cannot be shown at --timeframe (a daily series asked for hours) is
        // reported and the others summarised; only when none can be is it an error.
        var summaries: [SeriesSummary] = [], skipped: [String] = []
        for symbol in symbols {
            do {
                summaries.append(SeriesSummary(try args.loadCandles(symbol: symbol, store: store)))
            } catch let error as InputError where timeframe != nil && symbols.count > 1 {
                skipped.append("\(symbol): \(ErrorMessage.text(error))")
            }
        }
        if summaries.isEmpty, !skipped.isEmpty {
            throw InputError("no stored series can be shown at \(timeframe!.rawValue):\n  " + skipped.joined(separator: "\n  "))
        }
        for s in skipped { Diagnostics.line("warning: skipped \(s)") }
        if args.flag(.json) {
            let items = summaries.map { s -> JSONValue in
                ["symbol": .string(s.symbol), "timeframe": s.timeframe.map { .string($0.rawValue) } ?? .null,
                 "bars": .int(s.bars), "first": .string(UTCTime.iso(s.first)), "last": .string(UTCTime.iso(s.last)),
                 "first_close": .number(s.firstClose), "last_close": .number(s.lastClose),
                 "min_low": .number(s.minLow), "max_high": .number(s.maxHigh),
                 "total_return": .number(s.totalReturn), "mean_return": .number(s.meanReturn),
                 "return_sd": .number(s.returnStandardDeviation)]
            }
            Output.line(JSONValue.array(items).serialized())
            return
        }
        var rows = [["SYMBOL", "TF", "BARS", "FIRST", "LAST", "FIRST CLOSE", "LAST CLOSE", "MIN LOW", "MAX HIGH", "TOTAL", "MEAN/BAR", "SD/BAR"]]
        for s in summaries {
            rows.append([
                s.symbol, s.timeframe?.rawValue ?? "?", String(s.bars), UTCTime.isoDate(s.first), UTCTime.isoDate(s.last),
                Format.price(s.firstClose), Format.price(s.lastClose), Format.price(s.minLow), Format.price(s.maxHigh),
                Format.percent(s.totalReturn, digits: 1), Format.percent(s.meanReturn, digits: 3), Format.percent(s.returnStandardDeviation, digits: 3),
            ])
        }
        Output.write(TextTable.render(rows, rightAligned: Set(2...11).subtracting([3, 4])))
    }
}
