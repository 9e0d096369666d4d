import Backtest
import Strategies

/// The options that make a portfolio of many symbols (`bt portfolio`, `bt sweep --portfolio`):
/// the symbols, the slots, the rank, the weights, the rebalance calendar, rotation and neutrality.
enum PortfolioOptions {
    static let rules: [Option] = [.maxPositions, .weight, .rebalance, .rotate, .neutral]
}

extension ParsedArguments {
    /// `--symbols A,B,...` (checked and upper-cased, in the order given) or `--all` (every stored symbol),
    /// exactly one of them.
    func portfolioSymbols(store: CandleStore) throws -> [String] {
        switch (try symbolList(.symbols), flag(.all)) {
        case (nil, false): throw UsageError("give \(Option.symbols) A,B,C or \(Option.all)", command: command.name)
        case (.some, true): throw UsageError("give either \(Option.symbols) or \(Option.all), not both", command: command.name)
        case (let list?, false):
            guard !list.isEmpty else { throw InputError("no symbols in the list", setting: .symbol) }
            return list
        case (nil, true):
            let symbols = Array(Set(try store.list().map(\.symbol))).sorted()
            guard !symbols.isEmpty else { throw InputError(.missingStore, "the store holds no symbols") }
            return symbols
        }
    }

    /// `--max-positions`, `--weight`, `--rebalance`, and `--rotate` and `--neutral` for commands that
    /// take them, checked (`PortfolioRules.validate`) for a rank given or not.
    /// - Parameter maxPositions: K given some other way (a sweep's grid), else `--max-positions`.
    func portfolioRules(ranked: Bool, maxPositions: Int? = nil) throws -> PortfolioRules {
        let rules = try PortfolioRules(maxPositions: try maxPositions ?? int(.maxPositions), weight: value(.weight),
                                       rebalance: value(.rebalance), rotate: command.accepts(.rotate) && flag(.rotate),
                                       neutral: command.accepts(.neutral) && flag(.neutral))
        try rules.validate(ranked: ranked)
        return rules
    }

    /// The rank expression (`option`: `--rank` of `bt portfolio`, `--portfolio-rank` of a
    /// sweep), parsed and checked as a number over `parameters` (its `$names`).
    func portfolioRank(_ option: Option, setting: Setting, parameters: [ExpressionParameter]) throws -> LocatedExpression? {
        try PortfolioJob.rank(value(option), setting: setting, parameters: parameters)
    }

    /// The portfolio of the symbols' windows (`--timeframe`, `--from`, `--to`; the bars before
    /// the window are warm-up) and each symbol's execution configuration (its own synthetic book,
    /// profile or recorded book); the first symbol's is the portfolio's.
    /// - Throws: the store's error for a symbol it does not hold (with a suggestion).
    func portfolioUniverse(_ symbols: [String], store: CandleStore, strategy: Strategy?,
                           parameters: StrategyParameters?) throws -> (universe: PortfolioUniverse, config: ExecutionConfig) {
        try PortfolioJob.universe(symbols, windows: { try loadWindow(symbol: $0, store: store) }) { symbol, window in
            try executionConfig(symbol: symbol, candles: window.candles, store: store, strategy: strategy, parameters: parameters)
        }
    }
}
