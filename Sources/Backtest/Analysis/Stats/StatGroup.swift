import BacktestCore
import Foundation

/// What the statistics of one run are computed from, each part made once when first asked
/// for: the per-bar returns (anchored at the initial cash, `ReturnStats.returns`) and the
/// drawdown curve. `Stats` asks for every part; `Stats.value(_:of:)` for one group's.
final class StatInputs {
    let result: BacktestResult
    /// Bars per year: given, or inferred from the candle times (`PeriodsPerYear.infer`, a pass
    /// over every bar) when first asked for, so the statistics that do not annualise skip it.
    private(set) lazy var periodsPerYear: Double = {
        let ppy = periods()
        precondition(ppy > 0, "periods per year must be positive")
        return ppy
    }()
    private let periods: () -> Double
    private(set) lazy var returns = ReturnStats.returns(equity: result.equity, initial: result.initialCash)
    /// The returns' `GSL.mean` and standard deviation about it, for the moments and the PSR.
    private(set) lazy var moments: (mean: Double, sd: Double) = {
        let mean = GSL.mean(returns)
        return (mean, GSL.standardDeviation(returns, mean: mean))
    }()
    private(set) var drawdowns: DrawdownEpisodes?

    /// - Parameter periodsPerYear: nil infers it from the candle times, when first needed.
    convenience init(_ result: BacktestResult, periodsPerYear: Double?) {
        self.init(result) { periodsPerYear ?? PeriodsPerYear.infer(from: result.candles.time) }
    }

    /// - Parameter periods: the bars per year, called once, when a statistic first needs them.
    init(_ result: BacktestResult, periods: @escaping () -> Double) {
        self.result = result
        self.periods = periods
    }

    func drawdownEpisodes() -> DrawdownEpisodes {
        if let drawdowns { return drawdowns }
        let made = DrawdownEpisodes(equity: result.equity, initial: result.initialCash, time: result.candles.time)
        drawdowns = made
        return made
    }
}

/// The statistics computed together, from what they share: reading one statistic computes its
/// group alone (`Stats.value(_:of:)`), so a notebook asking for the final equity does not wait
/// for the Sharpe interval's bootstrap. Each statistic is in exactly one group.
enum StatGroup: CaseIterable {
    /// The statistics with a sweep column computed from the per-bar returns, as a sweep
    /// computes them (`SweepStats.returnValues`).
    case swept
    /// The statistics with a sweep column read off the run and its trades (`SweepStats.runValues`):
    /// the final equity, the total return, the trade count, ... without the returns.
    case sweptRun
    /// Read off the run: its span, bars, buy and hold, liquidations, margin and fills.
    case run
    /// The periods per year used (given, else inferred from the times).
    case periods
    /// Read off each bar's position and equity: the average position share, the peak equity and
    /// the largest leverage.
    case positions
    /// The Sharpe interval (a bootstrap of the returns) and the probabilistic Sharpe ratio.
    case intervals
    case drawdowns
    /// The round trips' statistics without a sweep column (`TradeStats`).
    case trades
    /// The cost split: gross return and each cost.
    case costs
    /// Alpha and beta against buy and hold, skew and kurtosis of the returns (one set of
    /// passes, `Stats.returnMoments`).
    case distribution
    /// VaR and CVaR of the returns (a selection of the 5% tail, `GSL.lowerTail`).
    case tail

    var members: [Stat] {
        switch self {
        case .swept: SweepStats.returnColumns
        case .sweptRun: SweepStats.runColumns
        case .run: [.start, .end, .bars, .buyHoldReturn, .liquidations, .minMarginRatio, .avgSlippageBps, .partialFills, .rejectedOrders]
        case .periods: [.periodsPerYear]
        case .positions: [.avgPositionShare, .peakEquity, .maxLeverage]
        case .intervals: [.sharpeCILow, .sharpeCIHigh, .psr]
        case .drawdowns: [.avgDrawdown, .maxDrawdownDuration, .maxDrawdownDurationDays, .avgDrawdownDuration, .avgDrawdownDurationDays]
        case .trades: TradeStats([]).values.map(\.stat)
        case .costs: [.grossReturn, .spreadCost, .impactCost, .borrowPaid, .interestPaid, .fundingPaid]
        case .distribution: [.alpha, .beta, .skew, .kurtosis]
        case .tail: [.var95, .cvar95]
        }
    }

