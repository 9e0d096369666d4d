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
        let parameters = try strategy?.parameters(args.values(.param))
        let values = try parameters?.expressionValues
            ?? Dictionary(args.values(.param).map(ExpressionAssignment.parse), uniquingKeysWith: { _, last in last })
        let rank = try args.portfolioRank(.rankExpression, setting: .portfolioRank, parameters: values.expressionParameters)
        let (rules, other) = (try args.portfolioRules(ranked: rank != nil), try args.otherSeries(reading: rank.map { [$0] } ?? [], shared: strategy?.otherSeries))
        let store = try args.openStore()
        let (universe, config) = try args.portfolioUniverse(try args.portfolioSymbols(store: store), store: store, strategy: strategy,
                                                            parameters: parameters)
        let symbols = try universe.tradedSymbols({ candles, cache in
            (try strategy.map { try $0.signals(candles, parameters!, cache: cache) },
             try rank.map { try $0.values(on: candles, parameters: values, cache: cache, reading: other) })
        }, rules: rules, cache: IndicatorCache(), parallel: true)
        let result = try Portfolio.run(symbols, rules: rules, config: config)
        let name = strategy?.name ?? "rotation"
        try args.presentPortfolio(
            strategy: name, parameters: parameters?.runParameters ?? values.sorted { $0.key < $1.key }.map { RunParameter($0.key, $0.value.runValue) },
            rules: strategy?.ruleParameters ?? [], portfolio: rules.parameters(symbols: symbols.count, rank: rank?.text),
            slots: rules.slots(symbols: symbols.count), config: config, result: result,
            warmUp: universe.warmUp, other: other ?? strategy?.otherSeries) {
            try CostSensitivity.run(portfolio: symbols, rules: rules, config: config, periodsPerYear: $0)
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
