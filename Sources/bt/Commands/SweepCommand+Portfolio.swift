import Backtest
import Foundation
import Strategies

/// `bt sweep --portfolio`: the portfolio, its rules and rank from the options (`--grid
/// max_positions=...` sweeps K), swept by `SweepPlan.runPortfolio`.
extension SweepPlan {
    /// `bt portfolio` for one combination, `{name}` standing for each swept value.
    func portfolioRerunCommand(args: ParsedArguments) -> String {
        let strategyWords = args.ruleOptions.isEmpty ? [args.positional(0) ?? strategy.name] : []
        let ruleWords = args.words(for: [.weight, .rebalance, .neutral]) + (args.value(.portfolioRank).map { ["--rank", $0] } ?? [])
        let words = ["bt", "portfolio"] + strategyWords + args.words(for: [.symbols, .all]) + args.words(for: StrategyOptions.all + [.param])
            + ruleWords + (grid.axes.contains { $0.name == Self.slotsAxis } ? [] : args.words(for: [.maxPositions]))
            + args.words(for: CommonOptions.range + ExecutionOptions.table + [.periodsPerYear, .db])
        let swept = grid.axes.map { $0.name == Self.slotsAxis ? "--max-positions {\($0.name)}" : "--param \($0.name)={\($0.name)}" }
        return ([RunManifest.shellCommand(words)] + swept).joined(separator: " ")
    }

    /// Sweeps the portfolio of `symbols` as the options give it and writes the sweep's files
    /// into `directory` (an existing folder: the staging folder of the output).
    func runPortfolio(symbols names: [String], store: CandleStore, args: ParsedArguments, directory: String) throws -> SweepReport {
        let probe = try args.portfolioRules(ranked: true, maxPositions: 1)  // the rank is checked below
        let rank = try args.portfolioRank(.portfolioRank, setting: .portfolioRank, parameters: base.expressionValues.expressionParameters)
        let fixedK = try args.int(.maxPositions)
        try PortfolioRules(maxPositions: fixedK, weighting: probe.weighting).validate(ranked: rank != nil)
        let (universe, config) = try args.portfolioUniverse(names, store: store, strategy: strategy, parameters: base)
        let ppy = try args.periodsPerYear ?? PeriodsPerYear.infer(from: universe.clock.time)
        let other = try args.otherSeries(reading: rank.map { [$0] } ?? [], shared: strategy.otherSeries)
        return try runPortfolio(universe, rules: probe, maxPositions: fixedK, rankExpression: rank, rankReading: other, config: config, periodsPerYear: ppy,
                                directory: directory, rerun: portfolioRerunCommand(args: args),
                                progress: { ProgressBar(total: $0, label: "sweep portfolio").update })
    }
}
