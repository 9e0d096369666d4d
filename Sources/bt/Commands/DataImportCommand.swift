import Backtest

extension Command {
    static let dataImport = Command(
        path: ["data", "import"],
        summary: "Import candle files (CSV, Binance, Alpha Vantage, trades; gzip or not) or recorded book events",
        discussion: """
            Every file is read and validated in memory first, then all are written in one
            transaction: on any error nothing is stored. Re-importing a file changes nothing; an
            overlapping file adds the bars the store lacks, and one that would change stored bars
            is refused (with how many and the largest change) unless --update is given. PATH '-'
            reads standard input; gzip input is recognised by its content.
            Dates may be ISO-8601, epoch s/ms/us/ns, yyyymmdd, or M/D/YYYY, D/M/YYYY, D.M.YYYY
            (with a time); day or month first is decided from the whole column, and a column that
            fits both needs --date-format. --tz reads local times in an IANA zone (stored as UTC);
            --session keeps the trading hours with the series, and resampling follows them.
            Bars stamped at their end (09:31 ... 16:00) need --stamp end: each moves back one bar
            (the file's spacing) to its start, as bt stores bars. The import warns, without
            refusing, about intraday times without an offset read as UTC (with a --tz hint when
            they look like an exchange's local session), times that look like bar ends, bars
            outside --session, and gaps longer than 14 days and 10 bars beside the added bars.
            --symbol-prefix, --symbol-suffix and --rename FROM=TO store the file's symbols under
            other names: a second source of a stored ticker beside the first (AAPL_2).
            A file without open, high and low columns (or --layout wide) is close-only: open =
            high = low = close, volume missing; commands that need a range or volume refuse it.
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
            .dateFormat,
            .tz,
            .session,
            .symbolColumn,
            .layout,
            .skipBadRows,
            .stamp,
            .symbolPrefix,
            .symbolSuffix,
            .rename,
            .update,
        ]
    ) { args in
        var options = ImportOptions(
            symbol: try args.value(.symbol).map(Symbol.validated),
            timeframe: try args.timeframe,
            format: try args.value(.format).map(ImportFormat.parse),
            adjusted: args.flag(.adjusted))
        options.dateFormat = try args.value(.dateFormat).map { try DateFormat($0).pattern }
        options.timeZone = try args.value(.tz).map { try TradingSession.timeZone($0).identifier }
        if let hours = args.value(.session) {
            guard let zone = options.timeZone else {
                throw UsageError("\(Option.session) needs \(Option.tz) (the zone its hours are in)", command: "data import")
            }
            options.session = try TradingSession(hours, zone: zone)
        }
        options.symbolColumn = args.value(.symbolColumn)
        if let layout = args.value(.layout) { options.layout = try ImportOptions.Layout(parsing: layout) }
        options.skipBadRows = args.flag(.skipBadRows)
        options.stamp = try args.value(.stamp).map(BarStamp.init(parsing:))
        (options.symbolPrefix, options.symbolSuffix) = (args.value(.symbolPrefix) ?? "", args.value(.symbolSuffix) ?? "")
        options.renames = try ImportOptions.renames(parsing: args.values(.rename))
        let files = try Importer.read(paths: args.positionals, options: options)
        var warned = Set<String>()
        let reports = try args.updatingStore { try $0.write(files, updates: args.flag(.update)) }
        for r in reports {
            Output.line(ImportSummaryText.line(r))
            if r.skipped.count > 0, warned.insert(r.file).inserted {
                Diagnostics.line("warning: \(r.file): \(TerminalText.escaped(r.skipped.summary))")
            }
            if let warning = ImportSummaryText.bookWarning(r) { Diagnostics.line(warning) }
        }
        for warning in ImportSummaryText.warnings(reports, naming: ErrorMessage.flags) { Diagnostics.line(TerminalText.escaped(warning)) }
    }
}
