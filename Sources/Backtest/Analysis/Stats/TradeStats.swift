import BacktestCore

/// Statistics of round trips, open trades (marked to the last close) included.
///
/// Definitions follow backtesting.py where it has them: win rate counts pnl > 0; best, worst and
/// average trade are `returnFraction`s (arithmetic mean); profit factor = gross profit / gross
/// loss in cash; expectancy = mean pnl per trade in cash; SQN (Van Tharp) = sqrt(trades) x
/// mean(pnl) / sd(pnl); Kelly = W - (1 - W) / (mean win / mean loss) on trade returns.
/// Durations are in bars and in days (exit time - entry time).
struct TradeStats {
    /// The trade statistics without a sweep column, in the table's order (`Stat`); the number of
    /// trades, the win rate and the profit factor are the sweep's (`counts`).
    var values: [(stat: Stat, value: Double)] = []

    init(_ trades: [Trade]) {
        func add(_ stat: Stat, _ value: Double) { values.append((stat, value)) }
        let n = trades.count
        let returns = trades.map(\.returnFraction)
        let pnl = trades.map(\.pnl)
        let wins = returns.filter { $0 > 0 }, losses = returns.filter { $0 < 0 }
        let counted = Self.counts(trades)
        let winRate = counted.winRate
        add(.bestTrade, returns.max() ?? .nan)
        add(.worstTrade, returns.min() ?? .nan)
        add(.avgTrade, n == 0 ? .nan : GSL.mean(returns))
        let bars = trades.map { Double($0.barsHeld) }
        let days = trades.map { Double($0.exitTime - $0.entryTime) / 86_400 }
        add(.maxTradeDuration, bars.max() ?? .nan)
        add(.maxTradeDurationDays, days.max() ?? .nan)
        add(.avgTradeDuration, n == 0 ? .nan : GSL.mean(bars))
        add(.avgTradeDurationDays, n == 0 ? .nan : GSL.mean(days))
        add(.expectancy, n == 0 ? .nan : GSL.mean(pnl))
        let sd = GSL.standardDeviation(pnl)
        add(.sqn, n > 1 && sd > 0 ? Double(n).squareRoot() * GSL.mean(pnl) / sd : .nan)
        var kelly = Double.nan
        if !wins.isEmpty && !losses.isEmpty {
            let ratio = GSL.mean(wins) / -GSL.mean(losses)
            kelly = winRate - (1 - winRate) / ratio
        }
        add(.kelly, kelly)
    }

    /// Win rate (pnl > 0 over trades; NaN without trades) and profit factor (gross profit over
    /// gross loss in cash, each summed in trade order; +inf without a loss, NaN without either):
    /// the trade statistics a sweep ranks by, in one pass without the others' arrays.
    static func counts(_ trades: [Trade]) -> (winRate: Double, profitFactor: Double) {
        var wins = 0
        var grossProfit = 0.0, losses = 0.0
        for t in trades {
            let p = t.pnl
            if p > 0 { wins += 1; grossProfit += p } else if p < 0 { losses += p }
        }
        let grossLoss = -losses
        return (trades.isEmpty ? .nan : Double(wins) / Double(trades.count),
                grossLoss > 0 ? grossProfit / grossLoss : (grossProfit > 0 ? .infinity : .nan))
    }
}
