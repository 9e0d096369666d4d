import Backtest

extension Command {
    static let dataImport = Command(
        path: ["data", "import"],
        summary: "Import candle files (CSV, Binance, Alpha Vantage, trades) or recorded book events",
        discussion: """
            Every file is read and validated in memory first, then all are written in one
            transaction: on any error nothing is stored. Re-importing a file changes nothing; an
            overlapping file updates the bars it shares with the store and adds the rest.
            The format is detected from the content unless --format is given. The symbol defaults
            to the file name's stem in upper case; the timeframe is inferred from the bars'
            spacing (trades default to 1m). With --timeframe, finer bars are aggregated into it.
            Trade prints are also kept (times in ms, taker side when given) for 'bt calibrate'.
            Book times keep milliseconds; updates that leave the book crossed or locked are
            counted and reported as a warning.
            """,
        positionals: [PositionalSpec(name: "PATH", help: "Files to import", variadic: true)],
        options: [
            .symbol,
            .timeframe.withHelp("Store as 1m 5m 15m 30m 1h 4h 1d 1w 1M (default: inferred)"),
            .format,
            .adjusted,
        ]
    ) { args in
        let options = ImportOptions(
            symbol: try args.value(.symbol).map(Symbol.validated),
            timeframe: try args.timeframe,
            format: try args.value(.format).map(ImportFormat.parse),
            adjusted: args.flag(.adjusted))
        let files = try Importer.read(paths: args.positionals, options: options)
        for r in try args.updatingStore({ try $0.write(files) }) {
            let unit = r.timeframe == "book" ? "events" : "bars"
            let prints = r.prints > 0 ? "; \(r.prints) trade prints kept for 'bt calibrate'" : ""
            Output.line("\(r.symbol) \(r.timeframe): \(r.added) \(unit) added, \(r.updated) updated, \(r.unchanged) unchanged"
                + "\(prints) (\(r.file))")
            if let check = r.bookCheck, check.crossedUpdates > 0 || check.staleLevels > 0 {
                Diagnostics.line("warning: \(r.file): \(check.crossedUpdates) of \(check.updates) book updates leave the book "
                    + "crossed or locked (best bid >= best ask); replay drops \(check.staleLevels) stale "
                    + "level\(check.staleLevels == 1 ? "" : "s") (at a crossed touch, the side set by the older event)")
            }
        }
    }
}
