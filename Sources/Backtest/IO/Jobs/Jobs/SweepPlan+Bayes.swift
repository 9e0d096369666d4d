import BacktestAnalysis
import BacktestCore
import Foundation

/// A sweep by Bayesian search (`BayesSearch`): planned without data (the space, its checks, the
/// number of trials), then searched on each symbol's bars, ranked by the sweep's statistic, and
/// reported as the combinations it evaluated, in the order it chose them.
extension SweepPlan {
    /// The plan of a Bayesian search of `specs`: `grid` holds each list's values and each
    /// range's ends (checked as a grid's values are), `combos` nothing until the search ran.
    /// - Throws: as `init(strategy:specs:search:...)`.
    init(strategy: Strategy, specs: [String], bayes: BayesSearch, fixed: [String], where whereText: String?,
         portfolio: Bool) throws {
        if portfolio {
            throw InputError("searches one symbol's bars: not with a portfolio sweep", setting: .search, value: "bayes")
        }
        let space = try SearchSpace(parsing: specs)
        try bayes.check(space)
        let axes = Self.checkedValues(space)
        try self.init(strategy: strategy, axes: axes, fixed: fixed, where: whereText, portfolio: portfolio) { filter, defaults in
            // More trials than the combinations (that pass the filter) are refused before any data is read.
            _ = try RandomSearch.pool(of: space, trials: bayes.trials, where: filter?.matches, defaults: defaults)
            return (ParameterGrid(axes: axes.map { ParameterGrid.Axis(name: $0.name, values: $0.values) }), [])
        }
        self.bayes = (bayes, space)
    }

    /// The plan of what the search evaluated on `loaded` (one symbol's bars, execution and
    /// bars per year): `grid` the distinct values evaluated, `combos` the combinations in the
    /// order evaluated, `searchedRows` their rows. The search maximises the rank statistic
    /// (its negative for a statistic where lower is better); a combination that failed or whose
    /// statistic is undefined counts as the worst seen (`BayesSearch.run`).
    func searched(symbol: String, loaded: (CandleWindow, ExecutionConfig, periodsPerYear: Double?),
                  progress: (Int) -> ((Int) -> Void)?, checkpoint: () throws -> Void) throws -> SweepPlan {
        let (search, space) = bayes!
        let points = Locked<[[Double]]>([])
        let job = try prepare(symbol: symbol, load: { _ in loaded }) { combo in points.withLock { $0[combo] } }
        var sweep = self.sweep
        sweep.cv = job.cv
        let context = sweep.rowContext(combinations: search.trials, candles: job.candles)
        let stat = rank
        var rows: [Sweep.Row] = []
        let result = try search.run(space: space, where: filter?.matches, defaults: Self.numericValues(base),
                                    progress: progress(search.trials)) { batch in
            try checkpoint()
            let first = points.withLock { $0.append(contentsOf: batch); return $0.count - batch.count }
            let evaluated = sweep.rows(Array(first..<first + batch.count), evaluator: job.evaluator, candles: job.candles,
                                       context: context)
            rows += evaluated
            return evaluated.map { row in row.stats.map { stat.higherIsBetter ? $0[stat] : -$0[stat] } ?? .nan }
        }
        let draws = try RandomSearch.index(result.points, names: grid.axes.map(\.name))
        var plan = self
        plan.grid = draws.grid
        plan.combos = draws.combos
        plan.searchedRows = rows
        return plan
    }
}
