import Backtest
import Foundation
import Strategies

extension Command {
    static let portfolio = Command(
        path: ["portfolio"],
        summary: "Backtest a strategy over many symbols sharing one cash account: slots, rank, weights, rebalancing",
        discussion: """
            One cash account trades every symbol of --symbols A,B,... (or --all stored symbols);
            each symbol's signals come from STRATEGY (or --entry/--exit rules, as in 'bt run') on
            its own candles, and every fill goes through bt run's fill model (--depth, --fee-bps,
            --max-participation, --sl/--tp, ... apply to every symbol; each symbol's synthetic
            book uses its own tick and stored profile).
            --max-positions K holds at most K symbols (default: one per symbol). When more flat
            symbols signal than slots are free, --rank EXPR (a number per bar, for example
            "roc(close, 126)", evaluated on the signal bar) decides, highest first, ties by
            symbol; without --rank, by symbol. --weight sizes positions: equal buys 1/K of the
            portfolio's value at the fill (valued at the fill prices, as vectorbt's
            targetpercent), capped by the cash; inverse-vol by 1/stddev(roc(close,1),20); rank
            by (K - i)/(K(K+1)/2) for the i-th best. --rebalance 1w, 1M or N (bars of the
            portfolio clock) restores the target weights of the held symbols through the same
            fill model. --rotate ignores signals: on each rebalance date (default 1M) the
            portfolio holds the top K symbols by --rank (momentum rotation); STRATEGY is left
            out, --param name=value defines the rank's $name.
            The portfolio clock is the union of the symbols' bar times: a symbol trades only on
            its own bars and, without a bar, is valued at its last close.
            Prints the warnings, headline, gross and net PnL, every statistic of the account,
            the portfolio's figures (positions held, exposure, turnover), each symbol's
            contribution to the return and to the costs, the cost table and the equity chart.
            --json prints bt run's object with "symbols", "portfolio" (the rules), "figures"
            and "contributions" (one object per symbol). --out DIR writes report.md,
            report.html, equity.svg, exposure.svg, equity.csv, positions.csv, fills.csv,
            trades.csv, symbols.csv, stats.csv and stats.json (--report: into
            notebooks-out/<strategy>-portfolio-<UTC time>/).
            """,
        positionals: [PositionalSpec(name: "STRATEGY", help: StrategyOptions.positional.help, optional: true)],
        options: [
            .symbols.withHelp("Symbols of the portfolio"),
            .all.withHelp("Every stored symbol"),
            .param,
            .rankExpression,
        ] + PortfolioOptions.rules + StrategyOptions.all + CommonOptions.range + ExecutionOptions.table
            + RunStatsOptions.all + [.json]
    ) { args in
        let strategy = try portfolioStrategy(args)
        let parameters = try strategy?.parameters(args.values(.param))
        let values = try parameters?.expressionValues
            ?? Dictionary(args.values(.param).map(ExpressionAssignment.parse), uniquingKeysWith: { _, last in last })
        let rank = try args.portfolioRank(.rankExpression, setting: .portfolioRank, parameters: values.expressionParameters)
        let rules = try args.portfolioRules(ranked: rank != nil)
        if args.flag(.short) { throw InputError("a portfolio is long only", setting: .short) }
        let store = try args.openStore()
        let loaded = try args.portfolioCandles(try args.portfolioSymbols(store: store), store: store, strategy: strategy,
                                               parameters: parameters)
        let config = loaded[0].config
        let universe = PortfolioUniverse(candles: loaded.map(\.candles), liquidity: loaded.map(\.config))
        let symbols = try universe.symbols({ candles, cache in
            (try strategy.map { try $0.signals(candles, parameters!, cache: cache) },
             try rank.map { try $0.values(on: candles, parameters: values, cache: cache) })
        }, cache: IndicatorCache(), parallel: true)
        let result = try Portfolio.run(symbols, rules: rules, config: config)
        let name = strategy?.name ?? "rotation"
        try args.presentPortfolio(
            strategy: name, parameters: parameters?.runParameters ?? values.sorted { $0.key < $1.key }.map { RunParameter($0.key, $0.value.runValue) },
            rules: strategy?.ruleParameters ?? [], portfolio: rules.parameters(symbols: symbols.count, rank: rank?.text),
            slots: rules.slots(symbols: symbols.count), config: config, result: result) {
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
