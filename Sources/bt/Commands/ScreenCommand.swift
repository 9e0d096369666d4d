import Backtest
import Foundation
import Strategies

extension Command {
    static let screen = Command(
        path: ["screen"],
        help: EmbeddedAssets.screenTXT,
        positionals: [PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true)],
        options: [
            .symbols,
            .all,
            .where.withHelp("Condition screen: the symbols where EXPR is true on the last bar"),
            .show,
            .at,
            .json.withHelp("Condition screens: print JSON instead of text"),
            .param,
            .rank,
            .top,
            .minTrades,
            .periodsPerYear.withHelp("Bars per year for annualising (default: inferred per symbol)"),
            .out,
            .force,
        ] + ShardOptions.all + StrategyOptions.all + CommonOptions.window + ExecutionOptions.table
    ) { args in
        try ScreenCommand.execute(args, source: try args.rowSource())
    }
}

/// `bt screen`, in one process, as one shard (`--shard`), or merged from every shard (`bt merge`).
enum ScreenCommand {
    /// The strategy screen of the command line, checked (the execution options on the first
    /// symbol, before any symbol runs).
    static func plan(_ args: ParsedArguments, symbols: [String], store: CandleStore) throws -> ScreenRun {
        let (strategy, rest) = try args.strategy()
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", command: "screen") }
        let parameters = try strategy.parameters(args.values(.param))
        let screen = Screen(rankStat: try args.value(.rank).map(Stat.named(_:)) ?? .sharpe,
                            minTrades: try args.int(.minTrades) ?? Screen.defaultMinTrades)
        let top = try args.int(.top) ?? 20
        guard top > 0 else { throw UsageError("\(Option.top) must be positive", command: "screen") }
        let ppy = try args.double(.periodsPerYear)
        if let ppy, ppy <= 0 { throw UsageError("\(Option.periodsPerYear) must be positive", command: "screen") }
        // Validate the execution options once, before any symbol runs (book depth loads per symbol).
        let first = (try? args.loadCandles(symbol: symbols[0], store: store)) ?? CandleSeries(symbol: symbols[0])
        let sample = try args.executionConfig(symbol: symbols[0], candles: first, store: store, strategy: strategy,
                                              parameters: parameters)
        var run = ScreenRun(strategy: strategy, parameters: parameters, screen: screen, periodsPerYear: ppy, top: top,
                            commandLine: args.commandLine, execution: sample.parameters)
        run.reword = ErrorMessage.reworded  // screen.csv records a symbol's error as bt words it
        return run
    }

    static func execute(_ args: ParsedArguments, source: RowSource) throws {
        let store = try args.openStore()
        let symbols = try args.screenSymbols(store: store)
        let split = ScreenSplit(symbols: symbols, store: store)
        // What the screen leaves out or resamples; a bad --timeframe is each symbol's error, as it always was.
        let notes = (try? store.seriesNotes(screening: symbols, timeframe: try args.timeframe, all: args.flag(.all))) ?? []
        if let set = source.merged { try split.check(set) }
        if let condition = args.value(.where) {
            try runConditionScreen(args, condition: condition, split: split, notes: notes, source: source)
            return
        }
        var run = try plan(args, symbols: symbols, store: store)
        run.seriesNotes = notes
        let path = args.databasePath
        let load = { (symbol: String, store: CandleStore) -> (CandleWindow, ExecutionConfig) in
            let window = try args.loadWindow(symbol: symbol, store: store)
            return (window, try args.executionConfig(symbol: symbol, candles: window.candles, store: store, strategy: run.strategy,
                                                     parameters: run.parameters))
        }
        // One process or a merge stages the report's folder first; a shard always replaces its own folder.
        let force = source.force(args.flag(.force))
        let staged = try source.shard == nil ? OutputDirectory.stage(
            args.value(.out) ?? OutputDirectory.timestamped(["screen", run.strategy.name], at: Int64(Date().timeIntervalSince1970)),
            force: force) : nil
        let outcome = try split.rows(ScreenRowsFile.self, source: source, parent: args.value(.out), arguments: args.arguments) { symbols in
            let bar = ProgressBar(total: symbols.count, label: source.shard.map { "screen shard \($0)" } ?? "screen")
            return run.rows(symbols: symbols, databasePath: path, progress: bar.update, load: load)
        }
        switch outcome {
        case .shard(let shard, let assigned, let target):
            Output.line("Shard \(shard) of the screen: \(Format.grouped(assigned)) of \(Format.grouped(symbols.count)) symbols; "
                        + "wrote \(target)")
        case .rows(let rows):
            let staged = staged!
            let report = try run.write(rows: rows, databasePath: path, directory: staged.path, load: load)
            try staged.commit()
            Output.write(ScreenSummaryText.render(report, directory: staged.target))
        }
    }

    /// `bt screen --where EXPR [--show EXPR]...`: evaluate on each symbol's last bar (at or
    /// before `--at`) and list the matches.
    private static func runConditionScreen(_ args: ParsedArguments, condition: String, split: ScreenSplit, notes: [SeriesNote],
                                           source: RowSource) throws {
        if args.positional(0) != nil || !args.ruleOptions.isEmpty {
            throw UsageError("\(Option.where) is a condition screen: leave out the strategy (and \(Option.entry)/\(Option.exit))",
                             command: "screen")
        }
        let parameters = try args.values(.param).map(ExpressionAssignment.parse)
        args.warnAboutUnusedParameters(reading: [condition] + args.values(.show))
        let screen = try args.conditionScreen(condition, parameters: parameters)
        var range = try args.dateRange
        var at: Int64?
        if let text = args.value(.at) {
            guard args.value(.to) == nil else { throw UsageError("give \(Option.at) or \(Option.to), not both", command: "screen") }
            at = try UTCTime.parseUserEnd(text, setting: .at)
            range.to = at
        }
        let timeframe = try args.timeframe
        let directory = args.value(.out)
        let json = args.flag(.json)
        let path = args.databasePath
        var run = ConditionScreenRun(screen: screen, parameters: parameters, timeframe: timeframe, from: range.from, to: range.to,
                                     at: at, commandLine: args.commandLine)
        run.reword = ErrorMessage.reworded  // a symbol's load error as bt words it
        run.seriesNotes = notes
        let force = source.force(args.flag(.force))
        if source.shard == nil, let directory { try OutputDirectory.check(directory, force: force, what: "output directory") }
        let outcome = try split.rows(ConditionRowsFile.self, source: source, parent: directory, arguments: args.arguments) { symbols in
            let bar = ProgressBar(total: symbols.count, label: source.shard.map { "screen shard \($0)" } ?? "screen")
            return run.rows(symbols: symbols, databasePath: path, progress: bar.update)
        }
        guard case .rows(let rows) = outcome else {
            if case .shard(let shard, let assigned, let target) = outcome {
                Output.line("Shard \(shard) of the condition screen: \(Format.grouped(assigned)) of "
                            + "\(Format.grouped(split.symbols.count)) symbols; wrote \(target)")
            }
            return
        }
        let report = try run.report(rows: rows)
        if let directory {
            try report.write(to: OutputDirectory.stage(directory, force: force))
        }
        Output.write(json ? report.json.serialized() + "\n" : ConditionScreenText.render(report, directory: directory))
    }
}
