import BacktestCore

/// What a portfolio's statistics (`Stats` of `PortfolioResult.account`) do not show: how full
/// the book was, how much of the account was invested, how much it traded, and each symbol's
/// part of the return and of the costs.
public struct PortfolioFigures: Sendable {
    public var symbols: Int
    /// K.
    public var maxPositions: Int
    /// Mean and largest number of symbols held at a row's close.
    public var averagePositions: Double
    public var peakPositions: Int
    /// Mean and largest Σ |position value| / equity at a row's close.
    public var averageExposure: Double
    public var peakExposure: Double
    /// Notional traded one way (Σ VWAP × quantity over every fill / 2) over the mean equity.
    public var turnover: Double
    /// `turnover` per year (× periods per year / rows).
    public var annualTurnover: Double
    /// Entry signals dropped for want of a slot.
    public var skippedEntries: Int
    /// Per symbol, in symbol order.
    public var contributions: [PortfolioContribution]
    public var initialCash: Double
    public var rows: Int

    /// - Complexity: O(rows + fills + symbols).
    public init(_ r: PortfolioResult, slots: Int, periodsPerYear: Double) {
        symbols = r.symbols.count
        maxPositions = slots
        let n = r.time.count
        rows = n
        initialCash = r.initialCash
        averagePositions = n == 0 ? .nan : Double(r.positions.reduce(0, +)) / Double(n)
        peakPositions = r.positions.max() ?? 0
        var exposureSum = 0.0, peak = 0.0
        for t in 0..<n where r.equity[t] > 0 {
            let e = r.positionValue[t] / r.equity[t]
            exposureSum += e
            peak = max(peak, e)
        }
        averageExposure = n == 0 ? .nan : exposureSum / Double(n)
        peakExposure = peak
        let traded = r.fills.reduce(0) { $0 + $1.fill.vwap * $1.fill.quantityFilled }
        let meanEquity = n == 0 ? .nan : r.equity.reduce(0, +) / Double(n)
        turnover = meanEquity > 0 ? traded / 2 / meanEquity : .nan
        annualTurnover = n > 0 ? turnover * periodsPerYear / Double(n) : .nan
        skippedEntries = r.skippedEntries
        contributions = r.contributions
    }

    /// A symbol's PnL as a share of the initial cash: the shares add up to the total return.
    public func contribution(_ c: PortfolioContribution) -> Double { c.pnl / initialCash }

    /// A symbol's fees, spread and impact.
    public func costs(_ c: PortfolioContribution) -> Double { c.fees + c.spread + c.impact }

    /// A symbol's share of all trading costs (NaN when nothing was paid).
    public func costShare(_ c: PortfolioContribution) -> Double {
        let all = contributions.reduce(0) { $0 + costs($1) }
        return all > 0 ? costs(c) / all : .nan
    }

    /// The share of rows at whose close the symbol was held.
    public func exposure(_ c: PortfolioContribution) -> Double { rows > 0 ? Double(c.rowsHeld) / Double(rows) : .nan }

    /// The figures as JSON: `{"symbols", "max_positions", "avg_positions", "peak_positions",
    /// "avg_exposure", "peak_exposure", "turnover", "turnover_ann", "skipped_entries"}`.
    public var json: JSONValue {
        ["symbols": .int(symbols), "max_positions": .int(maxPositions), "avg_positions": .number(averagePositions),
         "peak_positions": .int(peakPositions), "avg_exposure": .number(averageExposure), "peak_exposure": .number(peakExposure),
         "turnover": .number(turnover), "turnover_ann": .number(annualTurnover), "skipped_entries": .int(skippedEntries)]
    }

    /// Each symbol as JSON: `{"symbol", "bars", "trades", "win_rate", "pnl", "contribution",
    /// "fees", "spread", "impact", "costs", "cost_share", "traded", "exposure", "rejected",
    /// "skipped_entries"}` (cash, fractions).
    public var symbolsJSON: JSONValue {
        .array(contributions.map { c in
            ["symbol": .string(c.symbol), "bars": .int(c.bars), "trades": .int(c.trades),
             "win_rate": .number(c.trades > 0 ? Double(c.wins) / Double(c.trades) : .nan), "pnl": .number(c.pnl),
             "contribution": .number(contribution(c)), "fees": .number(c.fees), "spread": .number(c.spread),
             "impact": .number(c.impact), "costs": .number(costs(c)), "cost_share": .number(costShare(c)),
             "traded": .number(c.traded), "exposure": .number(exposure(c)), "rejected": .int(c.rejected),
             "skipped_entries": .int(c.skippedEntries)]
        })
    }
}

extension CostSensitivity {
    /// The cost table and break-even fee of a portfolio: `Portfolio.run` again at each
    /// multiplier (fees and every symbol's depth scaled, as `ExecutionConfig.scalingCosts`) and,
    /// for the break-even, with the fee varied and depth as configured.
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
                                let r = try Portfolio.run(symbols, rules: rules, config: c)
                                return r.account.totalReturn
                            })
    }
}
