import BacktestCore

/// A statistic of a run; the cases, in output order, are the one table of statistics' names,
/// units, directions and sweep columns that stats, sweeps, screens, reports and tests read.
///
/// - `SweepStats` computes the cases with a sweep column, in column order (`sweep.csv`).
/// - `Stats` holds every case, in this order (the contract of `bt run --json`, `stats.csv` and
///   `screen.csv`): those with a sweep column from `SweepStats`, the others computed itself. A
///   case neither computes traps, and so does one computed twice.
/// - Screens, sweeps and heatmaps rank by `direction`; reports format by `unit`
///   (`Stat.formatted(_:)`).
///
/// Adding a statistic: a case here, its row in `definition`, its value in `SweepStats` when it
/// gets a sweep column, else in `Stats`.
public enum Stat: String, CaseIterable, Sendable, CustomStringConvertible {
    case start, end, bars
    case periodsPerYear = "periods_per_year"
    case exposure
    case avgPositionShare = "avg_position_share"
    case finalEquity = "final_equity"
    case peakEquity = "peak_equity"
    case totalReturn = "total_return"
    case grossReturn = "gross_return"
    case buyHoldReturn = "buy_hold_return"
    case cagr
    case volatilityAnn = "volatility_ann"
    case sharpe
    case sharpeCILow = "sharpe_ci_low"
    case sharpeCIHigh = "sharpe_ci_high"
    case psr, sortino, calmar, omega
    case maxDrawdown = "max_drawdown"
    case avgDrawdown = "avg_drawdown"
    case maxDrawdownDuration = "max_drawdown_duration"
    case maxDrawdownDurationDays = "max_drawdown_duration_days"
    case avgDrawdownDuration = "avg_drawdown_duration"
    case avgDrawdownDurationDays = "avg_drawdown_duration_days"
    case trades
    case winRate = "win_rate"
    case bestTrade = "best_trade"
    case worstTrade = "worst_trade"
    case avgTrade = "avg_trade"
    case maxTradeDuration = "max_trade_duration"
    case maxTradeDurationDays = "max_trade_duration_days"
    case avgTradeDuration = "avg_trade_duration"
    case avgTradeDurationDays = "avg_trade_duration_days"
    case profitFactor = "profit_factor"
    case expectancy, sqn, kelly
    case feesPaid = "fees_paid"
    case spreadCost = "spread_cost"
    case impactCost = "impact_cost"
    /// Borrow fees paid on shorts (`ExecutionConfig.borrowBps`), in cash like the fees.
    case borrowPaid = "borrow_paid"
    /// Margin interest on borrowed cash (`ExecutionConfig.marginRate`), in cash.
    case interestPaid = "interest_paid"
    /// A perpetual's funding paid net of funding received, in cash (negative: earned).
    case fundingPaid = "funding_paid"
    /// Positions a margin account's exchange closed.
    case liquidations
    /// The largest |position| × close / equity at a close.
    case maxLeverage = "max_leverage"
    /// The smallest backing equity / maintenance margin at a close with a position (NaN for a
    /// cash account).
    case minMarginRatio = "min_margin_ratio"
    case avgSlippageBps = "avg_slippage_bps"
    case partialFills = "partial_fills"
    case rejectedOrders = "rejected_orders"
    case alpha, beta, skew, kurtosis
    case var95 = "var_95"
    case cvar95 = "cvar_95"

    /// How a value is measured; decides formatting (fractions become percentages in human tables).
    public enum Unit: String, Sendable {
        /// A fraction of 1 (0.12 = 12%).
        case fraction
        /// A dimensionless ratio (Sharpe, profit factor).
        case ratio
        case bars
        case days
        case count
        /// Account currency.
        case cash
        case bps
        /// UTC seconds since the epoch; ISO-8601 in machine output.
        case time
        /// Bars per year used to annualise.
        case perYear = "per_year"
    }

    /// Which way a statistic ranks.
    public enum Direction: Sendable {
        /// Larger first. Drawdowns, VaR and CVaR are negative fractions, so this holds for them
        /// too; so does every statistic without a natural direction (start, bars, beta, skew...).
        case higherIsBetter
        case lowerIsBetter
    }

    /// One row of the table.
    public struct Definition: Sendable, Equatable {
        /// What the value measures; decides how it is formatted (`Stat.formatted(_:)`, `Stat.label`).
        public var unit: Unit
        public var direction: Direction
        /// The column of `sweep.csv` and `SweepStats.values`; nil for statistics a sweep leaves out
        /// because they cost too much across thousands of combinations (bootstrap, regression,
        /// tails, per-fill averages) or mean nothing per combination (start, bars).
        public var sweepColumn: Int?
    }

