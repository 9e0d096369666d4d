import Backtest

/// How `bt sweep` turns its options into a `SweepPlan` and loads its symbols.
extension SweepPlan {
    /// The sweep of the options: `--grid` (required), `--param`, `--where`, `--objective`, `--objectives`,
    /// `--walk-forward`, `--pbo-blocks`, `--top`.
    init(args: ParsedArguments, strategy: Strategy) throws {
        let specs = args.values(.grid)
        guard !specs.isEmpty else { throw UsageError("\(Option.grid) is required (e.g. \(Option.grid) fast=5:50:5)", command: "sweep") }
        do {
            try self.init(strategy: strategy, specs: specs, searchNamed: args.value(.search), trials: args.value(.trials),
                          seed: args.value(.seed), fixed: args.values(.param), where: args.value(.where), portfolio: args.flag(.portfolio))
        } catch SweepPlan.Problem.noCombination {
            _ = try Self.settings(args)  // a bad setting below is reported before an empty grid, as it always was
            throw InputError(ErrorMessage.text(SweepPlan.Problem.noCombination))
        } catch let problem as SweepPlan.Problem {
            throw InputError(ErrorMessage.text(problem))
        }
        (rank, folds, blocks, top) = try Self.settings(args)
        objectives = try Self.objectives(args).front
        cv = try CombinatorialPurgedCV.Settings(cv: args.value(.cv), purge: args.value(.purge), embargo: args.value(.embargo))
        commandLine = args.commandLine
        reword = ErrorMessage.reworded  // sweep.csv records a combination's error as bt words it
    }

    /// `--objective` (or `--rank`) and `--objectives`: `objectives(objective:rank:front:)`.
    /// - Throws: `UsageError` for `--objective` and `--rank` that differ; as that function.
    static func objectives(_ args: ParsedArguments) throws -> (rank: Stat, front: [Stat]) {
        do {
            return try objectives(objective: args.value(.objective), rank: args.value(.rank), front: args.value(.objectives))
        } catch let problem as Problem { throw UsageError(ErrorMessage.text(problem), command: "sweep") }
    }

    /// `--objective`, `--walk-forward`, `--pbo-blocks` and `--top`, checked.
    static func settings(_ args: ParsedArguments) throws -> (rank: Stat, folds: Int?, blocks: Int, top: Int) {
        let rank = try objectives(args).rank
        let folds = try args.int(.walkForward)
        let blocks = try args.int(.pboBlocks) ?? 16
        let top = try args.int(.top) ?? 20
        guard top > 0 else { throw UsageError("\(Option.top) must be positive", command: "sweep") }
        return (rank, folds, blocks, top)
    }

    /// `bt run` for one combination of the grid, `{name}` standing for each swept value: the
    /// strategy (its name or file as typed, or the rules), symbol, fixed parameters, data range
    /// and execution options as given here.
    func rerunCommand(symbol: String, args: ParsedArguments) -> String {
        let strategyWords = args.ruleOptions.isEmpty ? [args.positional(0) ?? strategy.name] : []
        let words = ["bt", "run"] + strategyWords + [symbol] + args.words(for: StrategyOptions.all + [.param, .maxStale])
            + args.words(for: CommonOptions.range + ExecutionOptions.table + [.periodsPerYear, .db])
        return ([RunManifest.shellCommand(words)] + grid.axes.map { "--param \($0.name)={\($0.name)}" }).joined(separator: " ")
    }

    /// Loads `symbol` as the options say and checks everything that can fail for its data.
    func prepare(symbol: String, store: CandleStore, args: ParsedArguments) throws -> Job {
        try prepare(symbol: symbol, load: args.sweepLoader(store: store, strategy: strategy, parameters: base))
    }
}

extension ParsedArguments {
    /// A symbol's window (with its warm-up) and execution as the options give them, and
    /// `--periods-per-year`.
    func sweepLoader(store: CandleStore, strategy: Strategy, parameters: StrategyParameters)
    -> (String) throws -> (CandleWindow, ExecutionConfig, periodsPerYear: Double?) {
        { symbol in
            let window = try loadWindow(symbol: symbol, store: store)
            let config = try executionConfig(symbol: symbol, candles: window.candles, store: store, strategy: strategy,
                                             parameters: parameters)
            return (window, config, try periodsPerYear)
        }
    }
}
