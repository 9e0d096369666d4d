import BacktestCore

/// The statistics a sweep or screen ranks by, computed with the same functions as `Stats` so a
/// sweep row equals `bt run`'s value for the same combination, but without the bootstrap,
/// regression and tail statistics that make the full set costly across thousands of runs.
///
/// - Complexity: O(bars + trades), a few passes over the per-bar returns.
public struct RunMetrics: Sendable, Equatable {
    /// Machine names, in column order.
    public static let names = [
        "total_return", "cagr", "sharpe", "sortino", "calmar", "omega", "max_drawdown", "volatility_ann",
        "trades", "win_rate", "profit_factor", "exposure", "fees_paid", "final_equity",
    ]

    /// The unit of each metric, as `Stats` gives the statistic of the same name.
    public static func unit(of name: String) -> Stat.Unit {
        switch name {
        case "total_return", "cagr", "max_drawdown", "volatility_ann", "win_rate", "exposure": return .fraction
        case "trades": return .count
        case "fees_paid", "final_equity": return .cash
        default: return .ratio
        }
    }

    /// Values in `names` order (NaN when undefined).
    public var values: [Double]
    /// Per-period (not annualised) Sharpe ratio, for the deflated Sharpe ratio.
    public var periodSharpe: Double

    public init(_ result: BacktestResult, periodsPerYear: Double) {
        self.init(result, returns: Performance.returns(equity: result.equity, initial: result.initialCash),
                  periodsPerYear: periodsPerYear)
    }

    /// The metrics when the caller already has `Performance.returns` of `result`.
    init(_ result: BacktestResult, returns: [Double], periodsPerYear: Double) {
        let trades = TradeStats(result.trades)
        let profile = ReturnProfile(returns)
        let sharpe = profile.sharpe(periodsPerYear: periodsPerYear)
        periodSharpe = sharpe / periodsPerYear.squareRoot()
        values = [
            result.finalEquity / result.initialCash - 1,
            profile.cagr(periodsPerYear: periodsPerYear),
            sharpe,
            profile.sortino(periodsPerYear: periodsPerYear),
            profile.calmar(periodsPerYear: periodsPerYear),
            profile.omega,
            profile.maxDrawdown,
            profile.annualVolatility(periodsPerYear: periodsPerYear),
            trades["trades"],
            trades["win_rate"],
            trades["profit_factor"],
            result.equity.isEmpty ? .nan
                : Double(result.position.lazy.filter { $0 != 0 }.count) / Double(result.equity.count),
            result.feesPaid,
            result.finalEquity,
        ]
    }

    public subscript(name: String) -> Double {
        Self.names.firstIndex(of: name).map { values[$0] } ?? .nan
    }

    /// Whether larger values of `metric` are better (drawdown is negative, so larger is better too).
    public static func higherIsBetter(_ metric: String) -> Bool {
        metric != "volatility_ann" && metric != "fees_paid"
    }

    /// Checks that `metric` is one of `names`; the error lists them.
    public static func validate(rankMetric metric: String) throws {
        guard names.contains(metric) else {
            let hint = Suggest.closest(to: metric, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("unknown metric\(hint) (valid: \(names.joined(separator: ", ")))", setting: .rank, value: metric)
        }
    }
}

extension TradeStats {
    subscript(name: String) -> Double {
        stats.first { $0.name == name }?.value ?? .nan
    }
}
