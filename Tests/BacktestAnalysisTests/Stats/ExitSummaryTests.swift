import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

@Suite("Exits by kind")
struct ExitSummaryTests {
    /// Five trades: two stopped out, one target, one signal, one still open.
    static func trades() -> [Trade] {
        var t = [StatsFixtures.trade(0, 2, pnl: -2, ret: -0.02), StatsFixtures.trade(2, 4, pnl: 5, ret: 0.05),
                 StatsFixtures.trade(4, 5, pnl: -3, ret: -0.03), StatsFixtures.trade(5, 7, pnl: 1, ret: 0.01),
                 StatsFixtures.trade(7, 9, pnl: 2, ret: 0.02)]
        t[0].exitKind = .stop; t[1].exitKind = .target; t[2].exitKind = .stopGap
        t[4].isOpen = true; t[4].exitKind = .end
        return t
    }

    @Test("counts, shares and average returns by kind; every kind has a row, in ExitKind order")
    func summary() {
        let s = ExitSummary(Self.trades())
        #expect(s.total == 5)
        #expect(s.rows.map(\.kind) == ExitKind.allCases)
        #expect(s.rows.map(\.trades) == [1, 1, 1, 1, 0, 0, 0, 1, 0, 0])
        #expect(s[.stop].share == 0.2 && s[.stop].averageReturn == -0.02)
        #expect(s[.trail].trades == 0 && s[.trail].share == 0 && s[.trail].averageReturn.isNaN)
        #expect(s.present.map(\.kind) == [.signal, .stop, .stopGap, .target, .end])
        #expect(s.text == "1 signal, 1 stop, 1 stop-gap, 1 target, 1 end")
        #expect(s.rows.reduce(0) { $0 + $1.trades } == s.total)
    }

    @Test("a run whose trades all end one way: that kind's average is avg_trade; no trades: none")
    func oneKindAndNone() {
        let r = StatsFixtures.sample
        let stats = Stats(r, periodsPerYear: 252, bootstrap: .init(resamples: 20))
        let exits = try! #require(stats.exits)
        #expect(exits.present.map(\.kind) == [.signal] && exits[.signal].trades == r.trades.count)
        #expect(exits[.signal].averageReturn == stats[.avgTrade] && exits[.signal].share == 1)
        let none = ExitSummary([])
        #expect(none.total == 0 && none.present.isEmpty && none.text == "none" && none[.signal].share.isNaN)
        // Statistics read back from partial results carry no trades.
        #expect(Stats(values: stats.all.map(\.value), periodsPerYear: 252).exits == nil)
    }

    @Test("a screen's rows keep the values, not the exits")
    func screenRowsDropThem() throws {
        let r = StatsFixtures.sample
        let screen = Screen(rankStat: .sharpe)
        let rows = screen.evaluate(symbols: ["A"]) { _ in (r, Stats(r, periodsPerYear: 252, bootstrap: .init(resamples: 20))) }
        #expect(rows.first?.stats?.exits == nil)
    }
}
