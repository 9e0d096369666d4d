import BacktestCore

/// The same run at other cost levels, and the fee at which it stops making money.
///
/// bt does not re-run the engine itself here: callers pass closures that do, so this type knows
/// nothing of engine internals. `run(m)` must re-run with fees and depth impact scaled by `m`
/// (1 = as configured); `totalReturn(feeBps)` must re-run with the fee set to `feeBps` basis
/// points per fill (depth impact as configured) and return the total return as a fraction.
public struct CostSensitivity: Sendable {
    /// One re-run at a cost multiplier.
    public struct Row: Sendable, Equatable {
        public var multiplier: Double
        public var totalReturn: Double
        public var sharpe: Double
        public var maxDrawdown: Double
        public var feesPaid: Double
        public var trades: Int
    }

    /// The multipliers of the default table: no costs, half, as configured, double.
    public static let standardMultipliers: [Double] = [0, 0.5, 1, 2]

    public var rows: [Row]
    /// Fee in basis points per fill at which total return reaches 0; nil when the run loses
    /// money even without fees (`totalReturn(0) <= 0`) or still makes money at `maxFeeBps`.
    public var breakEvenFeeBps: Double?
    /// The largest fee searched.
    public static let maxFeeBps = 10_000.0

    /// Runs the table and the break-even search.
    /// - Parameters:
    ///   - periodsPerYear: for the Sharpe column (as in `Stats`).
    ///   - toleranceBps: the break-even fee is found to within this many basis points.
    /// - Complexity: one run per multiplier plus about 20-40 runs for the break-even (bracket by
    ///   doubling from 1 bp, then Illinois false position, which falls back to bisection when
    ///   the return is not smooth in the fee, e.g. when fees change order sizes).
    public init(multipliers: [Double] = standardMultipliers, periodsPerYear: Double? = nil,
                toleranceBps: Double = 0.01,
                run: (Double) throws -> BacktestResult,
                totalReturn: (Double) throws -> Double) rethrows {
        rows = try multipliers.map { m in
            let r = try run(m)
            let ppy = periodsPerYear ?? PeriodsPerYear.infer(from: r.candles.time)
            let returnStats = ReturnStats(ReturnStats.returns(equity: r.equity, initial: r.initialCash))
            return Row(multiplier: m, totalReturn: r.totalReturn,
                       sharpe: returnStats.sharpe(periodsPerYear: ppy),
                       maxDrawdown: returnStats.maxDrawdown,
                       feesPaid: r.feesPaid, trades: r.trades.count)
        }
        breakEvenFeeBps = try Self.breakEven(toleranceBps: toleranceBps, totalReturn)
    }

    /// The root of `f(fee) = 0` on fees >= 0, where `f(0) > 0`; nil when there is none below
    /// `maxFeeBps`.
    static func breakEven(toleranceBps: Double, _ f: (Double) throws -> Double) rethrows -> Double? {
        var lo = 0.0, flo = try f(0)
        guard flo > 0 else { return nil }
        var hi = 1.0, fhi = try f(hi)
        while fhi > 0 {
            guard hi < maxFeeBps else { return nil }
            lo = hi; flo = fhi
            hi = min(hi * 2, maxFeeBps); fhi = try f(hi)
        }
        var side = 0
        for _ in 0..<100 where hi - lo > toleranceBps {
            var x = (lo * fhi - hi * flo) / (fhi - flo)
            if !(x > lo && x < hi) || !x.isFinite { x = (lo + hi) / 2 }
            // Guarantee progress when false position stalls at one end.
            if x - lo < toleranceBps / 4 || hi - x < toleranceBps / 4 { x = (lo + hi) / 2 }
            let fx = try f(x)
            if fx > 0 {
                lo = x; flo = fx
                if side == 1 { fhi /= 2 }
                side = 1
            } else {
                hi = x; fhi = fx
                if side == -1 { flo /= 2 }
                side = -1
            }
        }
        return (lo + hi) / 2
    }
}
