import Backtest

/// How `bt sweep` reads what it optimises: `--objective STAT` (its older name `--rank`) and
/// `--objectives A,B,...` (the Pareto front).
extension SweepPlan {
    /// The statistic the sweep ranks by and searches optimise: `--objective`, else `--rank`
    /// (both given must agree), else the first of `--objectives`, else sharpe; and the Pareto
    /// front's objectives (empty without `--objectives`).
    /// - Throws: `UsageError` for `--objective` and `--rank` that differ; `InputError` for an
    ///   unknown statistic, or `--objectives` with fewer than two or a repeat.
    static func objectives(_ args: ParsedArguments) throws -> (rank: Stat, front: [Stat]) {
        let objective = try args.value(.objective).map { try SweepStats.stat(named: $0, setting: .objective) }
        let rank = try args.value(.rank).map { try SweepStats.stat(named: $0, setting: .rank) }
        if let objective, let rank, objective != rank {
            throw UsageError("\(Option.objective) \(objective) and \(Option.rank) \(rank) differ (\(Option.rank) is "
                             + "\(Option.objective)'s older name): give one", command: "sweep")
        }
        let front = try args.value(.objectives).map(ParetoFront.objectives(parsing:)) ?? []
        return (objective ?? rank ?? front.first ?? .sharpe, front)
    }
}
