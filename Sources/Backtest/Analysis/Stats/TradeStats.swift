import BacktestCore

/// Statistics of round trips, open trades (marked to the last close) included.
///
/// Definitions follow backtesting.py where it has them: win rate counts pnl > 0; best, worst and
/// average trade are `returnFraction`s (arithmetic mean); profit factor = gross profit / gross
/// loss in cash; expectancy = mean pnl per trade in cash; SQN (Van Tharp) = sqrt(trades) x
/// mean(pnl) / sd(pnl); Kelly = W - (1 - W) / (mean win / mean loss) on trade returns.
/// Durations are in bars and in days (exit time - entry time).
struct TradeStats {
    var stats: [Stat] = []

    init(_ trades: [Trade]) {
        func add(_ name: String, _ value: Double, _ unit: Stat.Unit) { stats.append(Stat(name, value, unit)) }
        let n = trades.count
        let returns = trades.map(\.returnFraction)
        let pnl = trades.map(\.pnl)
        let wins = returns.filter { $0 > 0 }, losses = returns.filter { $0 < 0 }
        let winRate = n == 0 ? Double.nan : Double(pnl.filter { $0 > 0 }.count) / Double(n)
        add("trades", Double(n), .count)
        add("win_rate", winRate, .fraction)
        add("best_trade", returns.max() ?? .nan, .fraction)
        add("worst_trade", returns.min() ?? .nan, .fraction)
        add("avg_trade", n == 0 ? .nan : GSL.mean(returns), .fraction)
        let bars = trades.map { Double($0.barsHeld) }
        let days = trades.map { Double($0.exitTime - $0.entryTime) / 86_400 }
        add("max_trade_duration", bars.max() ?? .nan, .bars)
        add("max_trade_duration_days", days.max() ?? .nan, .days)
        add("avg_trade_duration", n == 0 ? .nan : GSL.mean(bars), .bars)
        add("avg_trade_duration_days", n == 0 ? .nan : GSL.mean(days), .days)
        let grossProfit = pnl.filter { $0 > 0 }.reduce(0, +)
        let grossLoss = -pnl.filter { $0 < 0 }.reduce(0, +)
        add("profit_factor", grossLoss > 0 ? grossProfit / grossLoss : (grossProfit > 0 ? .infinity : .nan), .ratio)
        add("expectancy", n == 0 ? .nan : GSL.mean(pnl), .cash)
        let sd = GSL.standardDeviation(pnl)
        add("sqn", n > 1 && sd > 0 ? Double(n).squareRoot() * GSL.mean(pnl) / sd : .nan, .ratio)
        var kelly = Double.nan
        if !wins.isEmpty && !losses.isEmpty {
            let ratio = GSL.mean(wins) / -GSL.mean(losses)
            kelly = winRate - (1 - winRate) / ratio
        }
        add("kelly", kelly, .fraction)
    }
}
