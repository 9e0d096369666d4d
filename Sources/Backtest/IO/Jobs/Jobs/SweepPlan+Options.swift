import BacktestAnalysis
import BacktestCore
import BacktestData

/// A sweep's search and objectives from their texts as `bt sweep` and btcore take them
/// (`--search`/`--trials`/`--seed`, `--objective`/`--rank`/`--objectives`), read here once for
/// both front ends.
extension SweepPlan {
    /// The sweep of `specs` searched as `search` names it: nil or `grid` every combination,
    /// `random` `trials` of them drawn with `seed`, `bayes` `trials` chosen by a Bayesian search.
    /// - Throws: `InputError` for an unknown search, `trials` missing or bad, a bad seed, `trials`
    ///   or `seed` without a search; and as `init(strategy:specs:search:bayes:fixed:where:portfolio:)`.
    public init(strategy: Strategy, specs: [String], searchNamed search: String?, trials: String?, seed: String?,
                fixed: [String] = [], where whereText: String? = nil, portfolio: Bool = false) throws {
        let bayes = try BayesSearch(search: search, trials: trials, seed: seed)
        try self.init(strategy: strategy, specs: specs,
                      search: bayes != nil ? nil : try RandomSearch(search: search, trials: trials, seed: seed),
                      bayes: bayes, fixed: fixed, where: whereText, portfolio: portfolio)
    }

    /// The statistic the sweep ranks by and searches optimise: `objective`, else `rank` (its
    /// older name; both given must agree), else the first of `front`, else sharpe; and the
    /// Pareto front's objectives (`front`, `sharpe,max_drawdown`; empty when nil).
    /// - Throws: `Problem.objectiveAndRank` for an `objective` and a `rank` that differ;
    ///   `InputError` for an unknown statistic, or a front of fewer than two or with a repeat.
    public static func objectives(objective: String?, rank: String?, front: String?) throws -> (rank: Stat, front: [Stat]) {
        let objective = try objective.map { try SweepStats.stat(named: $0, setting: .objective) }
        let rank = try rank.map { try SweepStats.stat(named: $0, setting: .rank) }
        if let objective, let rank, objective != rank { throw Problem.objectiveAndRank(objective: objective, rank: rank) }
        let front = try front.map(ParetoFront.objectives(parsing:)) ?? []
        return (objective ?? rank ?? front.first ?? .sharpe, front)
    }
}
