import BacktestCore

/// The statistics of a portfolio that its account's `Stats` (of `PortfolioResult.account`) do
/// not hold: how full the book was, how much of the account was invested, how much it traded,
/// and each symbol's part of the return and of the costs.
public struct PortfolioStats: Sendable {
    public var symbols: Int
    /// K.
    public var maxPositions: Int
    /// Mean and largest number of symbols held at a row's close.
    public var averagePositions: Double
    public var peakPositions: Int
    /// Mean over every row, flat ones included, and largest position share (Σ |position value|
    /// / equity) at a row's close; `avg_exposure` and `peak_exposure` in JSON. The
    /// `avg_position_share` statistic is the mean over the rows holding a position only.
    public var averagePositionShare: Double
    public var peakPositionShare: Double
    /// Notional traded one way (Σ `Fill.notional` over every fill / 2) over the mean equity.
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
        var shareSum = 0.0, peak = 0.0
        for t in 0..<n where r.equity[t] > 0 {
            let share = r.positionValue[t] / r.equity[t]
            shareSum += share
            peak = max(peak, share)
        }
        averagePositionShare = n == 0 ? .nan : shareSum / Double(n)
        peakPositionShare = peak
        let traded = r.fills.reduce(0) { $0 + $1.fill.notional }
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

    /// The share of rows at whose close the symbol was held: the symbol's `exposure`.
    public func exposure(_ c: PortfolioContribution) -> Double { rows > 0 ? Double(c.rowsHeld) / Double(rows) : .nan }

    /// The figures as JSON: `{"symbols", "max_positions", "avg_positions", "peak_positions",
    /// "avg_exposure", "peak_exposure", "turnover", "turnover_ann", "skipped_entries"}`.
    public var json: JSONValue {
        ["symbols": .int(symbols), "max_positions": .int(maxPositions), "avg_positions": .number(averagePositions),
         "peak_positions": .int(peakPositions), "avg_exposure": .number(averagePositionShare), "peak_exposure": .number(peakPositionShare),
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
