import Backtest
import Foundation
import Strategies

extension Command {
    static let sweep = Command(
        path: ["sweep"],
        help: EmbeddedAssets.sweepTXT,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (or use --symbols)", optional: true),
        ],
        options: [
            .symbols.withHelp("Sweep each of these symbols (one sub-folder each; with --portfolio, the portfolio's)"),
            .portfolio,
            .all.withHelp("With --portfolio: every stored symbol"),
            .maxPositions,
            .portfolioRank,
            .weight,
            .rebalance,
            .neutral.withHelp("With --portfolio and --short: long notional = short notional (see bt help portfolio)"),
            .grid, .search, .trials, .seed.withHelp("Seed of --search random or bayes (default 1)"),
            .where,
            .param.withHelp("Fixed strategy parameter"),
            .objective.withHelp("Metric the sweep optimises and ranks by (default sharpe): " + SweepStats.names.joined(separator: " ")),
            .rank.withHelp("The older name of --objective", valueName: "METRIC"),
            .objectives,
            .walkForward, .cv, .purge, .embargo,
            .pboBlocks,
            .top.withHelp("Rows in the top table (default 20)"),
            .periodsPerYear.withHelp("Bars per year for annualising (default: inferred)"),
            .out,
            .force,
        ] + ShardOptions.all + StrategyOptions.all + [.maxStale] + CommonOptions.window + ExecutionOptions.table
    ) { args in
        try SweepCommand.execute(args, source: try args.rowSource())
    }
}

/// `bt sweep`, in one process, as one shard (`--shard`), or merged from every shard (`bt merge`).
enum SweepCommand {
    /// The strategy, the symbols and the plan of the command line, checked.
    static func plan(_ args: ParsedArguments) throws -> (plan: SweepPlan, symbols: [String]) {
        // Rule strategies declare the swept names as parameters (a bad --grid is reported by SweepPlan).
        let (strategy, rest) = try args.strategy(swept: ParameterGrid.firstValues(parsing: args.values(.grid)))
        if args.flag(.portfolio) {
            throw UsageError("\(Option.portfolio) sweeps run in one process: they are not split into shards (\(Option.shard), "
                             + "bt slurm)", command: "sweep")
        }
        if rest.count > 1 { throw UsageError("unexpected argument '\(rest[1])'", command: "sweep") }
        var symbols = try rest.map(SeriesName.normalized)
        symbols += try args.symbolList(.symbols) ?? []
        guard !symbols.isEmpty else { throw UsageError("give a SYMBOL or \(Option.symbols)", command: "sweep") }
        let plan = try SweepPlan(args: args, strategy: strategy)
        // Shards and Slurm's array tasks each run a part; a Bayesian search's parts depend on each other.
        if plan.bayes != nil, args.command.path.first == "slurm" || args.value(.shard) != nil { throw BayesSearch.notSharded }
        return (plan, symbols)
    }

    static func execute(_ args: ParsedArguments, source: RowSource) throws {
        if args.flag(.portfolio), case .compute = source {
            try runPortfolio(args)
            return
        }
        let (plan, symbols) = try plan(args)
        if case .shard(let shard) = source {
            try runShard(plan, symbols: symbols, shard: shard, args: args)
            return
        }
        let force = source.force(args.flag(.force))
        if let set = source.merged { try plan.check(set, symbols: symbols) }
        let base = args.value(.out) ?? OutputDirectory.timestamped(
            ["sweep", plan.strategy.name] + (symbols.count == 1 ? symbols : ["\(symbols.count)symbols"]),
            at: Int64(Date().timeIntervalSince1970))
        // Everything is written into a staging folder that replaces `base` only once complete.
        let staged = try OutputDirectory.stage(base, force: force)
        let store = try args.openStore()
        guard symbols.count > 1 else {
            let report = try run(plan, symbol: symbols[0], index: 0, store: store, args: args, directory: staged.path,
                                 source: source)
            try staged.commit()
            Output.write(chart: SweepSummaryText.render(report: report, directory: base, style: .automatic, columns: Environment.columns))
            try SweepPlan.requireSomeRan(report)
            return
        }
        // Several symbols: one sub-folder each; a symbol that fails is reported, never stops the rest.
        let outcomes = try plan.runSymbols(symbols, directory: staged.path, run: { symbol, index, dir in
            try run(plan, symbol: symbol, index: index, store: store, args: args, directory: dir, source: source)
        }, swept: { symbol, report in
            Output.write(chart: SweepSummaryText.render(
                report: report, directory: (base as NSString).appendingPathComponent(FileName.sanitized(symbol)),
                style: .automatic, columns: Environment.columns))
        }, stops: { $0 is UsageError }, failed: { symbol, error in
            Diagnostics.line("error: \(symbol): \(ErrorMessage.text(error))")
            return ErrorMessage.reworded(error)
        }, done: { Output.line() })
        var summary = SweepSymbolsSummary(rank: plan.rank, outcomes: outcomes)
        let stored = (try? store.list()) ?? []
        summary.recordTimeframes(of: symbols, requested: try args.timeframe, stored: stored)
        try summary.write(into: staged.path)
        try staged.commit()
        Output.write(summary.text() + "\nWrote \(base)/summary.md and summary.csv\n")
        if summary.allFailed { throw InputError("no symbol could be swept") }
    }

