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
            .param, .maxStale,
            .rank,
            .top,
            .minTrades,
            .monteCarlo.withHelp("Monte Carlo columns in screen.csv: each symbol's bt run --monte-carlo N"),
            .ruin, .seed.withHelp("Seed of --monte-carlo (default 1)"),
            .periodsPerYear.withHelp("Bars per year for annualising (default: inferred per symbol)"),
            .out,
            .force,
        ] + ShardOptions.all + StrategyOptions.all + CommonOptions.window + ExecutionOptions.table
    ) { args in
        try ScreenCommand.execute(args, source: try args.rowSource())
    }
}

/// `bt screen` is two commands behind one name, sharing their options: a strategy screen
/// (`StrategyScreenCommand`, the strategy run on every symbol and ranked) and a condition screen
/// (`ConditionScreenCommand`, `--where`: the symbols where a condition holds on their last bar). Each
/// runs in one process, as one shard (`--shard`), or merged from every shard (`bt merge`).
enum ScreenCommand {
    /// What both screens read first: the store, the symbols, their split into shards, what the
    /// store says about them, and where their rows come from.
    struct Context {
        let store: CandleStore
        let symbols: [String]
        let split: ScreenSplit
        let notes: [SeriesNote]
        let source: RowSource
    }

    static func execute(_ args: ParsedArguments, source: RowSource) throws {
        let store = try args.openStore()
        let symbols = try args.screenSymbols(store: store)
        let split = ScreenSplit(symbols: symbols, store: store)
        // What the screen leaves out or resamples; a bad --timeframe is each symbol's error, as it always was.
        let notes = (try? store.seriesNotes(screening: symbols, timeframe: try args.timeframe, all: args.flag(.all))) ?? []
        if let set = source.merged { try split.check(set) }
        let context = Context(store: store, symbols: symbols, split: split, notes: notes, source: source)
        if let condition = args.value(.where) {
            try ConditionScreenCommand.execute(args, condition: condition, context)
        } else {
            try StrategyScreenCommand.execute(args, context)
        }
    }
}