    private static let groups: [Stat: StatGroup] = {
        var out: [Stat: StatGroup] = [:]
        for group in allCases { for stat in group.members { out[stat] = group } }
        return out
    }()

    /// The group `stat` is computed in.
    static func of(_ stat: Stat) -> StatGroup {
        guard let group = groups[stat] else { preconditionFailure("'\(stat)' is in no statistics group") }
        return group
    }

    /// The group's statistics of `inputs`' run.
    /// - Parameter sharpeInterval: the Sharpe interval of returns at periods per year (the
    ///   intervals group's only; a job's runs may share its resamples).
    func values(_ inputs: StatInputs, sharpeInterval: (([Double], Double) -> (low: Double, high: Double))?) -> [(Stat, Double)] {
        let result = inputs.result
        switch self {
        case .swept:
            return SweepStats.returnValues(inputs.returns, periodsPerYear: inputs.periodsPerYear).values
        case .sweptRun:
            return SweepStats.runValues(result)
        case .run:
            let candles = result.candles
            let filled = result.fills.filter { $0.quantityFilled > 0 }
            return [(.start, candles.time.first.map(Double.init) ?? .nan),
                    (.end, candles.time.last.map(Double.init) ?? .nan),
                    (.bars, Double(result.equity.count)),
                    (.buyHoldReturn, candles.close.count > 0 ? candles.close[candles.count - 1] / candles.close[0] - 1 : .nan),
                    (.liquidations, Double(result.account?.liquidations ?? 0)),
                    (.minMarginRatio, result.account?.minMarginRatio ?? .nan),
                    (.avgSlippageBps, filled.isEmpty ? .nan : GSL.mean(filled.map(\.slippageBps))),
                    (.partialFills, Double(result.partialFills)),
                    (.rejectedOrders, Double(result.rejected.count))]
        case .periods:
            return [(.periodsPerYear, inputs.periodsPerYear)]
        case .positions:
            let shares = Stats.positionShares(result)
            return [(.avgPositionShare, shares.average),
                    (.peakEquity, max(result.initialCash, result.equity.max() ?? result.initialCash)),
                    (.maxLeverage, shares.max)]
        case .intervals:
            let ci = sharpeInterval?(inputs.returns, inputs.periodsPerYear) ?? (.nan, .nan)
            let m = inputs.moments
            return [(.sharpeCILow, ci.low), (.sharpeCIHigh, ci.high),
                    (.psr, Uncertainty.probabilisticSharpe(inputs.returns, mean: m.mean, sd: m.sd))]
        case .drawdowns:
            let dd = inputs.drawdownEpisodes()
            return [(.avgDrawdown, dd.averageDepth), (.maxDrawdownDuration, dd.maxBars), (.maxDrawdownDurationDays, dd.maxDays),
                    (.avgDrawdownDuration, dd.averageBars), (.avgDrawdownDurationDays, dd.averageDays)]
        case .trades:
            return TradeStats(result.trades).values.map { ($0.stat, $0.value) }
        case .costs:
            let split = result.costSplit
            return [(.grossReturn, split.grossReturn), (.spreadCost, split.spread), (.impactCost, split.impact),
                    (.borrowPaid, split.borrow), (.interestPaid, split.interest), (.fundingPaid, split.funding)]
        case .distribution:
            let moments = Stats.returnMoments(result.candles.close, inputs.returns)
            let fit = moments.line
            return [(.alpha, fit.map { pow(1 + $0.intercept, inputs.periodsPerYear) - 1 } ?? .nan), (.beta, fit?.slope ?? .nan),
                    (.skew, moments.skew), (.kurtosis, moments.kurtosis)]
        case .tail:
            let tail = GSL.lowerTail(inputs.returns, 0.05)
            return [(.var95, tail.quantile), (.cvar95, tail.mean)]
        }
    }
}
