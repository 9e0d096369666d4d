import BacktestAnalysis
import BacktestCore
import BacktestData
import BacktestPresentation
import Foundation

/// A sweep as a job: everything it needs besides the symbol (strategy, grid, filter, fixed
/// parameters, ranking, folds), and for one symbol the rows computed here or read back from
/// every shard's partial result, then the written report (`sweep.csv`, `sweep.md`,
/// `report.html`, `heatmap.svg`, the walk-forward files). `bt sweep` and `bt merge` run it.
public struct SweepPlan {
    public let strategy: Strategy
    /// The swept axes' values; of a Bayesian search before it ran, each list's values and
    /// each range's ends.
    public internal(set) var grid: ParameterGrid
    public let filter: WhereClause?
    /// The strategy's parameters with the fixed ones applied: each combination sets its swept
    /// values on a copy.
    public let base: StrategyParameters
    /// The statistic combinations are ranked by (and a search optimises).
    public var rank: Stat = .sharpe
    /// The objectives of the Pareto front marked in `sweep.csv` and drawn in `report.html`
    /// (two or more; empty: no front).
    public var objectives: [Stat] = []
    /// Walk-forward folds, if any.
    public var folds: Int?
    /// Blocks of the overfitting diagnostics (CSCV).
    public var blocks = 16
    /// Rows in the top table (positive).
    public var top = 20
    /// Combinations run between two checkpoints of `run` (nil: `Sweep`'s default); the rows
    /// are the same whatever it is.
    public var chunkSize: Int?
    /// Combinatorial purged cross-validation of the selection, if any (not with shards).
    public var cv: CombinatorialPurgedCV.Settings?
    /// Grid indexes that pass the filter, by combination number; of a random search, the
    /// draws' indexes into `grid`, the distinct values drawn.
    /// Of a Bayesian search, the combinations it evaluated in that order (empty before it ran).
    public internal(set) var combos: [Int]
    /// A random search and the space it drew from; nil for a grid sweep.
    public private(set) var search: (search: RandomSearch, space: SearchSpace)?
    /// A Bayesian search and the space it searches; nil for a grid sweep. It runs per symbol,
    /// on that symbol's data (`SweepPlan+Bayes.swift`).
    public internal(set) var bayes: (search: BayesSearch, space: SearchSpace)?
    /// The rows a Bayesian search evaluated, by combination number (of `combos`), once it ran.
    var searchedRows: [Sweep.Row]?
    /// The command line the report's manifest records.
    public var commandLine: [String] = []
    /// How a combination's error is worded in its row (the command line names settings by
    /// their flags); as thrown by default.
    public var reword: @Sendable (Error) -> Error = { $0 }

    /// The grid axis that sweeps a portfolio's number of positions.
    public static let slotsAxis = "max_positions"

    /// What planning finds wrong that involves settings a front end names in its own words.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The parameter is both on the grid and among the fixed parameters.
        case sweptAndFixed(String)
        /// The filter leaves no combination of the grid.
        case noCombination
        /// The objective and its older name, the rank statistic, both given and different.
        case objectiveAndRank(objective: Stat, rank: Stat)

