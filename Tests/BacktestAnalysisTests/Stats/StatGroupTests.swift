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
        }
    }
}
