import Backtest

extension Command {
    static let dataImport = Command(
        path: ["data", "import"],
        help: EmbeddedAssets.dataImportTXT,
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
