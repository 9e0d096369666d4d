import Backtest
import Foundation

/// `bt screen --where EXPR [--show EXPR]...`: the condition evaluated on each symbol's last bar
/// (at or before `--at`), and the symbols where it holds listed.
enum ConditionScreenCommand {
    static func execute(_ args: ParsedArguments, condition: String, _ context: ScreenCommand.Context) throws {
        let (split, source) = (context.split, context.source)
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
        run.seriesNotes = context.notes
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
