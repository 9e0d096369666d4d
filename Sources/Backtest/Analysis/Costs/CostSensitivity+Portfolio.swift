import BacktestCore

extension CostSensitivity {
    /// The cost table and break-even fee of a portfolio: `Portfolio.run` again at each
    /// multiplier (fees and every symbol's depth scaled, as `ExecutionConfig.scalingCosts`) and,
    /// for the break-even, with the taker fee varied (every symbol's: each trades its own schedule)
    /// and depth as configured.
    public static func run(portfolio symbols: [PortfolioSymbol], rules: PortfolioRules, config: ExecutionConfig,
                           periodsPerYear: Double? = nil) throws -> CostSensitivity {
        try CostSensitivity(periodsPerYear: periodsPerYear,
                            run: { m in
                                let scaled = symbols.map { s -> PortfolioSymbol in
                                    var s = s
                                    s.liquidity = s.liquidity?.scalingCosts(by: m)
                                    return s
                                }
                                return try Portfolio.run(scaled, rules: rules, config: config.scalingCosts(by: m)).account
                            },
                            totalReturn: { fee in
                                var c = config
                                c.feeBps = min(fee, 9_999)
                                // Every symbol at that taker rate: each trades its own fee schedule.
                                let charged = symbols.map { s -> PortfolioSymbol in
                                    var s = s
                                    s.liquidity?.feeBps = c.feeBps
                                    return s
                                }
                                let r = try Portfolio.run(charged, rules: rules, config: c)
                                return r.account.totalReturn
                            })
    }
}
