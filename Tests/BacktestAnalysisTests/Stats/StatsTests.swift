import AnalysisTestSupport
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Stats from a BacktestResult")
struct StatsTests {
    /// The machine names the documentation promises (the table of statistics, `Stat`, may hold more, never fewer).
    static let contract = [
        "start", "end", "bars", "exposure", "final_equity", "peak_equity", "total_return", "buy_hold_return",
        "cagr", "volatility_ann", "sharpe", "sortino", "calmar", "omega", "max_drawdown", "avg_drawdown",
        "max_drawdown_duration", "avg_drawdown_duration", "trades", "win_rate", "best_trade", "worst_trade",
        "avg_trade", "max_trade_duration", "avg_trade_duration", "profit_factor", "expectancy", "sqn", "kelly",
        "fees_paid", "avg_slippage_bps", "partial_fills", "rejected_orders", "alpha", "beta", "skew",
        "kurtosis", "var_95", "cvar_95", "sharpe_ci_low", "sharpe_ci_high", "psr", "periods_per_year",
    ]


    @Test("every promised machine name is present")
    func names() {
        let stats = Stats(StatsFixtures.sample, bootstrap: .init(resamples: 50))
        let names = stats.all.map(\.stat.name)
        for name in Self.contract { #expect(names.contains(name), "missing \(name)") }
        #expect(Set(names).count == names.count)
    }

    @Test("ledger-level values by hand")
    func ledger() {
        let s = Stats(StatsFixtures.sample, periodsPerYear: 252, bootstrap: .init(resamples: 50))
        #expect(s["bars"] == 10)
        #expect(s["start"] == 1_704_067_200)
        #expect(s["exposure"] == 0.7)
        #expect(s["final_equity"] == 121)
        #expect(s["peak_equity"] == 121)
        #expect(close(s["total_return"], 0.21))
        #expect(close(s["buy_hold_return"], 59.0 / 50 - 1))
        #expect(close(s["max_drawdown"], -0.1))
        #expect(close(s["avg_drawdown"], -0.1))
        #expect(s["max_drawdown_duration"] == 4)      // peak at bar 1, recovered at bar 5
        #expect(s["max_drawdown_duration_days"] == 4)
        #expect(s["fees_paid"] == 1)
        #expect(s["avg_slippage_bps"] == 15)
        #expect(s["partial_fills"] == 1)
        #expect(s["rejected_orders"] == 0)
    }

    @Test("trade statistics by hand")
    func trades() {
        let s = Stats(StatsFixtures.sample, periodsPerYear: 252, bootstrap: .init(resamples: 50))
        #expect(s["trades"] == 3)
        #expect(close(s["win_rate"], 2.0 / 3))
        #expect(s["best_trade"] == 0.03)
        #expect(s["worst_trade"] == -0.01)
        #expect(close(s["avg_trade"], 0.01))
        #expect(s["max_trade_duration"] == 3)
        #expect(close(s["avg_trade_duration"], 8.0 / 3))
        #expect(close(s["profit_factor"], 4))
        #expect(close(s["expectancy"], 1))
        // pnl -1, 3, 1: mean 1, sd 2 -> sqrt(3) x 1 / 2
        #expect(close(s["sqn"], 3.0.squareRoot() / 2))
        // W = 2/3, mean win 0.02, mean loss 0.01 -> 2/3 - (1/3)/2 = 0.5
        #expect(close(s["kelly"], 0.5))
    }

    @Test("tail risk: VaR is the 5% quantile, CVaR the mean at or below it")
    func tailRisk() {
        let s = Stats(StatsFixtures.sample, periodsPerYear: 252, bootstrap: .init(resamples: 50))
        let r = ReturnStats.returns(equity: StatsFixtures.equity, initial: 100)
        let sorted = r.sorted()
        // n = 10: position 0.05 x 9 = 0.45 between the two smallest returns.
        #expect(close(s["var_95"], sorted[0] + 0.45 * (sorted[1] - sorted[0])))
        #expect(close(s["cvar_95"], sorted[0]))
    }

    @Test("flat equity, a single bar and an empty run do not crash")
    func degenerate() {
        let flat = StatsFixtures.result(time: StatsFixtures.days(30), close: Array(repeating: 10, count: 30),
                                        equity: Array(repeating: 1_000, count: 30), initial: 1_000)
        let s = Stats(flat)
        #expect(s["sharpe"].isNaN && s["total_return"] == 0 && s["max_drawdown"] == 0)
        #expect(s["trades"] == 0 && s["win_rate"].isNaN)
        let one = Stats(StatsFixtures.result(time: [0], close: [5], equity: [1_010], initial: 1_000))
        #expect(one["bars"] == 1 && close(one["total_return"], 0.01) && one["sharpe"].isNaN)
        let none = Stats(StatsFixtures.result(time: [], close: [], equity: [], initial: 1_000))
        #expect(none["bars"] == 0 && none["final_equity"] == 1_000)
    }

    @Test("gross return, fees, spread and impact cost are the run's cost split, bit for bit")
    func costSplit() throws {
        let candles = SweepFixtures.candles(400)
        let entries = (0..<candles.count).map { $0 % 40 == 5 }, exits = (0..<candles.count).map { $0 % 40 == 25 }
        let r = try Engine.run(Engine.Request(candles, signals: Signals(entries: entries, exits: exits), config: ExecutionConfig()))
        let s = Stats(r, bootstrap: .init(resamples: 50)), split = r.costSplit
        #expect(split.spread > 0 && split.impact != 0 && split.fees > 0)
        #expect(s[.grossReturn].bitPattern == split.grossReturn.bitPattern && s[.feesPaid].bitPattern == split.fees.bitPattern)
        #expect(s[.spreadCost].bitPattern == split.spread.bitPattern && s[.impactCost].bitPattern == split.impact.bitPattern)
    }
}
