@testable import BacktestAnalysis
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestJobs
import Foundation
import TestSupport
import Testing

/// A screen bootstraps its symbols with blocks drawn once per history length
/// (`Uncertainty.SharedResamples`): every row's statistics are still the ones `bt run` gives.
@Suite("Screen bootstrap")
struct ScreenBootstrapTests {
    @Test("a screen's rows are each symbol's own statistics, bit for bit, with equal and different lengths")
    func rowsEqualSingleRuns() throws {
        let directory = TestSupport.scratchDirectory()
        let db = directory.appendingPathComponent("candles.db").path
        let store = try CandleStore(path: db)
        let lengths = [400, 400, 350, 400, 350, 520]
        let symbols = lengths.indices.map { "S\($0)" }
        for (k, s) in symbols.enumerated() {
            let series = Synth.series(symbol: s, bars: lengths[k], seed: UInt64(k + 30))
            try store.write([ImportedFile(file: "-", format: .csv, symbol: s, content: .candles(series))])
        }
        let strategy = try Strategy.expressions([.entry: "cross_above(sma(close, 5), sma(close, 20))",
                                                 .exit: "cross_below(sma(close, 5), sma(close, 20))"])
        let parameters = try strategy.parameters([])
        let job = ScreenRun(strategy: strategy, parameters: parameters, screen: Screen(rankStat: .sharpe),
                            periodsPerYear: 252, top: 10, commandLine: ["bt", "screen"], execution: [])
        let load = { (symbol: String, store: CandleStore) throws -> (CandleWindow, ExecutionConfig) in
            var config = ExecutionConfig()
            config.depth = .none
            return (CandleWindow(try store.load(symbol: symbol)), config)
        }
        let rows = job.rows(symbols: symbols, databasePath: db, load: load)
        #expect(rows.count == symbols.count)
        for row in rows {
            let stats = try #require(row.stats, "\(row.symbol): \(row.error ?? "no stats")")
            let (window, config) = try load(row.symbol, store)
            let result = try Engine.run(Engine.Request(window, signals: try strategy.signals(window.series, parameters), config: config))
            let alone = Stats(result, periodsPerYear: 252)
            #expect(alone[.sharpeCILow].isFinite, "\(row.symbol)")
            for (x, y) in zip(stats.all, alone.all) {
                #expect(x.value.bitPattern == y.value.bitPattern || (x.value.isNaN && y.value.isNaN), "\(row.symbol) \(x.stat)")
            }
        }
    }
}
