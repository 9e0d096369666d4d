import Backtest
import Foundation
import Strategies

extension Command {
    static let sweep = Command(
        path: ["sweep"],
        summary: "Evaluate every parameter combination of a strategy, with overfitting diagnostics",
        discussion: """
            --grid name=start:stop:step (stop inclusive), name=a,b,c or name=v; repeat per parameter.
            --where filters combinations, e.g. "fast<slow" or "fast*2<=slow and k>=1".
            Combinations run in parallel; indicators are computed once per distinct window.
            Results stream to sweep.csv; sweep.md reports the best and top combinations, the
            deflated Sharpe ratio of the best over all trials, the probability of backtest
            overfitting (CSCV), a heatmap for two-parameter grids, and --walk-forward K folds.
            Output goes to --out DIR (default notebooks-out/sweep-<strategy>-<symbol>-<time>/).
            The strategy is a built-in or file strategy (see 'bt run'), or rules given with
            --entry/--exit, whose $names --grid sweeps: bt sweep GOOG --entry ... --grid n=5:50:5.
            """,
        positionals: [
            PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true),
            PositionalSpec(name: "SYMBOL", help: "Stored symbol (or use --symbols)", optional: true),
        ],
        options: [
            .symbols.withHelp("Sweep each of these symbols (one sub-folder each)"),
            .grid,
            .where,
            .param.withHelp("Fixed strategy parameter"),
            .rank.withHelp("Metric to rank by (default sharpe): " + RunMetrics.names.joined(separator: " "), valueName: "METRIC"),
            .walkForward,
            .pboBlocks,
            .top.withHelp("Rows in the top table (default 20)"),
            .periodsPerYear.withHelp("Bars per year for annualising (default: inferred)"),
            .out,
            .force,
        ] + StrategyOptions.all + CommonOptions.range + ExecutionOptions.table
    ) { args in
        // Rule strategies declare the swept names as parameters (a bad --grid is reported by SweepPlan).
        let swept = (try? ParameterGrid(parsing: args.values(.grid)))?.axes.map { ($0.name, $0.values.first ?? 0) } ?? []
        let (strategy, rest) = try args.strategy(swept: swept)
        if rest.count > 1 { throw UsageError("unexpected argument '\(rest[1])'", command: "sweep") }
        var symbols = try rest.map(SeriesName.normalized)
        symbols += try args.symbolList(.symbols) ?? []
        guard !symbols.isEmpty else { throw UsageError("give a SYMBOL or \(Option.symbols)", command: "sweep") }
        let plan = try SweepPlan(args: args, strategy: strategy)
        let base = args.value(.out) ?? OutputDirectory.timestamped(
            ["sweep", strategy.name] + (symbols.count == 1 ? symbols : ["\(symbols.count)symbols"]),
            at: Int64(Date().timeIntervalSince1970))
        // Everything is written into a staging folder that replaces `base` only once complete.
        let staged = try OutputDirectory.stage(base, force: args.flag(.force))
        let store = try args.openStore()
        guard symbols.count > 1 else {
            let report = try plan.run(symbol: symbols[0], store: store, args: args, directory: staged.path)
            try staged.commit()
            Output.write(chart: SweepSummaryText.render(report: report, directory: base, style: .automatic))
            try SweepPlan.requireSomeRan(report)
            return
        }
        // Several symbols: one sub-folder each; a symbol that fails is reported, never stops the rest.
        var outcomes: [(symbol: String, outcome: Result<SweepReport, Error>)] = []
        for symbol in symbols {
            let dir = (staged.path as NSString).appendingPathComponent(FileName.sanitized(symbol))
            func failed(_ error: Error) {
                Diagnostics.line("error: \(symbol): \(ErrorMessage.text(error))")
                outcomes.append((symbol, .failure(ErrorMessage.reworded(error))))
            }
            do {
                let report = try plan.run(symbol: symbol, store: store, args: args, directory: dir)
                Output.write(chart: SweepSummaryText.render(
                    report: report, directory: (base as NSString).appendingPathComponent(FileName.sanitized(symbol)),
                    style: .automatic))
                do {
                    try SweepPlan.requireSomeRan(report)  // its folder stays: sweep.csv says why
                    outcomes.append((symbol, .success(report)))
                } catch {
                    failed(error)
                }
            } catch let error as UsageError {
                throw error
            } catch {
                try? FileManager.default.removeItem(atPath: dir)  // no partial sub-folder
                failed(error)
            }
            Output.line()
        }
        var summary = SweepSymbolsSummary(rank: plan.rank, outcomes: outcomes)
        let stored = (try? store.list()) ?? []
        let timeframe = try args.timeframe
        for symbol in symbols {
            let (name, named) = (try? SeriesName.resolve(symbol, timeframe: timeframe, stored: stored)) ?? (symbol, nil)
            let series = stored.filter { $0.symbol == name }
            if let tf = named?.rawValue ?? (series.count == 1 ? series[0].timeframe : nil) { summary.timeframes[symbol] = tf }
        }
        try OutputDirectory.write(summary.markdown(), to: "summary.md", in: staged.path)
        try OutputDirectory.write(summary.csv(), to: "summary.csv", in: staged.path)
        try staged.commit()
        Output.write(summary.text() + "\nWrote \(base)/summary.md and summary.csv\n")
        if outcomes.allSatisfy({ if case .failure = $0.outcome { return true } else { return false } }) {
            throw InputError("no symbol could be swept")
        }
    }
}