    /// Sweeps symbol number `index` into `directory` (its rows computed here, or read back from
    /// the shards' partial results).
    static func run(_ plan: SweepPlan, symbol: String, index: Int, store: CandleStore, args: ParsedArguments,
                    directory: String, source: RowSource) throws -> SweepReport {
        try plan.run(symbol: symbol, index: index, directory: directory, merged: source.merged,
                     rerun: plan.rerunCommand(symbol: symbol, args: args),
                     progress: { ProgressBar(total: $0, label: "sweep \(symbol)").update },
                     load: args.sweepLoader(store: store, strategy: plan.strategy, parameters: plan.base))
    }

    /// `bt sweep --portfolio`: every combination a portfolio run of the symbols.
    static func runPortfolio(_ args: ParsedArguments) throws {
        // Rule strategies declare the swept names as parameters (a bad --grid is reported by SweepPlan).
        let (strategy, rest) = try args.strategy(swept: ParameterGrid.firstValues(parsing: args.values(.grid)))
        if let extra = rest.first {
            throw UsageError("unexpected argument '\(extra)' (a portfolio's symbols go in \(Option.symbols) A,B,C)", command: "sweep")
        }
        let plan = try SweepPlan(args: args, strategy: strategy)
        let store = try args.openStore()
        let symbols = try args.portfolioSymbols(store: store)
        let dir = args.value(.out) ?? OutputDirectory.timestamped(["sweep", strategy.name, "portfolio"],
                                                                  at: Int64(Date().timeIntervalSince1970))
        let staged = try OutputDirectory.stage(dir, force: args.flag(.force))
        let report = try plan.runPortfolio(symbols: symbols, store: store, args: args, directory: staged.path)
        try staged.commit()
        Output.write(chart: SweepSummaryText.render(report: report, directory: dir, style: .automatic, columns: Environment.columns))
        try SweepPlan.requireSomeRan(report)
    }

    /// One shard: this shard's combinations of every symbol, written as a partial result into
    /// `--out DIR/shard-K-of-N` (rows, walk-forward choices, the candles' fingerprints).
    static func runShard(_ plan: SweepPlan, symbols: [String], shard: Shard, args: ParsedArguments) throws {
        _ = args.flag(.force)  // a shard always replaces its own folder
        let store = try args.openStore()
        let (assigned, target) = try plan.writeShard(
            shard, symbols: symbols, parent: args.value(.out)!, arguments: args.arguments,
            progress: { symbol, total in ProgressBar(total: total, label: "sweep \(symbol) shard \(shard)").update },
            failed: { symbol, error in
                if error is UsageError { throw error }
                Diagnostics.line("error: \(symbol): \(ErrorMessage.text(error))")
                return ErrorMessage.reworded(error)
            },
            load: args.sweepLoader(store: store, strategy: plan.strategy, parameters: plan.base))
        Output.line("Shard \(shard) of the sweep: \(Format.grouped(assigned)) of \(Format.grouped(plan.combos.count)) combinations"
                    + (symbols.count > 1 ? " of each of \(symbols.count) symbols" : "") + "; wrote \(target)")
    }
}
