import Testing
import AnalysisTestSupport
@testable import BacktestCore
@testable import BacktestPresentation
@testable import BacktestAnalysis

/// The table of statistics (`Stat`) and the readers that must agree with it.
@Suite("Stat table")
struct StatTests {
    /// A run with trades, on `SweepFixtures.candles`, with a fee so every statistic with a sweep column is defined.
    static func run(_ n: Int = 600, every: Int = 40) throws -> BacktestResult {
        let c = SweepFixtures.candles(n)
        var config = ExecutionConfig()
        config.depth = .none
        config.feeBps = 5
        let entries = (0..<c.count).map { $0 % every == 5 }, exits = (0..<c.count).map { $0 % every == 25 }
        return try Engine.run(Engine.Request(c, signals: Signals(entries: entries, exits: exits), config: config))
    }

    @Test("names are unique snake_case; Stats computes every statistic in table order")
    func table() throws {
        let names = Stat.allCases.map(\.name)
        #expect(Set(names).count == names.count && Stat.names == names)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } })
        #expect(Stat.allCases.allSatisfy { Stat(rawValue: $0.name) == $0 && "\($0)" == $0.name })
        let stats = Stats(try Self.run(), bootstrap: .init(resamples: 50))
        #expect(stats.all.map(\.stat) == Stat.allCases && stats.values.count == names.count)
        for (stat, value) in stats.all {
            #expect(stats[stat].bitPattern == value.bitPattern && stats[stat.name].bitPattern == value.bitPattern, "\(stat)")
        }
    }

    @Test("sweep columns number 0..<n; Stats holds the values SweepStats computes")
    func sweepColumns() throws {
        #expect(SweepStats.columns.map(\.sweepColumn) == Array(0..<SweepStats.columns.count))
        #expect(SweepStats.names == SweepStats.columns.map(\.name))
        let result = try Self.run()
        let swept = SweepStats(result, periodsPerYear: 252)
        let stats = Stats(result, periodsPerYear: 252, bootstrap: .init(resamples: 50))
        #expect(swept.values.count == SweepStats.columns.count)
        for stat in SweepStats.columns {
            #expect(swept[stat] == stats[stat], "\(stat)")
            #expect(swept[stat].isFinite, "\(stat) undefined in the fixture")
        }
        #expect(swept[.psr].isNaN)   // not computed by sweeps
    }

    @Test("a screen ranks in the statistic's direction: lowest first for lower-is-better ones")
    func screenDirection() throws {
        for stat in [Stat.volatilityAnn, .feesPaid, .totalReturn, .maxDrawdown] {
            let rows = Screen(rankStat: stat).run(symbols: ["A", "B", "C"]) { symbol in
                let r = try Self.run(400 + 100 * Int(symbol.unicodeScalars.first!.value - 65), every: 30)
                return (r, Stats(r, bootstrap: .init(resamples: 20)))
            }
            let ranked = rows.sorted { $0.rank! < $1.rank! }.map { $0.stats![stat] }
            #expect(Set(ranked).count == 3, "\(stat) does not separate the fixtures")
            #expect(ranked == (stat.higherIsBetter ? ranked.sorted(by: >) : ranked.sorted()), "\(stat)")
        }
        #expect(!Stat.volatilityAnn.higherIsBetter && !Stat.maxDrawdownDuration.higherIsBetter)
        #expect(Stat.maxDrawdown.higherIsBetter)   // a negative fraction: nearer 0 is better
    }

    @Test("rank names are checked against the table, with suggestions")
    func rankNames() throws {
        #expect(try SweepStats.stat(named: "max_drawdown") == .maxDrawdown)
        #expect(try Stat.named("psr") == .psr)
        #expect(throws: InputError("unknown metric; did you mean 'sharpe'? (valid: " + SweepStats.names.joined(separator: ", ") + ")",
                                   setting: .rank, value: "sharp")) {
            try SweepStats.stat(named: "sharp")
        }
        #expect(throws: InputError.self) { try SweepStats.stat(named: "psr") }   // a statistic without a sweep column
        #expect(throws: InputError("unknown statistic; did you mean 'sharpe'?", setting: .rank, value: "sharp")) {
            try Stat.named("sharp")
        }
    }

    @Test("reports format a statistic by its unit, its infinities in words")
    func formatting() {
        #expect(Stat.totalReturn.formatted(0.1234) == "12.34%")
        #expect(Stat.sharpe.formatted(1.23456) == "1.235")
        #expect(Stat.trades.formatted(7) == "7")
        #expect(Stat.maxDrawdownDurationDays.formatted(.nan) == "n/a")
        #expect(Stat.avgSlippageBps.label == "avg_slippage_bps [bps]")
        #expect(Stat.profitFactor.formatted(.infinity) == "no losses" && Stat.sortino.formatted(.infinity) == "no downside")
        #expect(Stat.sharpe.formatted(.infinity) == "overflow" && Stat.profitFactor.formatted(-.infinity) == "overflow")
        #expect(Stat.Unit.cash.formatted(.infinity) == "overflow" && Stat.Unit.fraction.formatted(0.5) == "50.00%")
    }
}