/// Everything a sweep needs besides the symbol: strategy, grid, filter, options.
struct SweepPlan {
    let strategy: Strategy
    let grid: ParameterGrid
    let filter: WhereClause?
    /// The strategy's parameters with `--param` applied: each combination sets its swept values on a copy.
    let base: StrategyParameters
    let rank: Metric
    let folds: Int?
    let blocks: Int
    let top: Int

    init(args: ParsedArguments, strategy: Strategy) throws {
        self.strategy = strategy
        let specs = args.values(.grid)
        guard !specs.isEmpty else { throw UsageError("\(Option.grid) is required (e.g. \(Option.grid) fast=5:50:5)", command: "sweep") }
        grid = try ParameterGrid(parsing: specs)
        let names = strategy.parameters.map(\.name)
        for axis in grid.axes where !names.contains(axis.name) {
            let hint = Suggest.closest(to: axis.name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("'\(axis.name)' is not a parameter of \(strategy.name)\(hint) (valid: \(names.joined(separator: ", ")))",
                             setting: .grid)
        }
        let fixed = args.values(.param)
        let fixedNames = Set(fixed.compactMap { $0.split(separator: "=").first.map(String.init) })
        if let clash = grid.axes.first(where: { fixedNames.contains($0.name) }) {
            throw InputError("'\(clash.name)' is both swept (\(Option.grid)) and fixed (\(Option.param))")
        }
        base = try strategy.parameters(fixed)
        filter = try args.value(.where).map { try WhereClause($0, names: Set(names)) }
        rank = try args.value(.rank).map(RunMetrics.metric(named:)) ?? .sharpe
        folds = try args.int(.walkForward)
        blocks = try args.int(.pboBlocks) ?? 16
        top = try args.int(.top) ?? 20
        guard top > 0 else { throw UsageError("\(Option.top) must be positive", command: "sweep") }
    }

    /// Grid indexes that pass `--where`, and the defaults of the parameters not swept.
    func combinations() throws -> [Int] {
        var combos: [Int] = []
        let defaults = Dictionary(uniqueKeysWithValues: base.values.compactMap { item -> (String, Double)? in
            switch item.value {
            case .int(let v): return (item.name, Double(v))
            case .double(let v): return (item.name, v)
            case .string: return nil
            }
        })
        if let filter {
            combos = grid.indexes(where: filter.matches, defaults: defaults)
        } else {
            combos = Array(0..<grid.count)
        }
        guard !combos.isEmpty else { throw InputError("\(Option.where) leaves no combination of the grid") }
        return combos
    }

    static func text(_ v: Double) -> String { NumberText.shortest(v) }

    /// A sweep in which no combination ran is a failure (exit 2), after its files are written:
    /// `sweep.csv` says why each combination failed.
    static func requireSomeRan(_ report: SweepReport) throws {
        let s = report.summary
        guard s.evaluated > s.failed else {
            let first = s.firstError.map { "; the first: \($0)" } ?? ""
            throw InputError("no combination could run: all \(s.evaluated) failed (see sweep.csv)\(first)")
        }
    }

    /// `bt run` for one combination of the grid, `{name}` standing for each swept value: the
    /// strategy (its name or file as typed, or the rules), symbol, fixed parameters, data range
    /// and execution options as given here.
    func rerunCommand(symbol: String, args: ParsedArguments) -> String {
        let strategyWords = args.ruleOptions.isEmpty ? [args.positional(0) ?? strategy.name] : []
        let words = ["bt", "run"] + strategyWords + [symbol] + args.words(for: StrategyOptions.all + [.param])
            + args.words(for: CommonOptions.range + ExecutionOptions.table + [.periodsPerYear, .db])
        return ([RunManifest.shellCommand(words)] + grid.axes.map { "--param \($0.name)={\($0.name)}" }).joined(separator: " ")
    }

    /// Sweeps `symbol` and writes its files into `directory` (created; inside a staging folder).
    func run(symbol: String, store: CandleStore, args: ParsedArguments, directory: String) throws -> SweepReport {
        let candles = try args.loadCandles(symbol: symbol, store: store)
        let config = try args.executionConfig(symbol: symbol, candles: candles, store: store)
        let ppy = try args.double(.periodsPerYear) ?? PeriodsPerYear.infer(from: candles.time)
        guard ppy > 0 else { throw UsageError("\(Option.periodsPerYear) must be positive", command: "sweep") }
        let combos = try combinations()
        let grid = self.grid, strategy = self.strategy, base = self.base
        let evaluator = SweepEvaluator(config: config, periodsPerYear: ppy) { candles, cache, combo in
            try ErrorMessage.rewording {  // sweep.csv records a combination's error as bt words it
                var parameters = base
                for (axis, value) in zip(grid.axes, grid.values(at: combos[combo])) { try parameters.set(axis.name, to: value) }
                return try strategy.signals(candles, parameters, cache: cache)
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InternalError("\(directory): cannot create (\(error.localizedDescription))")
        }
        var sweep = Sweep(rankMetric: rank)
        sweep.overfittingBlocks = blocks
        sweep.topCount = top
        let csv = try StreamingFile("sweep.csv", in: directory)
        try csv.write(SweepReport.csvHeader(grid))
        let bar = ProgressBar(total: combos.count, label: "sweep \(symbol)")
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankMetric: rank)
        let summary = try sweep.run(combinations: combos.count, evaluator: evaluator, candles: candles,
                                    progress: bar.update) { rows in
            try csv.write(SweepReport.csvRows(rows, grid: grid, combos: combos))
            cells.add(rows)
        }
        try csv.close()
        let sweptNames = Set(grid.axes.map(\.name))
        let fixedValues = base.runParameters.filter { !sweptNames.contains($0.name) }
        var report = SweepReport(
            strategy: strategy.name, candles: candles, commandLine: args.commandLine,
            fixedParameters: fixedValues, execution: config.parameters, grid: grid,
            whereText: args.value(.where), combos: combos, rankMetric: rank, periodsPerYear: ppy, summary: summary)
        report.rules = strategy.ruleParameters
        report.topShown = top
        report.deflation = try Sweep.deflation(of: summary, evaluator: evaluator, candles: candles)
        if let folds {
            let wf = try WalkForward(bars: candles.count, folds: folds)
            report.walkForward = try wf.run(combinations: combos.count, evaluator: evaluator, candles: candles,
                                            rankMetric: rank)
        }
        try OutputDirectory.write(try report.markdown(), to: "sweep.md", in: directory)
        let curves = report.storedCurves(cells: cells, evaluator: evaluator)
        try OutputDirectory.write(report.html(cells: cells, curves: curves, rerun: rerunCommand(symbol: symbol, args: args)),
                                  to: "report.html", in: directory)
        if let svg = report.heatmapSVG() { try OutputDirectory.write(svg, to: "heatmap.svg", in: directory) }
        if let wf = report.walkForwardCSV(), let svg = report.walkForwardSVG() {
            try OutputDirectory.write(wf, to: "walk_forward.csv", in: directory)
            try OutputDirectory.write(svg, to: "walk_forward_equity.svg", in: directory)
        }
        return report
    }
}
