import BacktestCore

/// Statistics of round trips, open trades (marked to the last close) included.
///
/// Definitions follow backtesting.py where it has them: win rate counts pnl > 0; best, worst and
/// average trade are `returnFraction`s (arithmetic mean); profit factor = gross profit / gross
/// loss in cash; expectancy = mean pnl per trade in cash; SQN (Van Tharp) = sqrt(trades) x
/// mean(pnl) / sd(pnl); Kelly = W - (1 - W) / (mean win / mean loss) on trade returns.
/// Durations are in bars and in days (exit time - entry time).
struct TradeStats {
    /// The trade statistics of the metric table, in its order.
    var values: [(metric: Metric, value: Double)] = []

    init(_ trades: [Trade]) {
        func add(_ metric: Metric, _ value: Double) { values.append((metric, value)) }
        let n = trades.count
        let returns = trades.map(\.returnFraction)
        let pnl = trades.map(\.pnl)
        let wins = returns.filter { $0 > 0 }, losses = returns.filter { $0 < 0 }
        let winRate = n == 0 ? Double.nan : Double(pnl.filter { $0 > 0 }.count) / Double(n)
        add(.trades, Double(n))
        add(.winRate, winRate)
        add(.bestTrade, returns.max() ?? .nan)
        add(.worstTrade, returns.min() ?? .nan)
        add(.avgTrade, n == 0 ? .nan : GSL.mean(returns))
        let bars = trades.map { Double($0.barsHeld) }
        let days = trades.map { Double($0.exitTime - $0.entryTime) / 86_400 }
        add(.maxTradeDuration, bars.max() ?? .nan)
        add(.maxTradeDurationDays, days.max() ?? .nan)
        add(.avgTradeDuration, n == 0 ? .nan : GSL.mean(bars))
        add(.avgTradeDurationDays, n == 0 ? .nan : GSL.mean(days))
        let grossProfit = pnl.filter { $0 > 0 }.reduce(0, +)
        let grossLoss = -pnl.filter { $0 < 0 }.reduce(0, +)
        add(.profitFactor, grossLoss > 0 ? grossProfit / grossLoss : (grossProfit > 0 ? .infinity : .nan))
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

    /// The value of `metric`, NaN when it is not a trade statistic.
    subscript(metric: Metric) -> Double {
        values.first { $0.metric == metric }?.value ?? .nan
    }
}
