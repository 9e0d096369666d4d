import Backtest
import Foundation
import Strategies

extension Command {
    static let portfolio = Command(
        path: ["portfolio"],
        help: EmbeddedAssets.portfolioTXT,
        positionals: [PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true)],
        options: [
            .symbols.withHelp("Symbols of the portfolio"),
            .all.withHelp("Every stored symbol"),
            .param, .maxStale,
            .rankExpression,
        ] + PortfolioOptions.rules + StrategyOptions.all + CommonOptions.window + ExecutionOptions.table
            + RunStatsOptions.all + [.json]
    ) { args in
        let strategy = try portfolioStrategy(args)
        let job = try PortfolioJob(strategy: strategy, assignments: args.values(.param), rank: args.value(.rankExpression),
                                   rules: { try args.portfolioRules(ranked: $0) }, other: { try args.otherSeries(reading: $0, shared: $1) })
        let store = try args.openStore()
        let (universe, config) = try args.portfolioUniverse(try args.portfolioSymbols(store: store), store: store, strategy: strategy,
                                                            parameters: job.parameters)
        try args.presentPortfolio(strategy: job.name, rules: job.strategy?.ruleParameters ?? []) { costs, periodsPerYear in
            try job.report(universe, config: config, periodsPerYear: periodsPerYear, costs: costs, monteCarlo: try args.monteCarlo,
                           commandLine: args.commandLine, timeframe: { try args.timeframe })
        }
    }

    /// The strategy of `bt portfolio`: none under `--rotate` (the rank decides), else STRATEGY or
    /// the rules, as `bt run` takes them.
    private static func portfolioStrategy(_ args: ParsedArguments) throws -> Strategy? {
        if args.flag(.rotate) {
            guard args.positional(0) == nil && args.ruleOptions.isEmpty else {
                throw UsageError("\(Option.rotate) holds the top K symbols by \(Option.rankExpression), whatever the signals: "
                                 + "leave out STRATEGY and \(Option.entry)/\(Option.exit)", command: "portfolio")
            }
            _ = args.value(.strategies)
            return nil
        }
        let (strategy, rest) = try args.strategy()
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", command: "portfolio") }
        return strategy
    }
}
