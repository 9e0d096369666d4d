import AnalysisTestSupport
import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

/// Statistics on demand: one statistic computed with its group alone, and the table without the
/// bootstrap, give the bits the whole table gives.
@Suite("Statistics by group")
struct StatGroupTests {
    /// A run with trades, costs and drawdowns; one with no trade; one on margin with shorts.
    static func runs() throws -> [BacktestResult] {
        let candles = SweepFixtures.candles(600)
        let entries = (0..<candles.count).map { $0 % 40 == 5 }, exits = (0..<candles.count).map { $0 % 40 == 25 }
        let traded = try Engine.run(Engine.Request(candles, signals: Signals(entries: entries, exits: exits), config: ExecutionConfig()))
        let none = [Bool](repeating: false, count: candles.count)
        let flat = try Engine.run(Engine.Request(candles, signals: Signals(entries: none, exits: none), config: ExecutionConfig()))
        var margin = ExecutionConfig()
        margin.leverage = 3
        margin.borrowBps = 200
        margin.allowShort = true
        let shorts = Signals(entries: entries, exits: exits, shortEntries: exits, shortExits: entries)
        let leveraged = try Engine.run(Engine.Request(candles, signals: shorts, config: margin))
        return [traded, flat, leveraged]
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    @Test("each statistic is in exactly one group")
    func partition() {
        let members = StatGroup.allCases.flatMap(\.members)
        #expect(members.count == Stat.allCases.count && Set(members) == Set(Stat.allCases))
    }

    @Test("one statistic alone equals the whole table's, every statistic, bit for bit")
    func alone() throws {
        for run in try Self.runs() {
            let all = Stats(run)
            for stat in Stat.allCases {
                let one = Stats.value(stat, of: run)
                #expect(Self.same(one, all[stat]), "\(stat): \(one) alone, \(all[stat]) in the table")
            }
        }
    }

    /// The periods per year, counting the calls (`Stats.values(with:of:periods:)` calls it only
    /// for the groups that annualise).
    final class Periods {
        var calls = 0
        let value: Double
        init(_ value: Double) { self.value = value }
        func get() -> Double { calls += 1; return value }
    }

    @Test("statistics that do not annualise are read without the periods per year (no pass over the bar times), the others at most once")
    func periodsOnlyWhenNeeded() throws {
        let annualising: Set<StatGroup> = [.swept, .periods, .intervals, .distribution]
        for run in try Self.runs() {
            let ppy = PeriodsPerYear.infer(from: run.candles.time)
            let all = Stats(run)
            for stat in Stat.allCases {
                let periods = Periods(ppy)
                let values = Stats.values(with: stat, of: run, periods: periods.get)
                let group = StatGroup.of(stat)
                // At most once (alpha annualises only a fit that exists); never for the others.
                #expect(periods.calls <= (annualising.contains(group) ? 1 : 0), "\(stat) in \(group): \(periods.calls) calls")
                #expect(Set(values.keys) == Set(group.members))
                for (member, value) in values { #expect(Self.same(value, all[member]), "\(member)") }
            }
        }
    }

    @Test("a long run's table, computed in lanes on two cores, equals each group computed alone, bit for bit")
    func lanes() throws {
        let lanes = Stats.lanes.flatMap { $0 }
        #expect(lanes.count == StatGroup.allCases.count && Set(lanes) == Set(StatGroup.allCases))
        let candles = SweepFixtures.candles(Stats.parallelBars + 1_000)
        let entries = (0..<candles.count).map { $0 % 400 == 5 }, exits = (0..<candles.count).map { $0 % 400 == 250 }
        let run = try Engine.run(Engine.Request(candles, signals: Signals(entries: entries, exits: exits), config: ExecutionConfig()))
        for intervals in [false, true] {
            let all = Stats(run, intervals: intervals)
            var alone: [Stat: Double] = [:]
            for group in StatGroup.allCases where intervals || group != .intervals {
                alone.merge(Stats.values(with: group.members[0], of: run)) { a, _ in a }
            }
            for stat in Stat.allCases {
                if let value = alone[stat] {
                    #expect(Self.same(value, all[stat]), "\(stat): \(value) alone, \(all[stat]) in the table")
                } else {
                    #expect(all[stat].isNaN, "\(stat) without intervals")
                }
            }
            #expect(all.drawdowns != nil)
        }
    }

    @Test("alpha and beta's line, buy and hold's returns computed as read, equals gsl_fit_linear on them stored; the moments GSL's")
    func buyHoldFit() throws {
        for run in try Self.runs() {
            let returns = ReturnStats.returns(equity: run.equity, initial: run.initialCash)
            let fit = try GSL.fitLinear(x: Stats.buyHoldReturns(run.candles.close), y: returns)
            let moments = Stats.returnMoments(run.candles.close, returns)
            let line = try #require(moments.line)
            #expect(Self.same(fit.intercept, line.intercept) && Self.same(fit.slope, line.slope))
            let mean = GSL.mean(returns), sd = GSL.standardDeviation(returns, mean: mean)
            #expect(Self.same(moments.mean, mean) && Self.same(moments.sd, sd))
            #expect(Self.same(moments.skew, GSL.skew(returns)) && Self.same(moments.kurtosis, GSL.kurtosis(returns)))
        }
        // Closes and returns of different lengths have no line (gsl_fit_linear refuses them).
        #expect(Stats.returnMoments([1, 2, 3], [0.1, -0.2, 0.05, 0.3]).line == nil)
    }

    @Test("the final equity is computed without the per-bar returns: its group reads the run and its trades")
    func finalEquityAlone() {
        #expect(StatGroup.of(.finalEquity) == .sweptRun && StatGroup.of(.totalReturn) == .sweptRun)
        #expect(Set(SweepStats.runColumns).isDisjoint(with: SweepStats.returnColumns))
        #expect(SweepStats.runColumns.count + SweepStats.returnColumns.count == SweepStats.columns.count)
    }

    @Test("the table without intervals is the table, the Sharpe interval and PSR undefined")
    func withoutIntervals() throws {
        for run in try Self.runs() {
            let all = Stats(run), some = Stats(run, intervals: false)
            for stat in Stat.allCases {
                if StatGroup.intervals.members.contains(stat) {
                    #expect(some[stat].isNaN)
                } else {
                    #expect(Self.same(some[stat], all[stat]), "\(stat)")
                }
            }
            #expect(!all[.sharpeCILow].isNaN || run.trades.isEmpty)
            for stat in Stat.allCases { #expect(Self.same(all.withoutIntervals[stat], some[stat]), "\(stat) without intervals") }
        }
    }
}
