import BacktestCore
import Foundation

/// Every statistic of a run, in a fixed order, computed from a `BacktestResult`.
///
/// Return-based measures use per-bar equity returns over the whole run, flat bars included,
/// anchored at the initial cash (`Performance.returns`). Names, order and units are the
/// `bt run --json` / `stats.csv` contract; see `Stats.names`.
public struct Stats: Sendable {
    public private(set) var all: [Stat]
    /// Bars per year used to annualise (inferred or given).
    public let periodsPerYear: Double

    /// Computes every statistic.
    /// - Parameters:
    ///   - periodsPerYear: bars per year; nil infers it from the candle times (`PeriodsPerYear.infer`).
    ///   - bootstrap: settings of the Sharpe confidence interval.
    /// - Complexity: O(n) plus the bootstrap's O(resamples x n / L), L the mean block length.
    public init(_ result: BacktestResult, periodsPerYear: Double? = nil,
                bootstrap: Uncertainty.Bootstrap = .standard) {
        let ppy = periodsPerYear ?? PeriodsPerYear.infer(from: result.candles.time)
        precondition(ppy > 0, "periods per year must be positive")
        self.periodsPerYear = ppy
        let candles = result.candles
        let n = result.equity.count
        let returns = Performance.returns(equity: result.equity, initial: result.initialCash)
        var s = [Stat]()
        func add(_ name: String, _ value: Double, _ unit: Stat.Unit) { s.append(Stat(name, value, unit)) }

        add("start", candles.time.first.map(Double.init) ?? .nan, .time)
        add("end", candles.time.last.map(Double.init) ?? .nan, .time)
        add("bars", Double(n), .bars)
        add("periods_per_year", ppy, .perYear)
        add("exposure", n == 0 ? .nan : Double(result.position.lazy.filter { $0 != 0 }.count) / Double(n), .fraction)
        add("avg_position_share", Self.averagePositionShare(result), .fraction)
        add("final_equity", result.finalEquity, .cash)
        add("peak_equity", max(result.initialCash, result.equity.max() ?? result.initialCash), .cash)
        add("total_return", result.finalEquity / result.initialCash - 1, .fraction)
        let split = result.costSplit
        add("gross_return", split.grossReturn, .fraction)
        let bh = Self.buyHoldReturns(candles.close)
        add("buy_hold_return", candles.close.count > 0 ? candles.close[candles.count - 1] / candles.close[0] - 1 : .nan, .fraction)
        let profile = ReturnProfile(returns)
        add("cagr", profile.cagr(periodsPerYear: ppy), .fraction)
        add("volatility_ann", profile.annualVolatility(periodsPerYear: ppy), .fraction)
        let sharpe = profile.sharpe(periodsPerYear: ppy)
        add("sharpe", sharpe, .ratio)
        let ci = Uncertainty.sharpeInterval(returns, periodsPerYear: ppy, bootstrap: bootstrap)
        add("sharpe_ci_low", ci.low, .ratio)
        add("sharpe_ci_high", ci.high, .ratio)
        add("psr", Uncertainty.probabilisticSharpe(returns), .fraction)
        add("sortino", profile.sortino(periodsPerYear: ppy), .ratio)
        add("calmar", profile.calmar(periodsPerYear: ppy), .ratio)
        add("omega", profile.omega, .ratio)

        let dd = DrawdownEpisodes(equity: result.equity, initial: result.initialCash, time: candles.time)
        add("max_drawdown", profile.maxDrawdown, .fraction)
        add("avg_drawdown", dd.averageDepth, .fraction)
        add("max_drawdown_duration", dd.maxBars, .bars)
        add("max_drawdown_duration_days", dd.maxDays, .days)
        add("avg_drawdown_duration", dd.averageBars, .bars)
        add("avg_drawdown_duration_days", dd.averageDays, .days)

        for stat in TradeStats(result.trades).stats { s.append(stat) }
        add("fees_paid", result.feesPaid, .cash)
        add("spread_cost", split.spread, .cash)
        add("impact_cost", split.impact, .cash)
        let filled = result.fills.filter { $0.quantityFilled > 0 }
        add("avg_slippage_bps", filled.isEmpty ? .nan : GSL.mean(filled.map(\.slippageBps)), .bps)
        add("partial_fills", Double(result.partialFills), .count)
        add("rejected_orders", Double(result.rejected.count), .count)

        let fit = try? GSL.fitLinear(x: bh, y: returns)
        add("alpha", fit.map { pow(1 + $0.intercept, ppy) - 1 } ?? .nan, .fraction)
        add("beta", fit?.slope ?? .nan, .ratio)
        add("skew", GSL.skew(returns), .ratio)
        add("kurtosis", GSL.kurtosis(returns), .ratio)
        let sorted = GSL.sorted(returns)
        let var95 = GSL.quantile(sorted: sorted, 0.05)
        add("var_95", var95, .fraction)
        let tail = sorted.prefix { $0 <= var95 }
        add("cvar_95", tail.isEmpty ? .nan : GSL.mean(Array(tail)), .fraction)
        all = s
    }

    /// The statistic called `name`, NaN when unknown.
    public subscript(name: String) -> Double {
        all.first { $0.name == name }?.value ?? .nan
    }

    /// Machine names in output order (the contract of `--json` and `stats.csv`).
    public var names: [String] { all.map(\.name) }

    /// Every statistic's machine name in output order, without computing anything (a test keeps
    /// it equal to `names`).
    public static let allNames = [
        "start", "end", "bars", "periods_per_year", "exposure", "avg_position_share", "final_equity", "peak_equity",
        "total_return", "gross_return", "buy_hold_return", "cagr", "volatility_ann", "sharpe", "sharpe_ci_low", "sharpe_ci_high", "psr",
        "sortino", "calmar", "omega", "max_drawdown", "avg_drawdown", "max_drawdown_duration",
        "max_drawdown_duration_days", "avg_drawdown_duration", "avg_drawdown_duration_days",
        "trades", "win_rate", "best_trade", "worst_trade", "avg_trade", "max_trade_duration",
        "max_trade_duration_days", "avg_trade_duration", "avg_trade_duration_days", "profit_factor",
        "expectancy", "sqn", "kelly",
        "fees_paid", "spread_cost", "impact_cost", "avg_slippage_bps", "partial_fills", "rejected_orders", "alpha", "beta", "skew", "kurtosis",
        "var_95", "cvar_95",
    ]

    /// The mean over bars that end in a position of |position × close| / equity: how much of the
    /// account the position is when there is one (NaN without such bars). Next to `exposure`, it
    /// shows runs whose orders filled only partly.
    static func averagePositionShare(_ r: BacktestResult) -> Double {
        var sum = 0.0, count = 0
        for t in r.position.indices where r.position[t] != 0 && r.equity[t] > 0 {
            sum += abs(r.position[t] * r.candles.close[t]) / r.equity[t]
            count += 1
        }
        return count == 0 ? .nan : sum / Double(count)
    }

    /// Close-to-close returns of holding the asset, aligned with the strategy's per-bar returns
    /// (the first bar's return is 0: buying at the first close).
    static func buyHoldReturns(_ close: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: close.count)
        for i in close.indices.dropFirst() where close[i - 1] != 0 { out[i] = close[i] / close[i - 1] - 1 }
        return out
    }
}
