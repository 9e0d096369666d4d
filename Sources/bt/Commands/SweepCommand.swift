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
            --portfolio sweeps one portfolio of --symbols A,B,... (or --all) as 'bt portfolio'
            runs it (--max-positions, --weight, --rebalance; --portfolio-rank EXPR is its
            --rank, and may read the swept $names); --grid max_positions=... sweeps K. Folds and
            overfitting diagnostics then run over the portfolio's clock (the union of the
            symbols' bar times).
            """,
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
        ] + ShardOptions.all + StrategyOptions.all + CommonOptions.range + ExecutionOptions.table
    ) { args in
        try SweepCommand.execute(args, source: try args.rowSource())
    }
}

/// `bt sweep`, in one process, as one shard (`--shard`), or merged from every shard (`bt merge`).
enum SweepCommand {
    /// The strategy, the symbols and the plan of the command line, checked.
    static func plan(_ args: ParsedArguments) throws -> (plan: SweepPlan, symbols: [String]) {
        // Rule strategies declare the swept names as parameters (a bad --grid is reported by SweepPlan).
        let swept = (try? ParameterGrid(parsing: args.values(.grid)))?.axes.map { ($0.name, $0.values.first ?? 0) } ?? []
        let (strategy, rest) = try args.strategy(swept: swept)
        if args.flag(.portfolio) {
            throw UsageError("\(Option.portfolio) sweeps run in one process: they are not split into shards (\(Option.shard), "
                             + "bt slurm)", command: "sweep")
        }
        if rest.count > 1 { throw UsageError("unexpected argument '\(rest[1])'", command: "sweep") }
        var symbols = try rest.map(SeriesName.normalized)
        symbols += try args.symbolList(.symbols) ?? []
        guard !symbols.isEmpty else { throw UsageError("give a SYMBOL or \(Option.symbols)", command: "sweep") }
        return (try SweepPlan(args: args, strategy: strategy), symbols)
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
        var force = args.flag(.force)
        if case .merge(let set, let mergeForce) = source {
            force = mergeForce
            try plan.check(set, symbols: symbols)
        }
        let base = args.value(.out) ?? OutputDirectory.timestamped(
            ["sweep", plan.strategy.name] + (symbols.count == 1 ? symbols : ["\(symbols.count)symbols"]),
            at: Int64(Date().timeIntervalSince1970))
        // Everything is written into a staging folder that replaces `base` only once complete.
        let staged = try OutputDirectory.stage(base, force: force)
        let store = try args.openStore()
        guard symbols.count > 1 else {
            let report = try plan.run(symbol: symbols[0], index: 0, store: store, args: args, directory: staged.path,
                                      source: source)
            try staged.commit()
            Output.write(chart: SweepSummaryText.render(report: report, directory: base, style: .automatic))
            try SweepPlan.requireSomeRan(report)
            return
        }
        // Several symbols: one sub-folder each; a symbol that fails is reported, never stops the rest.
        var outcomes: [(symbol: String, outcome: Result<SweepReport, Error>)] = []
        for (index, symbol) in symbols.enumerated() {
            let dir = (staged.path as NSString).appendingPathComponent(FileName.sanitized(symbol))
            func failed(_ error: Error) {
                Diagnostics.line("error: \(symbol): \(ErrorMessage.text(error))")
                outcomes.append((symbol, .failure(ErrorMessage.reworded(error))))
            }
            do {
                let report = try plan.run(symbol: symbol, index: index, store: store, args: args, directory: dir, source: source)
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

    /// `bt sweep --portfolio`: every combination a portfolio run of the symbols.
    static func runPortfolio(_ args: ParsedArguments) throws {
        // Rule strategies declare the swept names as parameters (a bad --grid is reported by SweepPlan).
        let swept = (try? ParameterGrid(parsing: args.values(.grid)))?.axes.map { ($0.name, $0.values.first ?? 0) } ?? []
        let (strategy, rest) = try args.strategy(swept: swept)
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
        Output.write(chart: SweepSummaryText.render(report: report, directory: dir, style: .automatic))
        try SweepPlan.requireSomeRan(report)
    }

    /// One shard: this shard's combinations of every symbol, written as a partial result into
    /// `--out DIR/shard-K-of-N` (rows, walk-forward choices, the candles' fingerprints).
    static func runShard(_ plan: SweepPlan, symbols: [String], shard: Shard, args: ParsedArguments) throws {
        _ = args.flag(.force)  // a shard always replaces its own folder
        let store = try args.openStore()
        let numbers = plan.numbers(in: shard)
        let manifest = PartialManifest(command: "sweep", arguments: args.arguments, shard: shard, items: plan.combos.count,
                                       itemsSHA256: plan.combosFingerprint, assigned: numbers.count, dataSHA256: "")
        let writer = try PartialWriter(parent: args.value(.out)!, manifest: manifest)
        var parts: [PartialManifest.SweptSymbol] = []
        for (index, symbol) in symbols.enumerated() {
            do {
                let job = try plan.prepare(symbol: symbol, store: store, args: args)
                let rows = try SweepRowsWriter(SweepPlan.rowsFile(index), in: writer)
                let bar = ProgressBar(total: numbers.count, label: "sweep \(symbol) shard \(shard)")
                try plan.sweep.evaluate(numbers, combinations: plan.combos.count, evaluator: job.evaluator, candles: job.candles,
                                        progress: bar.update) { try rows.write($0) }
                try rows.close()
                if let wf = job.walkForward {
                    let choices = wf.choose(numbers, combinations: plan.combos.count, evaluator: job.evaluator,
                                            candles: job.candles, rankMetric: plan.rank)
                    try WalkForwardChoicesFile.write(choices, name: SweepPlan.foldsFile(index), in: writer)
                }
                parts.append(.init(symbol: symbol, bars: job.candles.count, candlesSHA256: job.candles.sha256,
                                   executionSHA256: Fingerprint.execution(job.config)))
            } catch let error as UsageError {
                throw error
            } catch {
                guard symbols.count > 1 else { throw error }
                Diagnostics.line("error: \(symbol): \(ErrorMessage.text(error))")
                parts.append(.init(symbol: symbol, bars: 0, candlesSHA256: "", executionSHA256: "",
                                   error: "\(ErrorMessage.reworded(error))"))
            }
        }
        writer.update {
            $0.symbols = parts
            $0.dataSHA256 = Fingerprint.of(parts.map {
                "\($0.symbol)\t\($0.bars)\t\($0.candlesSHA256)\t\($0.executionSHA256)\t\($0.error ?? "")"
            })
        }
        try writer.commit()
        Output.line("Shard \(shard) of the sweep: \(Format.grouped(numbers.count)) of \(Format.grouped(plan.combos.count)) combinations"
                    + (symbols.count > 1 ? " of each of \(symbols.count) symbols" : "") + "; wrote \(writer.target)")
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
    /// Grid indexes that pass `--where`, by combination number.
    let combos: [Int]

    init(args: ParsedArguments, strategy: Strategy) throws {
        self.strategy = strategy
        let specs = args.values(.grid)
        guard !specs.isEmpty else { throw UsageError("\(Option.grid) is required (e.g. \(Option.grid) fast=5:50:5)", command: "sweep") }
        grid = try ParameterGrid(parsing: specs)
        let names = strategy.parameters.map(\.name) + (args.flag(.portfolio) ? [Self.slotsAxis] : [])
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
        combos = try Self.combinations(grid: grid, filter: filter, base: base)
    }

    /// Grid indexes that pass `--where`, and the defaults of the parameters not swept.
    static func combinations(grid: ParameterGrid, filter: WhereClause?, base: StrategyParameters) throws -> [Int] {
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

    /// The configured sweep.
    var sweep: Sweep {
        var sweep = Sweep(rankMetric: rank)
        sweep.overfittingBlocks = blocks
        sweep.topCount = top
        return sweep
    }

    /// The combination numbers that belong to `shard`.
    func numbers(in shard: Shard) -> [Int] {
        let key = grid.shardKey
        return combos.indices.filter { key.shard(of: grid.values(at: combos[$0]), count: shard.count) == shard.index }
    }

    /// Identifies the list of combinations (partial results record it).
    var combosFingerprint: String { Fingerprint.of(combos.map(String.init)) }

    /// Payload files of symbol number `index` in a partial result.
    static func rowsFile(_ index: Int) -> String { "sweep-\(index).rows" }
    static func foldsFile(_ index: Int) -> String { "sweep-\(index).folds" }

    /// Checks that the shards' partial results are of these combinations and symbols.
    func check(_ set: PartialSet, symbols: [String]) throws {
        let m = set.manifest
        guard m.items == combos.count, m.itemsSHA256 == combosFingerprint else {
            throw InputError("the partial results hold \(m.items) combinations, this command line gives \(combos.count)")
        }
        guard m.symbols.map(\.symbol) == symbols else {
            throw InputError("the partial results are of the symbols " + m.symbols.map(\.symbol).joined(separator: ",")
                             + ", not " + symbols.joined(separator: ","))
        }
    }

    /// What one symbol's sweep runs on.
    struct Job {
        var candles: CandleSeries
        var config: ExecutionConfig
        var periodsPerYear: Double
        var evaluator: SweepEvaluator
        var walkForward: WalkForward?
    }

    /// Loads `symbol` and checks everything that can fail for its data before anything runs.
    func prepare(symbol: String, store: CandleStore, args: ParsedArguments) throws -> Job {
        let candles = try args.loadCandles(symbol: symbol, store: store)
        let config = try args.executionConfig(symbol: symbol, candles: candles, store: store)
        let ppy = try args.double(.periodsPerYear) ?? PeriodsPerYear.infer(from: candles.time)
        guard ppy > 0 else { throw UsageError("\(Option.periodsPerYear) must be positive", command: "sweep") }
        let combos = self.combos, grid = self.grid, strategy = self.strategy, base = self.base
        let evaluator = SweepEvaluator(config: config, periodsPerYear: ppy) { candles, cache, combo in
            try ErrorMessage.rewording {  // sweep.csv records a combination's error as bt words it
                var parameters = base
                for (axis, value) in zip(grid.axes, grid.values(at: combos[combo])) { try parameters.set(axis.name, to: value) }
                return try strategy.signals(candles, parameters, cache: cache)
            }
        }
        let walkForward = try folds.map { try WalkForward(bars: candles.count, folds: $0) }
        return Job(candles: candles, config: config, periodsPerYear: ppy, evaluator: evaluator, walkForward: walkForward)
    }

    /// Sweeps symbol number `index` (`symbol`) and writes its report into `directory`: every
    /// combination computed here, or every shard's rows read back in combination order (`bt merge`).
    /// `directory` is created (inside a staging folder).
    func run(symbol: String, index: Int, store: CandleStore, args: ParsedArguments, directory: String,
             source: RowSource) throws -> SweepReport {
        if case .merge(let set, _) = source, let error = set.manifest.symbols[index].error {
            throw InputError(error)  // every shard failed on this symbol, as one process would have
        }
        let job = try prepare(symbol: symbol, store: store, args: args)
        let candles = job.candles, evaluator = job.evaluator
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InternalError("\(directory): cannot create (\(error.localizedDescription))")
        }
        let sweep = self.sweep
        let csv = try StreamingFile("sweep.csv", in: directory)
        try csv.write(SweepReport.csvHeader(grid))
        let bar = ProgressBar(total: combos.count, label: "sweep \(symbol)")
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankMetric: rank)
        let summary: Sweep.Summary
        let choices: [WalkForward.Choice]?
        if case .merge(let set, _) = source {
            let seen = set.manifest.symbols[index]
            guard seen.candlesSHA256 == candles.sha256 else {
                throw InputError("the store changed since the shards ran: \(symbol)'s candles hash to \(candles.sha256.prefix(12)) "
                                 + "(\(candles.count) bars), the shards swept \(seen.candlesSHA256.prefix(12)) (\(seen.bars) bars); "
                                 + "rerun the shards")
            }
            guard seen.executionSHA256 == Fingerprint.execution(job.config) else {
                throw InputError("the execution settings of \(symbol) differ from the shards' (a depth profile stored or "
                                 + "changed since they ran?); rerun the shards")
            }
            let key = grid.shardKey, grid = self.grid, combos = self.combos, shards = set.manifest.shard.count
            let merger = try set.sweepRows(file: Self.rowsFile(index), combinations: combos.count, chunkSize: sweep.chunkSize) { k in
                key.shard(of: grid.values(at: combos[k]), count: shards)
            }
            var summarizer = Sweep.Summarizer(sweep, combinations: combos.count, length: candles.count)
            var done = 0
            while true {
                let rows = try merger.nextChunk()
                if rows.isEmpty { break }
                summarizer.add(rows)
                try csv.write(SweepReport.csvRows(rows, grid: grid, combos: combos))
                cells.add(rows)
                done += rows.count
                bar.update(done)
            }
            summary = summarizer.finish()
            choices = try job.walkForward.map {
                try set.walkForwardChoices(file: Self.foldsFile(index), steps: $0.steps.count, rankMetric: rank)
            }
        } else {
            summary = try sweep.run(combinations: combos.count, evaluator: evaluator, candles: candles,
                                    progress: bar.update) { rows in
                try csv.write(SweepReport.csvRows(rows, grid: grid, combos: combos))
                cells.add(rows)
            }
            choices = job.walkForward.map {
                $0.choose(combinations: combos.count, evaluator: evaluator, candles: candles, rankMetric: rank)
            }
        }
        try csv.close()
        let sweptNames = Set(grid.axes.map(\.name))
        let fixedValues = base.runParameters.filter { !sweptNames.contains($0.name) }
        var report = SweepReport(
            strategy: strategy.name, candles: candles, commandLine: args.commandLine,
            fixedParameters: fixedValues, execution: job.config.parameters, grid: grid,
            whereText: args.value(.where), combos: combos, rankMetric: rank, periodsPerYear: job.periodsPerYear, summary: summary)
        report.rules = strategy.ruleParameters
        report.topShown = top
        report.deflation = try Sweep.deflation(of: summary, evaluator: evaluator, candles: candles)
        if let wf = job.walkForward, let choices {
            report.walkForward = try wf.trade(choices, evaluator: evaluator, candles: candles, rankMetric: rank)
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
