import Testing
import AnalysisTestSupport
@testable import BacktestCore
@testable import BacktestPresentation
@testable import BacktestAnalysis

/// The table of statistics (`Stat`) and the readers that must agree with it.
@Suite("Stat table")
struct StatTests {
    /// A run with trades, on `SweepFixtures.candles`, with a fee so every sweep metric is defined.
    static func run(_ n: Int = 600, every: Int = 40) throws -> BacktestResult {
        let c = SweepFixtures.candles(n)
        var config = ExecutionConfig()
        config.depth = .none
        config.feeBps = 5
        let entries = (0..<c.count).map { $0 % every == 5 }, exits = (0..<c.count).map { $0 % every == 25 }
        return try Engine.run(c, signals: Signals(entries: entries, exits: exits), config: config)
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

    @Test("sweep columns number 0..<n; RunMetrics computes each as Stats does")
    func sweepColumns() throws {
        #expect(RunMetrics.metrics.map(\.sweepColumn) == Array(0..<RunMetrics.metrics.count))
        #expect(RunMetrics.names == RunMetrics.metrics.map(\.name))
        let result = try Self.run()
        let metrics = RunMetrics(result, periodsPerYear: 252)
        let stats = Stats(result, periodsPerYear: 252, bootstrap: .init(resamples: 50))
        #expect(metrics.values.count == RunMetrics.metrics.count)
        for metric in RunMetrics.metrics {
            #expect(metrics[metric] == stats[metric], "\(metric)")
            #expect(metrics[metric].isFinite, "\(metric) undefined in the fixture")
        }
        #expect(metrics[.psr].isNaN)   // not computed by sweeps
    }

    @Test("a screen ranks in the metric's direction: lowest first for lower-is-better metrics")
    func screenDirection() throws {
        for metric in [Stat.volatilityAnn, .feesPaid, .totalReturn, .maxDrawdown] {
            let rows = Screen(rankMetric: metric).run(symbols: ["A", "B", "C"]) { symbol in
                let r = try Self.run(400 + 100 * Int(symbol.unicodeScalars.first!.value - 65), every: 30)
                return (r, Stats(r, bootstrap: .init(resamples: 20)))
            }
            let ranked = rows.sorted { $0.rank! < $1.rank! }.map { $0.stats![metric] }
            #expect(Set(ranked).count == 3, "\(metric) does not separate the fixtures")
            #expect(ranked == (metric.higherIsBetter ? ranked.sorted(by: >) : ranked.sorted()), "\(metric)")
        }
        #expect(!Stat.volatilityAnn.higherIsBetter && !Stat.maxDrawdownDuration.higherIsBetter)
        #expect(Stat.maxDrawdown.higherIsBetter)   // a negative fraction: nearer 0 is better
    }

    @Test("rank names are checked against the table, with suggestions")
    func rankNames() throws {
        #expect(try RunMetrics.metric(named: "max_drawdown") == .maxDrawdown)
        #expect(try Stat.named("psr") == .psr)
        #expect(throws: InputError("unknown metric; did you mean 'sharpe'? (valid: " + RunMetrics.names.joined(separator: ", ") + ")",
                                   setting: .rank, value: "sharp")) {
            try RunMetrics.metric(named: "sharp")
        }
        #expect(throws: InputError.self) { try RunMetrics.metric(named: "psr") }   // a statistic, not a sweep metric
        #expect(throws: InputError("unknown statistic; did you mean 'sharpe'?", setting: .rank, value: "sharp")) {
            try Stat.named("sharp")
        }
    }

    @Test("reports format a metric by its unit")
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