        public var description: String {
            switch self {
            case .sweptAndFixed(let name): "'\(name)' is both swept (\(Setting.grid.name)) and fixed (\(Setting.parameter.name))"
            case .noCombination: "\(Setting.where.name) leaves no combination of the grid"
            case .objectiveAndRank(let objective, let rank):
                "\(Setting.objective.name) \(objective) and \(Setting.rank.name) \(rank) differ (\(Setting.rank.name) is "
                    + "\(Setting.objective.name)'s older name): give one"
            }
        }
    }

    /// - Parameters:
    ///   - fixed: `name=value` assignments of the parameters not swept.
    ///   - whereText: the filter on the swept (and fixed) values, e.g. `fast<slow`.
    ///   - portfolio: a portfolio sweep, whose grid may also sweep `slotsAxis`.
    /// - Throws: `InputError` for a grid axis that is not a parameter, a bad fixed parameter or
    ///   filter; `Problem` for a parameter both swept and fixed, or a filter that leaves nothing.
    public init(strategy: Strategy, grid: ParameterGrid, fixed: [String] = [], where whereText: String? = nil,
                portfolio: Bool = false) throws {
        try self.init(strategy: strategy, axes: grid.axes.map { ($0.name, $0.values) }, fixed: fixed, where: whereText,
                      portfolio: portfolio) { filter, defaults in (grid, try Self.combinations(grid: grid, filter: filter, defaults: defaults)) }
    }

    /// The sweep of `specs` (`--grid`): every combination of their grid, or with `search` the
    /// combinations it draws from their space (`SearchSpace`: ranges without a step allowed),
    /// or with `bayes` those a Bayesian search of their space evaluates on each symbol.
    /// - Throws: as the grid's initialiser, and `InputError` for a bad spec, a search that
    ///   cannot draw its trials (`RandomSearch.draw`), or a Bayesian one with an axis of one
    ///   value, more trials than the space's combinations, or a portfolio.
    public init(strategy: Strategy, specs: [String], search: RandomSearch?, bayes: BayesSearch? = nil, fixed: [String] = [],
                where whereText: String? = nil, portfolio: Bool = false) throws {
        if let bayes {
            try self.init(strategy: strategy, specs: specs, bayes: bayes, fixed: fixed, where: whereText, portfolio: portfolio)
            return
        }
        guard let search else {
            try self.init(strategy: strategy, grid: try ParameterGrid(parsing: specs), fixed: fixed, where: whereText, portfolio: portfolio)
            return
        }
        let space = try SearchSpace(parsing: specs)
        try self.init(strategy: strategy, axes: Self.checkedValues(space), fixed: fixed, where: whereText, portfolio: portfolio) { filter, defaults in
            let draws = try search.draw(from: space, where: filter?.matches, defaults: defaults)
            return (draws.grid, draws.combos)
        }
        self.search = (search, space)
    }

    /// The values of each axis of `space` that are checked as a grid's are: a list's values,
    /// a range's ends (a setting's valid values are an interval).
    static func checkedValues(_ space: SearchSpace) -> [(name: String, values: [Double])] {
        space.axes.map { axis -> (String, [Double]) in
            switch axis.domain {
            case .values(let v): (axis.name, v)
            case .integers(let lower, let upper): (axis.name, [Double(lower), Double(upper)])
            case .reals(let lower, let upper): (axis.name, [lower, upper])
            }
        }
    }

    /// Checks the swept `axes` (names and values), the fixed parameters and the filter, then
    /// takes the grid and its combinations from `select` (given the filter and the values of
    /// the parameters not swept).
    init(strategy: Strategy, axes: [(name: String, values: [Double])], fixed: [String], where whereText: String?,
                 portfolio: Bool, select: (WhereClause?, [String: Double]) throws -> (ParameterGrid, [Int])) throws {
        self.strategy = strategy
        let parameterNames = strategy.parameters.map(\.name)
        let names = parameterNames + (portfolio ? [Self.slotsAxis] : [])
            + ExecutionConfig.sweptSettings.keys.sorted().filter { !parameterNames.contains($0) }
        for axis in axes where !names.contains(axis.name) {
            let hint = Suggest.closest(to: axis.name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("'\(axis.name)' is not a parameter of \(strategy.name)\(hint) (valid: \(names.joined(separator: ", ")))",
                             setting: .grid)
        }
        // An exit axis's values are checked now, each alone, so a bad one is refused before anything runs.
        for axis in axes where !parameterNames.contains(axis.name) {
            guard let setting = ExecutionConfig.sweptSettings[axis.name] else { continue }
            for v in axis.values {
                do {
                    var c = ExecutionConfig()
                    // Leverage alone: the maintenance rate, which depends on the run's instrument, is
                    // checked against it when the combination runs.
                    if setting == .leverage { c.mmr = 0 }
                    try c.set(setting, to: v)
                    try c.validate()
                } catch let e as InputError {
                    throw InputError("\(axis.name)=\(Self.text(v)): \(e.reason)", setting: .grid)
                }
            }
        }
        let fixedNames = Set(fixed.compactMap { $0.split(separator: "=").first.map(String.init) })
        if let clash = axes.first(where: { fixedNames.contains($0.name) }) {
            throw Problem.sweptAndFixed(clash.name)
        }
        base = try strategy.parameters(fixed)
        // The filter reads the strategy's parameters and the swept axes (an exit not swept has no value there).
        let filterNames = parameterNames + (portfolio ? [Self.slotsAxis] : []) + axes.map(\.name)
        filter = try whereText.map { try WhereClause($0, names: Set(filterNames)) }
        (grid, combos) = try select(filter, Self.numericValues(base))
    }

    /// The numeric values of `parameters` by name: what a filter reads of the parameters not swept.
    static func numericValues(_ parameters: StrategyParameters) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: parameters.values.compactMap { item -> (String, Double)? in
            switch item.value {
            case .int(let v): return (item.name, Double(v))
            case .double(let v): return (item.name, v)
            case .string: return nil
            }
        })
    }

    /// Grid indexes that pass `filter`, given the values of the parameters not swept.
    static func combinations(grid: ParameterGrid, filter: WhereClause?, defaults: [String: Double]) throws -> [Int] {
        let combos = filter.map { grid.indexes(where: $0.matches, defaults: defaults) } ?? Array(0..<grid.count)
        guard !combos.isEmpty else { throw Problem.noCombination }
        return combos
    }

    /// A swept value as reports write it.
    public static func text(_ v: Double) -> String { NumberText.shortest(v) }

    /// A sweep in which no combination ran is a failure (exit 2), after its files are written:
    /// `sweep.csv` says why each combination failed.
    public static func requireSomeRan(_ report: SweepReport) throws {
        let s = report.summary
        guard s.evaluated > s.failed else {
            let first = s.firstError.map { "; the first: \($0)" } ?? ""
            throw InputError("no combination could run: all \(s.evaluated) failed (see sweep.csv)\(first)")
        }
    }

    /// For each grid axis, the execution setting it sweeps (`sl`, `trail`, ...), or nil for a
    /// strategy parameter (a strategy's own parameter of the same name wins).
    public var executionAxes: [Setting?] {
        let parameters = Set(strategy.parameters.map(\.name))
        return grid.axes.map { parameters.contains($0.name) ? nil : ExecutionConfig.sweptSettings[$0.name] }
    }

    /// The configured sweep.
    public var sweep: Sweep {
        var sweep = Sweep(rankStat: rank)
        sweep.overfittingBlocks = blocks
        sweep.topCount = top
        if let chunkSize { sweep.chunkSize = chunkSize }
        return sweep
    }

    /// The combination numbers that belong to `shard`.
    public func numbers(in shard: Shard) -> [Int] {
        let key = grid.shardKey
        return combos.indices.filter { key.shard(of: grid.values(at: combos[$0]), count: shard.count) == shard.index }
    }

    /// Identifies the list of combinations (partial results record it).
    /// A random search's also says which values were drawn.
    public var combosFingerprint: String {
        Fingerprint.of(combos.map(String.init) + (search == nil ? [] : grid.axes.map { $0.values.map(Self.text).joined(separator: " ") }))
    }

    /// Payload files of symbol number `index` in a partial result.
    public static func rowsFile(_ index: Int) -> String { "sweep-\(index).rows" }
    public static func foldsFile(_ index: Int) -> String { "sweep-\(index).folds" }

    /// Checks that the shards' partial results are of these combinations and symbols.
    public func check(_ set: PartialSet, symbols: [String]) throws {
        let m = set.manifest
        guard m.items == combos.count, m.itemsSHA256 == combosFingerprint else {
            throw InputError("the partial results hold \(m.items) combinations, this command line gives \(combos.count)")
        }
        guard m.symbols.map(\.symbol) == symbols else {
            throw InputError("the partial results are of the symbols " + m.symbols.map(\.symbol).joined(separator: ",")
                             + ", not " + symbols.joined(separator: ","))
        }
    }

    /// The longest lookback of the strategy's indicators with every swept parameter at its
    /// largest value (nil when it reads none, or those values are not its parameters').
    var largestWarmUp: Int? {
        var parameters = base
        for axis in grid.axes where executionAxes[grid.axes.firstIndex(of: axis)!] == nil {
            guard let top = axis.values.max(), (try? parameters.set(axis.name, to: top)) != nil else { return nil }
        }
        return strategy.indicators(parameters).map(\.lookback).max()
    }

    /// What one symbol's sweep runs on.
    public struct Job {
        /// The bars read: the window swept, with the warm-up before it.
        public var window: CandleWindow
        /// The window's bars: what every combination trades and is measured on.
        public var candles: CandleSeries { window.candles }
        public var config: ExecutionConfig
        public var periodsPerYear: Double
        public var evaluator: SweepEvaluator
        public var walkForward: WalkForward?
        /// The CPCV splits of the window's bars, with `cv`.
        public var cv: CombinatorialPurgedCV?
    }

    /// Loads `symbol` and checks everything that can fail for its data before anything runs.
    /// - Parameter load: the symbol's bars (the window swept, with the warm-up before it),
    ///   execution and bars per year (nil: inferred from the window's times).
    public func prepare(symbol: String,
                        load: (String) throws -> (CandleWindow, ExecutionConfig, periodsPerYear: Double?)) throws -> Job {
        let combos = self.combos, grid = self.grid
        return try prepare(symbol: symbol, load: load) { grid.values(at: combos[$0]) }
    }

    /// `prepare(symbol:load:)` with combination `combo` being the values `values(combo)` of the
    /// grid's axes, in axis order.
    func prepare(symbol: String, load: (String) throws -> (CandleWindow, ExecutionConfig, periodsPerYear: Double?),
                 values: @escaping @Sendable (Int) -> [Double]) throws -> Job {
        let (window, config, given) = try load(symbol)
        let candles = window.candles
        let ppy = given ?? PeriodsPerYear.infer(from: candles.time)
        let grid = self.grid, strategy = self.strategy, base = self.base, reword = self.reword
        let swept = executionAxes
        let signals: SweepEvaluator.SignalSource = { candles, cache, combo in
            do {
                var parameters = base
                for (k, (axis, value)) in zip(grid.axes, values(combo)).enumerated() where swept[k] == nil {
                    try parameters.set(axis.name, to: value)
                }
                return try strategy.signals(candles, parameters, cache: cache)
            } catch {
                throw reword(error)
            }
        }
        let configure: SweepEvaluator.Configure = { combo in
            do {
                var c = config
                for (k, value) in values(combo).enumerated() {
                    if let setting = swept[k] { try c.set(setting, to: value) }
                }
                try c.validate()
                return c
            } catch {
                throw reword(error)
            }
        }
        let evaluator = SweepEvaluator(config: config, periodsPerYear: ppy, signals: signals,
                                       configure: swept.allSatisfy { $0 == nil } ? nil : configure, window: window)
        let walkForward = try folds.map { try WalkForward(bars: candles.count, folds: $0) }
        let splits = try cv?.splits(bars: candles.count)
        if let splits, let warmUp = largestWarmUp, splits.groupBars[0].count <= warmUp {
            throw InputError("groups of \(splits.groupBars[0].count) bars are not longer than the strategy's warm-up of "
                             + "\(warmUp) bars (its indicators at each axis's largest value); give fewer groups",
                             setting: .cv, value: cv?.text)
        }
        return Job(window: window, config: config, periodsPerYear: ppy, evaluator: evaluator, walkForward: walkForward, cv: splits)
    }

    /// One shard of the sweep: this shard's combinations of every symbol, written as a partial
    /// result into `parent/shard-K-of-N` (rows, walk-forward choices, the fingerprints of each
    /// symbol's candles and execution); its manifest records `arguments`, the command line after `bt`.
    /// - Parameters:
    ///   - progress: once a symbol is loaded, with the number of its combinations here, where to
    ///     report how many are done.
    ///   - failed: with several symbols, what becomes of one's error: rethrown, it stops the
    ///     shard; returned, the part records it (every shard fails on that symbol, and the merge
    ///     reports it as one process would). With one symbol its error is thrown.
    /// - Returns: how many combinations are this shard's, and the folder written.
    public func writeShard(_ shard: Shard, symbols: [String], parent: String, arguments: [String],
                           progress: (String, Int) -> ((Int) -> Void)? = { _, _ in nil },
                           failed: (String, Error) throws -> Error = { _, error in throw error },
                           load: (String) throws -> (CandleWindow, ExecutionConfig, periodsPerYear: Double?))
    throws -> (assigned: Int, target: String) {
        if let cv {
            throw InputError("runs in one process: its selection needs every combination's returns (not split into shards)",
                             setting: .cv, value: cv.text)
        }
        if bayes != nil { throw BayesSearch.notSharded }
        let numbers = self.numbers(in: shard)
        let manifest = PartialManifest(command: "sweep", arguments: arguments, shard: shard, items: combos.count,
                                       itemsSHA256: combosFingerprint, assigned: numbers.count, dataSHA256: "")
        let writer = try PartialWriter(parent: parent, manifest: manifest)
        var parts: [PartialManifest.SweptSymbol] = []
        for (index, symbol) in symbols.enumerated() {
            do {
                let job = try prepare(symbol: symbol, load: load)
                let rows = try SweepRowsWriter(Self.rowsFile(index), in: writer)
                try sweep.evaluate(numbers, combinations: combos.count, evaluator: job.evaluator, candles: job.candles,
                                   progress: progress(symbol, numbers.count)) { try rows.write($0) }
                try rows.close()
                if let wf = job.walkForward {
                    let choices = wf.choose(numbers, combinations: combos.count, evaluator: job.evaluator,
                                            candles: job.candles, rankStat: rank)
                    try WalkForwardChoicesFile.write(choices, name: Self.foldsFile(index), in: writer)
                }
                parts.append(.init(symbol: symbol, bars: job.window.series.count, candlesSHA256: job.window.series.sha256,
                                   executionSHA256: Fingerprint.execution(job.config)))
            } catch {
                guard symbols.count > 1 else { throw error }
                parts.append(.init(symbol: symbol, bars: 0, candlesSHA256: "", executionSHA256: "",
                                   error: "\(try failed(symbol, error))"))
            }
        }
        writer.update {
            $0.symbols = parts
            $0.dataSHA256 = Fingerprint.of(parts.map {
                "\($0.symbol)\t\($0.bars)\t\($0.candlesSHA256)\t\($0.executionSHA256)\t\($0.error ?? "")"
            })
        }
        try writer.commit()
        return (numbers.count, writer.target)
    }

    /// Sweeps symbol number `index` (`symbol`) and writes its report into `directory`: every
    /// combination computed here, or every shard's rows read back in combination order from
    /// `merged`. `directory` is created (inside a staging folder).
    /// - Parameters:
    ///   - rerun: the command that reruns one combination, for the report's page.
    ///   - progress: once the symbol is loaded, with the number of combinations, where to report
    ///     how many are done.
    ///   - checkpoint: called as each chunk of rows is written; what it throws stops the sweep
    ///     (a caller's interrupt).
    public func run(symbol: String, index: Int, directory: String, merged: PartialSet? = nil, rerun: String,
                    progress: (Int) -> ((Int) -> Void)? = { _ in nil }, checkpoint: () throws -> Void = {},
                    load: (String) throws -> (CandleWindow, ExecutionConfig, periodsPerYear: Double?)) throws -> SweepReport {
        if let set = merged, let error = set.manifest.symbols[index].error {
            throw InputError(error)  // every shard failed on this symbol, as one process would have
        }
        if bayes != nil, searchedRows == nil {
            if merged != nil { throw BayesSearch.notSharded }
            let loaded = try load(symbol)
            let plan = try searched(symbol: symbol, loaded: loaded, progress: progress, checkpoint: checkpoint)
            return try plan.run(symbol: symbol, index: index, directory: directory, rerun: rerun, checkpoint: checkpoint) { _ in loaded }
        }
        let job = try prepare(symbol: symbol, load: load)
        let candles = job.candles, evaluator = job.evaluator
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw InternalError("\(directory): cannot create (\(error.localizedDescription))")
        }
        var sweep = self.sweep
        sweep.cv = job.cv
        let csv = try SweepCSVFile(in: directory, grid: grid, combos: combos, objectives: objectives)
        let progress = progress(combos.count)
        let cells = SweepHeatmapCells(grid: grid, combos: combos, rankStat: rank)
        let summary: Sweep.Summary
        let choices: [WalkForward.Choice]?
        if let set = merged {
            let seen = set.manifest.symbols[index]
            let read = job.window.series  // every bar read, the warm-up included
            guard seen.candlesSHA256 == read.sha256 else {
                throw InputError("the store changed since the shards ran: \(symbol)'s candles hash to \(read.sha256.prefix(12)) "
                                 + "(\(read.count) bars), the shards swept \(seen.candlesSHA256.prefix(12)) (\(seen.bars) bars); "
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
                try csv.write(rows)
                cells.add(rows)
                done += rows.count
                progress?(done)
            }
            summary = summarizer.finish()
            choices = try job.walkForward.map {
                try set.walkForwardChoices(file: Self.foldsFile(index), steps: $0.steps.count, rankStat: rank)
            }
        } else {
            if let rows = searchedRows {  // a Bayesian search's, evaluated as it chose them
                var summarizer = Sweep.Summarizer(sweep, combinations: combos.count, length: candles.count)
                summarizer.add(rows)
                try csv.write(rows)
                cells.add(rows)
                summary = summarizer.finish()
            } else {
                summary = try sweep.run(combinations: combos.count, evaluator: evaluator, candles: candles,
                                        progress: progress) { rows in
                    try checkpoint()
                    try csv.write(rows)
                    cells.add(rows)
                }
            }
            choices = job.walkForward.map {
                $0.choose(combinations: combos.count, evaluator: evaluator, candles: candles, rankStat: rank)
            }
        }
        let front = try csv.finish()
        let sweptNames = Set(grid.axes.map(\.name))
        let fixedValues = base.runParameters.filter { !sweptNames.contains($0.name) }
        var report = SweepReport(
            strategy: strategy.name, candles: candles, commandLine: commandLine,
            fixedParameters: fixedValues, execution: job.config.parameters, grid: grid,
            whereText: filter?.text, combos: combos, rankStat: rank, periodsPerYear: job.periodsPerYear, summary: summary)
        report.rules = strategy.ruleParameters
        report.otherSeries = strategy.otherSeries?.read(by: strategy.ruleExpressions, on: [candles]) ?? []
        report.topShown = top
        report.cv = job.cv
        report.pareto = front
        report.search = search.map { $0.search.summary(of: $0.space) }
        if let bayes {
            report.search = bayes.search.summary(of: bayes.space)
            report.searchedBy = "chosen by a Bayesian search"
        }
        report.deflation = try Sweep.deflation(of: summary, evaluator: evaluator, candles: candles)
        if let wf = job.walkForward, let choices {
            report.walkForward = try wf.trade(choices, evaluator: evaluator, candles: candles, rankStat: rank)
        }
        try Self.write(report, cells: cells, evaluator: evaluator, rerun: rerun, in: directory)
        return report
    }

    /// Writes `sweep.md`, `report.html` (with the stored curves), `heatmap.svg` and the
    /// walk-forward files of `report` into `directory`; `sweep.csv` is written as rows come.
    public static func write(_ report: SweepReport, cells: SweepHeatmapCells, evaluator: SweepEvaluator, rerun: String,
                             in directory: String) throws {
        try OutputDirectory.write(try report.markdown(), to: "sweep.md", in: directory)
        let curves = storedCurves(of: report, cells: cells, evaluator: evaluator)
        try OutputDirectory.write(report.html(cells: cells, curves: curves, rerun: rerun), to: "report.html", in: directory)
        if let svg = report.heatmapSVG() { try OutputDirectory.write(svg, to: "heatmap.svg", in: directory) }
        if let csv = report.cvSplitsCSV() { try OutputDirectory.write(csv, to: "cv_splits.csv", in: directory) }
        if let wf = report.walkForwardCSV(), let svg = report.walkForwardSVG() {
            try OutputDirectory.write(wf, to: "walk_forward.csv", in: directory)
            try OutputDirectory.write(svg, to: "walk_forward_equity.svg", in: directory)
        }
    }
}
