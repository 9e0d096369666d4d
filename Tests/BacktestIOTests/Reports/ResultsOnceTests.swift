@testable import BacktestAnalysis
@testable import BacktestCore
@testable import BacktestData
@testable import BacktestPresentation
@testable import BacktestJobs
import Foundation
import TestSupport
import Testing

/// Reports draw what the run computed: the drawdowns the statistics found, and the screen runs
/// kept while the screen ran: each result is computed once.
@Suite("Results computed once")
struct ResultsOnceTests {
    static func run(_ seed: UInt64, bars: Int = 300) throws -> BacktestResult {
        var config = ExecutionConfig()
        config.depth = .none
        let c = Synth.series(symbol: "S\(seed)", bars: bars, seed: seed)
        let every = 13 + Int(seed % 11)
        let entries = (0..<c.count).map { $0 % every == 2 }, exits = (0..<c.count).map { $0 % every == 9 }
        return try Engine.run(Engine.Request(c, signals: Signals(entries: entries, exits: exits), config: config))
    }

    @Test("the statistics carry their drawdowns: the per-bar curve is DrawdownEpisodes.curve bit for bit")
    func statsCarryDrawdowns() throws {
        for seed in [1, 7, 42] as [UInt64] {
            let result = try Self.run(seed, bars: 2_000)
            let stats = Stats(result)
            let dd = try #require(stats.drawdowns)
            let reference = DrawdownEpisodes.curve(equity: result.equity, initial: result.initialCash)
            #expect(dd.curve.map(\.bitPattern) == reference.map(\.bitPattern))
            #expect(dd.episodes == DrawdownEpisodes(result).episodes)
            #expect(stats[.maxDrawdownDuration] == dd.maxBars)
            #expect(dd.curve.min() == dd.deepest?.depth)
        }
        let readBack = Stats(values: Stats(try Self.run(3)).all.map(\.value), periodsPerYear: 252)
        #expect(readBack.drawdowns == nil)
    }

    @Test("a bar without a finite equity reads NaN in the curve and leaves the peak")
    func curveSkipsNonFinite() {
        let dd = DrawdownEpisodes(equity: [100, 90, .nan, 120, 60], initial: 100, time: [0, 86_400, 172_800, 259_200, 345_600])
        #expect(dd.curve[0] == 0 && dd.curve[1] == -0.1 && dd.curve[2].isNaN && dd.curve[3] == 0 && dd.curve[4] == -0.5)
        #expect(dd.episodes.count == 2 && dd.episodes[0].end == 3 && !dd.episodes[1].recovered)
    }

    @Test("a screen's rows keep the statistics' values, not their curves")
    func screenRowsDropCurves() {
        let screen = Screen(rankStat: .sharpe)
        let rows = screen.evaluate(symbols: ["A", "B"]) { s in
            let r = try Self.run(s == "A" ? 5 : 6)
            return (r, Stats(r))
        }
        #expect(rows.allSatisfy { $0.status == .ok && $0.stats != nil && $0.stats?.drawdowns == nil })
    }

    /// Rows that ran (some with too few trades), each as if it had `bars` bars, with the runs.
    static func ranRows(_ count: Int, bars: Int) throws -> [(row: Screen.Row, result: BacktestResult, stats: Stats)] {
        try (0..<count).map { k in
            let result = try run(UInt64(k + 1))
            let stats = Stats(result)
            let status: Screen.Row.Status = stats[.trades] < 20 ? .fewTrades : .ok
            return (Screen.Row(symbol: String(format: "S%03d", k), status: status, stats: stats, bars: bars), result, stats)
        }
    }

    @Test("the screen keeps exactly the runs its page embeds, offered in any order", arguments: [90, 130])
    func keeperKeepsThePageRuns(count: Int) throws {
        let screen = Screen(rankStat: .sharpe, minTrades: 20)
        let ran = try Self.ranRows(count, bars: 5_000)   // 90 x 5,000 fit the 500,000-bar budget; 130 do not
        let report = ScreenReport(strategy: "t", parameters: [], execution: [], commandLine: ["bt"], rankStat: .sharpe,
                                  minTrades: 20, top: 20, rows: screen.ranked(ran.map(\.row)))
        #expect(report.ordered.contains { $0.status == .fewTrades } && report.ordered.contains { $0.status == .ok })
        var rng = SplitMix64(seed: UInt64(count))
        let keeper = EmbeddedRunKeeper(screen: screen)
        for r in ran.shuffled(using: &rng) { keeper.offer(r.row, r.result, r.stats) }
        let kept = keeper.runs
        let embedded = report.embeddedSymbols
        #expect(embedded.count == (count == 90 ? 90 : ScreenReport.embeddedRowsBeyondBudget))
        #expect(Set(kept.keys) == Set(embedded))
        for r in ran where kept[r.row.symbol] != nil {
            #expect(kept[r.row.symbol]?.result.equity == r.result.equity)
            #expect(kept[r.row.symbol]?.drawdowns.episodes == r.stats.drawdowns?.episodes)
        }
    }

    @Test("a screen run draws its page from the runs it kept: the same page as running them again, without the second runs")
    func screenRunDoesNotRunTwice() throws {
        let directory = TestSupport.scratchDirectory()
        let db = directory.appendingPathComponent("candles.db").path
        let store = try CandleStore(path: db)
        let symbols = (1...6).map { "S\($0)" }
        for (k, s) in symbols.enumerated() {
            let series = Synth.series(symbol: s, bars: 400, seed: UInt64(k + 10))
            try store.write([ImportedFile(file: "-", format: .csv, symbol: s, content: .candles(series))])
        }
        let strategy = try Strategy.expressions([.entry: "cross_above(sma(close, 5), sma(close, 20))",
                                                 .exit: "cross_below(sma(close, 5), sma(close, 20))"])
        let job = ScreenRun(strategy: strategy, parameters: try strategy.parameters([]), screen: Screen(rankStat: .sharpe),
                            periodsPerYear: 252, top: 10, commandLine: ["bt", "screen"], execution: [])
        let loads = Counter()
        let load = { (symbol: String, store: CandleStore) throws -> (CandleWindow, ExecutionConfig) in
            loads.add()
            var config = ExecutionConfig()
            config.depth = .none
            return (CandleWindow(try store.load(symbol: symbol)), config)
        }
        let once = directory.appendingPathComponent("once").path, again = directory.appendingPathComponent("again").path
        for d in [once, again] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        _ = try job.run(symbols: symbols, databasePath: db, directory: once, load: load)
        #expect(loads.value == symbols.count)
        let rows = job.rows(symbols: symbols, databasePath: db, load: load)
        _ = try job.write(rows: rows, databasePath: db, directory: again, load: load)   // a merge: nothing kept
        #expect(loads.value == 3 * symbols.count)
        for file in ["report.html", "screen.csv", "screen.md"] {
            let a = try String(contentsOfFile: once + "/" + file, encoding: .utf8)
            let b = try String(contentsOfFile: again + "/" + file, encoding: .utf8)
            #expect(a == b, "\(file) differs")
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.lock(); count += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}
