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
    public private(set) var values: [Double]
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
        func compute(_ group: StatGroup) -> [(Stat, Double)] {
            group == .intervals && sharpeInterval == nil
                ? group.members.map { ($0, Double.nan) }
                : group.values(inputs, sharpeInterval: sharpeInterval)
        }
        var lanes: [[(Stat, Double)]]
        if result.equity.count >= Self.parallelBars {
            // What the lanes share is made first (the inputs' parts are made when first read, not
            // under a lock): the returns and periods per year; the moments when the intervals
            // (with the distribution) read them, else the distribution lane alone reads them.
            _ = inputs.returns
            if sharpeInterval != nil { _ = inputs.moments }
            let parts = Parallel.map(count: Self.lanes.count) { i in Self.lanes[i].flatMap(compute) }
            lanes = parts.map { part in
                guard case .success(let v) = part else { preconditionFailure("statistics do not throw") }
                return v
            }
        } else {
            lanes = Self.lanes.map { $0.flatMap(compute) }
        }
        var computed = [Stat: Double](minimumCapacity: Stat.allCases.count)
        for (stat, value) in lanes.joined() {
            precondition(computed.updateValue(value, forKey: stat) == nil, "Stats computes '\(stat)' twice")
        }
        values = Stat.allCases.map { stat in
            guard let value = computed[stat] else { preconditionFailure("Stats does not compute '\(stat)'") }
            return value
        }
        drawdowns = inputs.drawdowns
        exits = ExitSummary(result.trades)
    }

    /// Bars from which a run's statistics are computed on two cores (`lanes`): below, the
    /// threads would cost more than they save (and screens already run symbols in parallel).
    static let parallelBars = 50_000

    /// The groups computed together, each lane on its own thread for a long run: the bootstrap,
    /// the moments and the regression (three passes of GSL's recurrences), and the rest (a
    /// drawdown pass, the sweep's return statistics, the positions, the 5% tail's selection),
    /// each of the three a large part of a long run's statistics. Every group is in exactly one lane.
    static let lanes: [[StatGroup]] = [[.intervals], [.distribution],
                                       StatGroup.allCases.filter { $0 != .intervals && $0 != .distribution }]

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
        values(with: stat, of: result, periods: { periodsPerYear ?? PeriodsPerYear.infer(from: result.candles.time) })
    }

    /// `values(with:of:periodsPerYear:)` with the periods per year given by `periods`, called
    /// only when the group annualises (or is the periods per year itself): the final equity
    /// is read without a pass over the bar times.
    public static func values(with stat: Stat, of result: BacktestResult, periods: @escaping () -> Double) -> [Stat: Double] {
        let inputs = StatInputs(result, periods: periods)
        let values = StatGroup.of(stat).values(inputs) { Uncertainty.sharpeInterval($0, periodsPerYear: $1, bootstrap: .standard) }
        return Dictionary(uniqueKeysWithValues: values)
    }

    /// The Sharpe interval and the PSR: the statistics `intervals: false` leaves undefined.
    public static let intervalStats: [Stat] = StatGroup.intervals.members

    /// These statistics with the Sharpe interval and the PSR undefined (NaN), as computed with
    /// `intervals: false`: the table without them from one that has them.
    public var withoutIntervals: Stats {
        var copy = self
        for stat in Self.intervalStats { copy.values[stat.position] = .nan }
        return copy
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
    /// shows runs whose orders filled only partly. And the largest of those shares at a close
    /// with equity above 0 (0 when never in a position): 1 for an all-in long, up to the
    /// leverage in a margin account. Both from one pass over the bars' `positionShare`.
    static func positionShares(_ r: BacktestResult) -> (average: Double, max: Double) {
        var sum = 0.0, count = 0, largest = 0.0
        for t in r.position.indices {
            guard let share = positionShare(r, at: t) else { continue }
            sum += share
            count += 1
            largest = max(largest, share)
        }
        return (count == 0 ? .nan : sum / Double(count), largest)
    }

    /// |value held| / equity at bar `t`'s close: the position's value (`positionValue` when the
    /// result gives it: a portfolio's, or contracts' with their multiplier; else position ×
    /// close); nil when flat or equity is not above 0.
    package static func positionShare(_ r: BacktestResult, at t: Int) -> Double? {
        guard r.position[t] != 0, r.equity[t] > 0 else { return nil }
        return abs(r.positionValue?[t] ?? r.position[t] * r.candles.close[t]) / r.equity[t]
    }

    /// Close-to-close return of holding the asset at bar `i`, aligned with the strategy's per-bar
    /// returns (the first bar's return is 0: buying at the first close; 0 after a zero close).
    @inline(__always)
    static func buyHoldReturn(_ close: UnsafeBufferPointer<Double>, _ i: Int) -> Double {
        i > 0 && close[i - 1] != 0 ? close[i] / close[i - 1] - 1 : 0
    }

    /// Close-to-close returns of holding the asset (`buyHoldReturn` at each bar).
    static func buyHoldReturns(_ close: [Double]) -> [Double] {
        close.withUnsafeBufferPointer { c in (0..<c.count).map { buyHoldReturn(c, $0) } }
    }

    /// The moments of the strategy's per-bar `returns` (`GSL.mean`, `GSL.standardDeviation(_:mean:)`,
    /// skew and kurtosis about them) and their least-squares line on buy and hold's returns
    /// (`GSL.fitLinear(x: buyHoldReturns(close), y: returns)`'s intercept and slope, nil where it
    /// fails): alpha and beta. Each to the bit, from `GSL.momentsAndLine`'s three passes, buy and
    /// hold's returns computed as read, not stored.
    static func returnMoments(_ close: [Double], _ returns: [Double])
        -> (mean: Double, sd: Double, skew: Double, kurtosis: Double, line: (intercept: Double, slope: Double)?) {
        close.withUnsafeBufferPointer { c in
            returns.withUnsafeBufferPointer { r in
                guard c.count == r.count else {  // no line (gsl_fit_linear refuses lengths that differ)
                    var m = GSL.momentsAndLine(count: r.count, x: { _ in 0 }, y: r)
                    m.line = nil
                    return m
                }
                return GSL.momentsAndLine(count: r.count, x: { buyHoldReturn(c, $0) }, y: r)
            }
        }
    }
}