    /// The table.
    public var definition: Definition {
        func row(_ unit: Unit, _ direction: Direction = .higherIsBetter, sweep: Int? = nil) -> Definition {
            Definition(unit: unit, direction: direction, sweepColumn: sweep)
        }
        switch self {
        case .start:                   return row(.time)
        case .end:                     return row(.time)
        case .bars:                    return row(.bars)
        case .periodsPerYear:          return row(.perYear)
        case .exposure:                return row(.fraction, sweep: 11)
        case .avgPositionShare:        return row(.fraction)
        case .finalEquity:             return row(.cash, sweep: 13)
        case .peakEquity:              return row(.cash)
        case .totalReturn:             return row(.fraction, sweep: 0)
        case .grossReturn:             return row(.fraction)
        case .buyHoldReturn:           return row(.fraction)
        case .cagr:                    return row(.fraction, sweep: 1)
        case .volatilityAnn:           return row(.fraction, .lowerIsBetter, sweep: 7)
        case .sharpe:                  return row(.ratio, sweep: 2)
        case .sharpeCILow:             return row(.ratio)
        case .sharpeCIHigh:            return row(.ratio)
        case .psr:                     return row(.fraction)
        case .sortino:                 return row(.ratio, sweep: 3)
        case .calmar:                  return row(.ratio, sweep: 4)
        case .omega:                   return row(.ratio, sweep: 5)
        case .maxDrawdown:             return row(.fraction, sweep: 6)
        case .avgDrawdown:             return row(.fraction)
        case .maxDrawdownDuration:     return row(.bars, .lowerIsBetter)
        case .maxDrawdownDurationDays: return row(.days, .lowerIsBetter)
        case .avgDrawdownDuration:     return row(.bars, .lowerIsBetter)
        case .avgDrawdownDurationDays: return row(.days, .lowerIsBetter)
        case .trades:                  return row(.count, sweep: 8)
        case .winRate:                 return row(.fraction, sweep: 9)
        case .bestTrade:               return row(.fraction)
        case .worstTrade:              return row(.fraction)
        case .avgTrade:                return row(.fraction)
        case .maxTradeDuration:        return row(.bars)
        case .maxTradeDurationDays:    return row(.days)
        case .avgTradeDuration:        return row(.bars)
        case .avgTradeDurationDays:    return row(.days)
        case .profitFactor:            return row(.ratio, sweep: 10)
        case .expectancy:              return row(.cash)
        case .sqn:                     return row(.ratio)
        case .kelly:                   return row(.fraction)
        case .feesPaid:                return row(.cash, .lowerIsBetter, sweep: 12)
        case .spreadCost:              return row(.cash, .lowerIsBetter)
        case .impactCost:              return row(.cash, .lowerIsBetter)
        case .borrowPaid:              return row(.cash, .lowerIsBetter)
        case .interestPaid:            return row(.cash, .lowerIsBetter)
        case .fundingPaid:             return row(.cash, .lowerIsBetter)
        case .liquidations:            return row(.count, .lowerIsBetter)
        case .maxLeverage:             return row(.ratio, .lowerIsBetter)
        case .minMarginRatio:          return row(.ratio)
        case .avgSlippageBps:          return row(.bps, .lowerIsBetter)
        case .partialFills:            return row(.count, .lowerIsBetter)
        case .rejectedOrders:          return row(.count, .lowerIsBetter)
        case .alpha:                   return row(.fraction)
        case .beta:                    return row(.ratio)
        case .skew:                    return row(.ratio)
        case .kurtosis:                return row(.ratio)
        case .var95:                   return row(.fraction)
        case .cvar95:                  return row(.fraction)
        }
    }

    /// The snake_case machine name (`sharpe`, `max_drawdown`).
    public var name: String { rawValue }
    public var description: String { rawValue }
    public var unit: Unit { definition.unit }
    public var direction: Direction { definition.direction }
    public var higherIsBetter: Bool { direction == .higherIsBetter }
    public var sweepColumn: Int? { definition.sweepColumn }

    /// Whether `a` ranks before `b` by this statistic (NaN never does).
    @inline(__always)
    public func ranks(_ a: Double, before b: Double) -> Bool {
        higherIsBetter ? a > b : a < b
    }

    /// Every statistic's name, in output order.
    public static let names = allCases.map(\.name)

    /// Position in `allCases` (output order).
    var position: Int { Self.positions[self]! }
    private static let positions = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })

    /// The statistic called `name`, for ranking a screen.
    /// - Throws: `InputError` naming the closest statistic when `name` is not one.
    public static func named(_ name: String) throws -> Stat {
        guard let stat = Stat(rawValue: name) else {
            let hint = Suggest.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw InputError("unknown statistic\(hint)", setting: .rank, value: name)
        }
        return stat
    }
}
