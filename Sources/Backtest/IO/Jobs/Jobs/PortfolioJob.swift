import BacktestAnalysis
import BacktestCore
import BacktestPresentation

/// A portfolio run from its inputs, as `bt portfolio` makes it and the C library's
/// `bt_portfolio` (btcore's `portfolio`) asks for it: each symbol's signals and rank on its
/// window, the simulation, and what its report records.
package struct PortfolioJob {
    /// The strategy; nil under rotation (the rank decides).
    package var strategy: Strategy?
    /// The strategy's parameters (nil without a strategy).
    package var parameters: StrategyParameters?
    /// The values of the rank's `$names`: the strategy's parameters, else the `name=value`s given.
    package var values: [String: ExpressionValue]
    package var rank: LocatedExpression?
    package var rules: PortfolioRules
    /// Where the rank reads other series with `@` (nil: it reads none).
    package var other: OtherSeriesReader?

    /// - Parameters:
    ///   - assignments: the `name=value` texts given (`--param`): the strategy's parameters, or
    ///     without one the rank's `$names`.
    ///   - rank: the rank expression's text (`--rank`), parsed and checked as a number.
    ///   - rules: the portfolio's rules, checked here for a rank given or not.
    ///   - other: makes the reader of the rank's `@` series (with the strategy's shared).
    ///   - rules: the portfolio's rules for a rank given or not, checked (`PortfolioRules.validate`).
    package init(strategy: Strategy?, assignments: [String], rank rankText: String?, rules: (_ ranked: Bool) throws -> PortfolioRules,
                 other: (_ reading: [LocatedExpression], _ shared: OtherSeriesReader?) throws -> OtherSeriesReader?) throws {
        self.strategy = strategy
        parameters = try strategy?.parameters(assignments)
        values = try parameters?.expressionValues
            ?? Dictionary(assignments.map(ExpressionAssignment.parse), uniquingKeysWith: { _, last in last })
        rank = try Self.rank(rankText, setting: .portfolioRank, parameters: values.expressionParameters)
        self.rules = try rules(rank != nil)
        try self.rules.validate(ranked: rank != nil)
        self.other = try other(rank.map { [$0] } ?? [], strategy?.otherSeries)
    }

    /// A rank expression's `text` given as `setting`, parsed and checked as a number over
    /// `parameters` (its `$names`) that reads no position series; nil for none.
    package static func rank(_ text: String?, setting: Setting, parameters: [ExpressionParameter]) throws -> LocatedExpression? {
        guard let text else { return nil }
        let rank = try LocatedExpression(text, origin: .setting(setting))
        try rank.check(.number, parameters: parameters, for: "a rank")
        try rank.requireNoPositionSeries(for: "a rank")
        return rank
    }

    /// The universe of `symbols`' windows, each read by `windows` (from a store, or bars a caller
    /// gives), with each symbol's execution configuration (its own synthetic book,
    /// profile or recorded book); the first symbol's is the portfolio's.
    /// - Throws: `InputError` for a symbol given twice or none; the loaders' errors.
    package static func universe(_ symbols: [String], windows: (String) throws -> CandleWindow,
                                 configuration: (String, CandleWindow) throws -> ExecutionConfig) throws
    -> (universe: PortfolioUniverse, config: ExecutionConfig) {
        guard !symbols.isEmpty else { throw InputError("no symbols in the list", setting: .symbol) }
        try Portfolio.requireDistinct(symbols)
        let loaded = try symbols.map { symbol in
            let window = try windows(symbol)
            return (window, try configuration(symbol, window))
        }
        return (PortfolioUniverse(windows: loaded.map(\.0), liquidity: loaded.map(\.1)), loaded[0].1)
    }

    /// The name the report gives the run: the strategy's, "rotation" without one.
    package var name: String { strategy?.name ?? "rotation" }

    /// The parameters the report records: the strategy's, else the rank's values by name.
    package var runParameters: [RunParameter] {
        parameters?.runParameters ?? values.sorted { $0.key < $1.key }.map { RunParameter($0.key, $0.value.runValue) }
    }

    /// Where the run read other series, for the manifest.
    package var otherSeries: OtherSeriesReader? { other ?? strategy?.otherSeries }

    /// The symbols traded on `universe`: each one's signals and rank on its window's bars.
    package func symbols(_ universe: PortfolioUniverse) throws -> [PortfolioSymbol] {
        let strategy = strategy, parameters = parameters, rank = rank, values = values, other = other
        return try universe.tradedSymbols({ candles, cache in
            (try strategy.map { try $0.signals(candles, parameters!, cache: cache) },
             try rank.map { try $0.values(on: candles, parameters: values, cache: cache, reading: other) })
        }, rules: rules, cache: IndicatorCache(), parallel: true)
    }

    /// The portfolio's rules as its report records them, for `symbols` symbols.
    package func portfolioParameters(symbols: Int) -> [RunParameter] {
        rules.parameters(symbols: symbols, rank: rank?.text)
    }

    /// The report of the run on `universe` with `config` (the first symbol's), as `bt portfolio
    /// --json` prints it: with the cost table when `costs`, statistics at `periodsPerYear` (nil:
    /// inferred), for the `commandLine` given; `timeframe()` names bars that carry none.
    package func report(_ universe: PortfolioUniverse, config: ExecutionConfig, periodsPerYear: Double?, costs: Bool,
                        monteCarlo: MonteCarlo.Settings? = nil, commandLine: [String] = [],
                        timeframe: () throws -> Timeframe? = { nil }) throws -> PortfolioReport {
        let symbols = try symbols(universe)
        let result = try Portfolio.run(symbols, rules: rules, config: config)
        var job = RunJob(strategy: name, parameters: runParameters, rules: strategy?.ruleParameters ?? [], config: config,
                         commandLine: commandLine)
        (job.portfolioWarmUp, job.otherSeries, job.monteCarlo) = (universe.warmUp, otherSeries, monteCarlo)
        let rules = rules
        return try job.report(result, slots: rules.slots(symbols: symbols.count), portfolio: portfolioParameters(symbols: symbols.count),
                              periodsPerYear: periodsPerYear, costs: { ppy in
            costs ? try CostSensitivity.run(portfolio: symbols, rules: rules, config: config, periodsPerYear: ppy) : nil
        }, requested: timeframe)
    }
}
