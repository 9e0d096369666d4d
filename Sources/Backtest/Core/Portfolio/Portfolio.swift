/// Portfolios across symbols: one account (cash or margin), a limited number of slots per side, a ranking that
/// decides which signals to take, rebalancing and rotation; every fill through the same fill
/// model as `Engine.run`.
public enum Portfolio {
    /// Runs `symbols` as one portfolio under `rules` and `config`.
    ///
    /// Semantics (docs/design/portfolio-reference.md; vectorbt's `from_orders` with target percents,
    /// shared cash and `call_seq="auto"` where vectorbt has an equivalent):
    /// - **Clock.** Rows are the union of the symbols' bar times. A symbol trades only on its own
    ///   bars: a signal at its bar t's close fills at its next bar's open (`--fill close`: at
    ///   t's close). Without a bar at a row it is valued at its last close, never later prices.
    /// - **Orders of a bar.** The planner (`PortfolioRules`) decides target weights; the group
    ///   value V = cash + Σ position × price is taken once, before any order (prices: the bar's
    ///   open for symbols with a bar, else their last close), and every target is a share of V.
    ///   Orders run sells first (ascending target value − current value, ties by symbol), so
    ///   sales free cash before buys and, among buys, the largest runs last and is the one the
    ///   cash cuts. A buy of Δ shares pays its fee on top and is capped by the cash (`Broker`'s
    ///   all-in rule); it goes through the symbol's own liquidity model and participation cap.
    /// - **Stops** are checked per symbol as `Engine.run` checks them; a stopped position frees
    ///   its slot. An exit that fills only partly is sent again at the symbol's next bars.
    /// - **Accounting.** Equity = cash + Σ position × multiplier × close (last close without a
    ///   bar; inverse contracts, in their one coin: cash − Σ position × multiplier / close); final equity = initial cash + Σ round-trip PnL; a cash account's cash never goes
    ///   below 0 (a margin account's may, `PortfolioAccount`). Debug builds check the ledger
    ///   against the fills after the run.
    /// - **Margin and shorts**: `PortfolioAccount` (liquidation, funding, borrow, interest) and
    ///   `PortfolioSimulation+Shorts` (the long/short book of `config.allowShort`).
    ///
    /// - Complexity: O(rows x active symbols) for the loop (no allocation per row), plus
    ///   O(symbols x rows / rebalance interval) under rotation and O(signals log) for events.
    /// - Throws: `InputError` for an out-of-range setting, an empty or duplicate symbol, a cash
    ///   symbol beside a margin one, symbols settling in different currencies (quote and coin, or
    ///   two coins), what a long/short book does not take, a neutral book without
    ///   shorts, with one symbol, sized in units or pyramiding.
    public static func run(_ symbols: [PortfolioSymbol], rules: PortfolioRules, config: ExecutionConfig) throws -> PortfolioResult {
        let sorted = try prepare(symbols, config: config)
        let ranked = !sorted.isEmpty && sorted.allSatisfy { $0.rank != nil }
        try rules.validate(ranked: ranked)
        try validate(rules, symbols: sorted.count, config: config)
        if rules.rotate && !config.entries.isMarket {
            throw InputError("a rotation holds the top symbols at each rebalance with market orders: limit and stop entries "
                             + "need entry signals", setting: config.entries.limit != nil ? .entryLimit : .entryStop)
        }
        if !rules.rotate {
            for s in sorted {
                precondition(s.signals != nil, "a portfolio that follows signals needs each symbol's signals")
            }
        }
        var simulation = PortfolioSimulation(sorted, rules: rules, config: config,
                                             mode: rules.rotate ? .rotation : .signals, inputs: try inputs(sorted, config))
        return simulation.run()
    }

    /// Throws `InputError` for what a market-neutral book (`rules.neutral`) does not take: no
    /// shorts, one symbol, pyramiding, sizes in units. Nothing without `neutral`.
    public static func validate(_ rules: PortfolioRules, symbols: Int, config: ExecutionConfig) throws {
        guard rules.neutral else { return }
        guard config.allowShort else {
            throw InputError(.needsSetting, "a market-neutral book balances a long leg against a short leg: it needs shorts",
                             setting: .short)
        }
        guard symbols > 1 else {
            throw InputError("a market-neutral book holds a long and a short at once: it needs two symbols or more", setting: .neutral)
        }
        if config.entries.pyramid > 1 {
            throw InputError("a market-neutral book sizes each leg by its members: stacked entries would unbalance it", setting: .pyramid)
        }
        if case .units = config.sizing {
            throw InputError("a market-neutral book sizes by value (N% or N$): units of different prices are not equal notionals",
                             setting: .size)
        }
    }

    /// Executes given target orders (row, symbol index into the symbols sorted by name, target
    /// share of the portfolio's value) with the portfolio's executor and no planner: the
    /// executor alone, for tests against hand-made target tables. Orders on a row where their
    /// symbol has no bar are ignored.
    package static func execute(_ symbols: [PortfolioSymbol], orders: [PortfolioOrder], config: ExecutionConfig) throws -> PortfolioResult {
        let sorted = try prepare(symbols, config: config)
        var simulation = PortfolioSimulation(sorted, rules: PortfolioRules(maxPositions: max(1, sorted.count)), config: config,
                                             mode: .table(orders.sorted { ($0.row, $0.symbol) < ($1.row, $1.symbol) }))
        return simulation.run()
    }

