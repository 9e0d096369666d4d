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
        let fromReturns = Self.returnValues(returns, periodsPerYear: periodsPerYear)
        periodSharpe = fromReturns.periodSharpe
        // Each column is in exactly one of the two lists (`runColumns` is the rest), at its sweep column.
        var values = [Double](repeating: .nan, count: Self.columns.count)
        for (stat, value) in fromReturns.values + Self.runValues(result) { values[stat.sweepColumn!] = value }
        self.values = values
    }

    /// The columns computed from the per-bar returns (`returnValues`); the others are read off
    /// the run and its trades (`runValues`), without the returns or the periods per year.
    static let returnColumns: [Stat] = columns.filter { [.cagr, .sharpe, .sortino, .calmar, .omega, .maxDrawdown, .volatilityAnn].contains($0) }
    /// The columns read off the run and its trades, in column order.
    static let runColumns: [Stat] = columns.filter { !returnColumns.contains($0) }

    /// The `runColumns` of `result`: what `init` gives them, to the bit.
    static func runValues(_ result: BacktestResult) -> [(Stat, Double)] {
        let trades = TradeStats.counts(result.trades)
        return runColumns.map { stat in
            switch stat {
            case .totalReturn: return (stat, result.totalReturn)
            case .trades: return (stat, Double(result.trades.count))
            case .winRate: return (stat, trades.winRate)
            case .profitFactor: return (stat, trades.profitFactor)
            case .exposure: return (stat, result.exposure)
            case .feesPaid: return (stat, result.feesPaid)
            case .finalEquity: return (stat, result.finalEquity)
            default: preconditionFailure("SweepStats does not compute '\(stat)' from the run")
            }
        }
    }

    /// The `returnColumns` of per-bar `returns` (`ReturnStats.returns`) at `periodsPerYear`, and
    /// the per-period Sharpe ratio: what `init` gives them, to the bit.
    static func returnValues(_ returns: [Double], periodsPerYear: Double) -> (values: [(Stat, Double)], periodSharpe: Double) {
        let returnStats = ReturnStats(returns)
        let sharpe = returnStats.sharpe(periodsPerYear: periodsPerYear)
        let values = returnColumns.map { stat -> (Stat, Double) in
            switch stat {
            case .cagr: return (stat, returnStats.cagr(periodsPerYear: periodsPerYear))
            case .sharpe: return (stat, sharpe)
            case .sortino: return (stat, returnStats.sortino(periodsPerYear: periodsPerYear))
            case .calmar: return (stat, returnStats.calmar(periodsPerYear: periodsPerYear))
            case .omega: return (stat, returnStats.omega)
            case .maxDrawdown: return (stat, returnStats.maxDrawdown)
            case .volatilityAnn: return (stat, returnStats.annualVolatility(periodsPerYear: periodsPerYear))
            default: preconditionFailure("SweepStats does not compute '\(stat)' from the returns")
            }
        }
        return (values, sharpe / periodsPerYear.squareRoot())
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
