import Backtest
import Foundation
import Strategies

/// `bt screen STRATEGY`: the strategy run on every symbol, ranked by a statistic.
enum StrategyScreenCommand {
    /// The strategy screen of the command line, checked (the execution options on the first
    /// symbol, before any symbol runs).
    static func plan(_ args: ParsedArguments, symbols: [String], store: CandleStore) throws -> ScreenRun {
        let (strategy, rest) = try args.strategy()
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", command: "screen") }
        let parameters = try strategy.parameters(args.values(.param))
        var screen = Screen(rankStat: try args.value(.rank).map(Stat.named(_:)) ?? .sharpe,
                            minTrades: try args.int(.minTrades) ?? Screen.defaultMinTrades)
        screen.monteCarlo = try args.monteCarlo
        let top = try args.int(.top) ?? 20
        guard top > 0 else { throw UsageError("\(Option.top) must be positive", command: "screen") }
        let ppy = try args.periodsPerYear
        // Validate the execution options once, before any symbol runs (book depth loads per symbol).
        let first = (try? args.loadCandles(symbol: symbols[0], store: store)) ?? CandleSeries(symbol: symbols[0])
        let sample = try args.executionConfig(symbol: symbols[0], candles: first, store: store, strategy: strategy,
                                              parameters: parameters)
        var run = ScreenRun(strategy: strategy, parameters: parameters, screen: screen, periodsPerYear: ppy, top: top,
                            commandLine: args.commandLine, execution: sample.parameters)
        run.reword = ErrorMessage.reworded  // screen.csv records a symbol's error as bt words it
        return run
    }

    static func execute(_ args: ParsedArguments, _ context: ScreenCommand.Context) throws {
        let (store, symbols, split, source) = (context.store, context.symbols, context.split, context.source)
        var run = try plan(args, symbols: symbols, store: store)
        run.seriesNotes = context.notes
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
}