    /// The order and exit expressions' values on each symbol's candles, computed on its history
    /// when it has one (nil when there are none: market entries, exit distances all fractions).
    private static func inputs(_ symbols: [PortfolioSymbol], _ config: ExecutionConfig) throws -> [OrderInputs]? {
        guard !config.exits.expressions.isEmpty || !config.entries.isMarket else { return nil }
        return try symbols.map { s in
            try OrderInputs(config, candles: s.history ?? s.candles, cache: IndicatorCache(), runBars: s.candles.count)
        }
    }

    /// What a long/short book (`--short`) cannot do yet: sizes by risk or volatility.
    private static func validateBook(_ config: ExecutionConfig) throws {
        switch config.sizing {
        case .risk, .volatility: throw InputError("a long/short portfolio sizes by N%, N$ or Nu", setting: .size)
        default: break
        }
    }

    /// Throws `InputError` for the first symbol of `symbols` given a second time.
    public static func requireDistinct(_ symbols: [String]) throws {
        var seen = Set<String>()
        for symbol in symbols where !seen.insert(symbol).inserted {
            throw InputError("symbol \(symbol) is given twice", setting: .symbol, value: symbol)
        }
    }

    /// Throws `InputError` unless every symbol settles in one currency, the account's: all
    /// linear (the quote currency), or all inverse contracts of one coin (`Instrument.settlementCoin`;
    /// with several symbols, each one's coin must be told by its name). An inverse symbol's
    /// prices must be above 0.
    static func requireOneCurrency(_ symbols: [PortfolioSymbol], config: ExecutionConfig) throws {
        let inverse = symbols.filter { config.trading($0.liquidity).instrument.isInverse }
        guard !inverse.isEmpty else { return }
        if let linear = symbols.first(where: { !config.trading($0.liquidity).instrument.isInverse }) {
            throw InputError("one account settles in one currency: \(linear.symbol) (\(config.trading(linear.liquidity).instrument.rawValue)) "
                             + "settles in its quote currency, \(inverse[0].symbol) (inverse-perp) in its coin", setting: .instrument,
                             value: Instrument.inversePerp.rawValue)
        }
        for s in symbols { try config.trading(s.liquidity).validatePrices(s.candles) }
        guard symbols.count > 1 else { return }
        var coins: [(symbol: String, coin: String)] = []
        for s in symbols {
            guard let coin = Instrument.settlementCoin(symbol: s.symbol) else {
                throw InputError("\(s.symbol): an inverse contract settles in its base coin, which cannot be told from this name "
                                 + "(it does not end in USD, USDT or USDC): one account holds contracts of one coin", setting: .instrument,
                                 value: Instrument.inversePerp.rawValue)
            }
            coins.append((s.symbol, coin))
        }
        if let other = coins.first(where: { $0.coin != coins[0].coin }) {
            throw InputError("one account settles in one coin: \(coins[0].symbol) settles in \(coins[0].coin), \(other.symbol) in "
                             + "\(other.coin) (run each coin's contracts as a portfolio of their own)", setting: .instrument,
                             value: Instrument.inversePerp.rawValue)
        }
    }

    /// The symbols sorted by name, after checking the inputs.
    private static func prepare(_ symbols: [PortfolioSymbol], config: ExecutionConfig) throws -> [PortfolioSymbol] {
        try config.validate()
        if let c = config.conventions {
            throw InputError("reproduces one symbol's run in \(c.rawValue): a portfolio follows bt's own rules", setting: .conventions, value: c.rawValue)
        }
        if config.allowShort { try validateBook(config) }
        for s in symbols where s.liquidity != nil {
            do { try config.trading(s.liquidity).validate() } catch var e as InputError {
                e.reason = "\(s.symbol): " + e.reason
                throw e
            }
        }
        try requireOneCurrency(symbols, config: config)
        let accounts = Set(symbols.map { config.trading($0.liquidity).isMarginAccount })
        if accounts.count > 1 {
            throw InputError("a portfolio's symbols share one account: spot at leverage 1 (a cash account) cannot hold a perp or a "
                             + "future beside it; give \(Setting.leverage.mention) above 1 for a margin account", setting: .instrument)
        }
        for s in symbols {
            guard let rules = s.signals?.positionRules else { continue }
            if config.allowShort && rules.exit != nil {
                throw InputError("a long/short portfolio's exit rules cannot read the position yet (a long-only one's can)",
                                 setting: .exit)
            }
            if rules.entry != nil || rules.shortEntry != nil || rules.shortExit != nil {
                throw InputError("a portfolio's entry rules decide which flat symbols compete for a slot: they cannot read "
                                 + "the position (its exit rules can)", setting: .entry)
            }
        }
        guard !symbols.isEmpty else { throw InputError("a portfolio needs at least one symbol") }
        try requireDistinct(symbols.map(\.symbol))
        let sorted = symbols.sorted { $0.symbol < $1.symbol }
        for s in sorted {
            guard !s.candles.isEmpty else { throw InputError("no candles for \(s.symbol)", setting: .symbol, value: s.symbol) }
            if let signals = s.signals {
                precondition(signals.count == s.candles.count, "signals must have one element per bar of \(s.symbol)")
            }
            if let rank = s.rank { precondition(rank.count == s.candles.count, "the rank must have one value per bar of \(s.symbol)") }
            if let v = s.volatility { precondition(v.count == s.candles.count, "the volatility must have one value per bar of \(s.symbol)") }
            if let liquidity = s.liquidity { try liquidity.validate() }
        }
        if sorted.contains(where: { $0.rank != nil }) && !sorted.allSatisfy({ $0.rank != nil }) {
            preconditionFailure("give a rank for every symbol or for none")
        }
        return sorted
    }
}
