import BacktestCore

/// The statistics a sweep keeps per combination and ranks by: every statistic with a sweep
/// column, computed here only (`Stats` takes them from here, so a sweep row equals `bt run`'s
/// value for the same combination), without the bootstrap, regression and tail statistics that
/// make the full set costly across thousands of runs. Which ones, and in which column order, is
/// the table's sweep column (`Stat.sweepColumn`).
///
/// - Complexity: O(bars + trades), a few passes over the per-bar returns.
public struct SweepStats: Sendable, Equatable {
    /// The statistics a sweep computes, in column order.
    public static let columns: [Stat] = Stat.allCases.filter { $0.sweepColumn != nil }
        .sorted { $0.sweepColumn! < $1.sweepColumn! }

    /// Machine names, in column order.
    public static let names = columns.map(\.name)

    /// Values in `columns` order (NaN when undefined).
    public var values: [Double]
    /// Per-period (not annualised) Sharpe ratio, for the deflated Sharpe ratio.
    public var periodSharpe: Double

    /// Statistics already computed (`values` in `columns` order), as partial results store them.
    package init(values: [Double], periodSharpe: Double) {
        precondition(values.count == Self.columns.count, "one value per sweep column")
        self.values = values
        self.periodSharpe = periodSharpe
    }

    public init(_ result: BacktestResult, periodsPerYear: Double) {
        self.init(result, returns: ReturnStats.returns(equity: result.equity, initial: result.initialCash),
                  periodsPerYear: periodsPerYear)
    }

    /// The statistics when the caller already has `ReturnStats.returns` of `result`.
    init(_ result: BacktestResult, returns: [Double], periodsPerYear: Double) {
        let trades = TradeStats.counts(result.trades)
        let returnStats = ReturnStats(returns)
        let sharpe = returnStats.sharpe(periodsPerYear: periodsPerYear)
        periodSharpe = sharpe / periodsPerYear.squareRoot()
        values = Self.columns.map { stat in
            switch stat {
            case .totalReturn: return result.totalReturn
            case .cagr: return returnStats.cagr(periodsPerYear: periodsPerYear)
            case .sharpe: return sharpe
            case .sortino: return returnStats.sortino(periodsPerYear: periodsPerYear)
            case .calmar: return returnStats.calmar(periodsPerYear: periodsPerYear)
            case .omega: return returnStats.omega
            case .maxDrawdown: return returnStats.maxDrawdown
            case .volatilityAnn: return returnStats.annualVolatility(periodsPerYear: periodsPerYear)
            case .trades: return Double(result.trades.count)
            case .winRate: return trades.winRate
            case .profitFactor: return trades.profitFactor
            case .exposure: return result.exposure
            case .feesPaid: return result.feesPaid
            case .finalEquity: return result.finalEquity
            default: preconditionFailure("SweepStats does not compute '\(stat)', which has a sweep column")
            }
        }
    }

    /// The value of `stat`, NaN when a sweep does not compute it.
    public subscript(stat: Stat) -> Double {
        stat.sweepColumn.map { values[$0] } ?? .nan
    }

    /// The statistic called `name`, NaN when unknown or not computed by a sweep.
    public subscript(name: String) -> Double {
        Stat(rawValue: name).map { self[$0] } ?? .nan
    }

    /// The statistic called `name` with a sweep column, for ranking a sweep.
    /// - Throws: `InputError` (setting `.rank`) naming the closest one and listing the valid ones.
    public static func stat(named name: String) throws -> Stat {
        try stat(named: name, setting: .rank)
    }

    /// The statistic called `name` with a sweep column, given as `setting`.
    /// - Throws: `InputError` naming the closest one and listing the valid ones.
    public static func stat(named name: String, setting: Setting) throws -> Stat {
        guard let stat = Stat(rawValue: name), stat.sweepColumn != nil else {
            let hint = Suggest.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("unknown metric\(hint) (valid: \(names.joined(separator: ", ")))", setting: setting, value: name)
        }
        return stat
    }
}
