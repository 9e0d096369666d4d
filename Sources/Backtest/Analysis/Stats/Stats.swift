import BacktestCore
import Foundation

/// Every statistic of a run (every `Stat`), computed from a `BacktestResult`, in the table's
/// order: those with a sweep column as `SweepStats` computes them, the others here.
///
/// Return-based measures use per-bar equity returns over the whole run, flat bars included,
/// anchored at the initial cash (`ReturnStats.returns`). Names, order and units are the
/// `bt run --json` / `stats.csv` contract.
public struct Stats: Sendable {
    /// One value per statistic, in `Stat.allCases` order; NaN when undefined (e.g. the Sharpe
    /// ratio of a flat curve): JSON writes null, CSV an empty cell.
    public let values: [Double]
    /// Bars per year used to annualise (inferred or given).
    public let periodsPerYear: Double
    /// The drawdown curve and episodes the drawdown statistics come from, for the reports to
    /// draw; nil for statistics read back from partial results, and dropped from a screen's
    /// rows (which keep only the values).
    public internal(set) var drawdowns: DrawdownEpisodes?
    /// How the trades ended, by `ExitKind`, for the reports; nil for statistics read back from
    /// partial results, and dropped from a screen's rows, as `drawdowns`.
    public internal(set) var exits: ExitSummary?

    /// Computes every statistic.
    /// - Parameters:
    ///   - periodsPerYear: bars per year; nil infers it from the candle times (`PeriodsPerYear.infer`).
    ///   - bootstrap: settings of the Sharpe confidence interval.
    ///   - intervals: false leaves the Sharpe interval and the PSR undefined (NaN) and skips the
    ///     bootstrap, most of the time of a long run's statistics (`StatGroup.intervals`).
    /// - Complexity: O(n) plus the bootstrap's O(resamples x n / L), L the mean block length.
    public init(_ result: BacktestResult, periodsPerYear: Double? = nil,
                bootstrap: Uncertainty.Bootstrap = .standard, intervals: Bool = true) {
        self.init(result, periodsPerYear: periodsPerYear, sharpeInterval: intervals ? {
            Uncertainty.sharpeInterval($0, periodsPerYear: $1, bootstrap: bootstrap)
        } : nil)
    }

    /// Computes every statistic, the Sharpe interval from blocks shared with the job's other
    /// runs (`Uncertainty.SharedResamples`): the same values as `init(_:periodsPerYear:bootstrap:)`
    /// with `shared.bootstrap`.
    public init(_ result: BacktestResult, periodsPerYear: Double? = nil, sharing shared: Uncertainty.SharedResamples) {
        self.init(result, periodsPerYear: periodsPerYear, sharpeInterval: shared.sharpeInterval)
    }

    private init(_ result: BacktestResult, periodsPerYear: Double?,
                 sharpeInterval: (([Double], Double) -> (low: Double, high: Double))?) {
        let inputs = StatInputs(result, periodsPerYear: periodsPerYear)
        self.periodsPerYear = inputs.periodsPerYear
        var computed = [Stat: Double](minimumCapacity: Stat.allCases.count)
        for group in StatGroup.allCases {
            let values = group == .intervals && sharpeInterval == nil
                ? group.members.map { ($0, Double.nan) }
                : group.values(inputs, sharpeInterval: sharpeInterval)
            for (stat, value) in values {
                precondition(computed.updateValue(value, forKey: stat) == nil, "Stats computes '\(stat)' twice")
            }
        }
        values = Stat.allCases.map { stat in
            guard let value = computed[stat] else { preconditionFailure("Stats does not compute '\(stat)'") }
            return value
        }
        drawdowns = inputs.drawdowns
        exits = ExitSummary(result.trades)
    }

    /// One statistic of `result`, computing only the statistics it is computed with
    /// (`StatGroup`): the value `Stats(result, periodsPerYear:)[stat]` has, to the bit.
    public static func value(_ stat: Stat, of result: BacktestResult, periodsPerYear: Double? = nil) -> Double {
        guard let value = values(with: stat, of: result, periodsPerYear: periodsPerYear)[stat] else {
            preconditionFailure("'\(stat)' is not computed with itself")
        }
        return value
    }

    /// `stat` and the statistics computed with it (its `StatGroup`), by statistic, as
    /// `Stats(result, periodsPerYear:)` has them: what a caller reading one statistic can keep
    /// for the next reads.
    public static func values(with stat: Stat, of result: BacktestResult, periodsPerYear: Double? = nil) -> [Stat: Double] {
        let inputs = StatInputs(result, periodsPerYear: periodsPerYear)
        let values = StatGroup.of(stat).values(inputs) { Uncertainty.sharpeInterval($0, periodsPerYear: $1, bootstrap: .standard) }
        return Dictionary(uniqueKeysWithValues: values)
    }

    /// Statistics already computed: one value per `Stat` case in output order, as partial
    /// results store them.
    package init(values: [Double], periodsPerYear: Double) {
        precondition(values.count == Stat.allCases.count, "one value per statistic")
        self.periodsPerYear = periodsPerYear
        drawdowns = nil
        exits = nil
        self.values = values
    }

    /// Every statistic with its value, in output order (the contract of `--json` and `stats.csv`).
    public var all: [(stat: Stat, value: Double)] {
        zip(Stat.allCases, values).map { ($0, $1) }
    }

    /// The value of `stat`.
    public subscript(stat: Stat) -> Double {
        values[stat.position]
    }

    /// The statistic called `name`, NaN when unknown.
    public subscript(name: String) -> Double {
        Stat(rawValue: name).map { self[$0] } ?? .nan
    }

    /// The mean over bars that end in a position of |position × close| / equity (|position
    /// value| / equity when the result gives the value, as a portfolio's does): how much of the
    /// account the position is when there is one (NaN without such bars). Next to `exposure`, it
    /// shows runs whose orders filled only partly.
    static func averagePositionShare(_ r: BacktestResult) -> Double {
        var sum = 0.0, count = 0
        for t in r.position.indices {
            guard let share = positionShare(r, at: t) else { continue }
            sum += share
            count += 1
        }
        return count == 0 ? .nan : sum / Double(count)
    }

    /// The largest |value held| / equity at a close with a position and equity above 0 (0 when
    /// never in a position): 1 for an all-in long, up to the leverage in a margin account.
    static func maxLeverage(_ r: BacktestResult) -> Double {
        r.position.indices.reduce(0) { max($0, positionShare(r, at: $1) ?? 0) }
    }

    /// |value held| / equity at bar `t`'s close: the position's value (`positionValue` when the
    /// result gives it: a portfolio's, or contracts' with their multiplier; else position ×
    /// close); nil when flat or equity is not above 0.
    package static func positionShare(_ r: BacktestResult, at t: Int) -> Double? {
        guard r.position[t] != 0, r.equity[t] > 0 else { return nil }
        return abs(r.positionValue?[t] ?? r.position[t] * r.candles.close[t]) / r.equity[t]
    }

    /// Close-to-close returns of holding the asset, aligned with the strategy's per-bar returns
    /// (the first bar's return is 0: buying at the first close).
    static func buyHoldReturns(_ close: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: close.count)
        for i in close.indices.dropFirst() where close[i - 1] != 0 { out[i] = close[i] / close[i - 1] - 1 }
        return out
    }
}
