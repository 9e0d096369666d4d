import Foundation
import Testing
import AnalysisTestSupport
@testable import BacktestCore
@testable import BacktestPresentation
@testable import BacktestAnalysis

@Suite("Sweep runner: streaming, shared indicators, failures, screens")
struct SweepTests {
    @Test("indicators are computed once per distinct window across all combinations")
    func sharedIndicators() throws {
        let windows = [5, 10, 20, 40]
        let pairs = windows.flatMap { f in windows.filter { $0 > f }.map { (f, $0) } }
        let counter = SweepFixtures.Counter()
        var sweep = Sweep(rankStat: .totalReturn)
        sweep.chunkSize = 2
        _ = try sweep.run(combinations: pairs.count, evaluator: SweepFixtures.evaluator(pairs, counter: counter),
                          candles: SweepFixtures.candles()) { _ in }
        #expect(pairs.count == 6)
        #expect(counter.computed == windows.count)
    }

    @Test("rows stream chunk by chunk in combination order; failures are rows, not aborts")
    func streaming() throws {
        let pairs = (0..<50).map { (3 + $0 % 7, 20 + $0) }
        var sweep = Sweep(rankStat: .sharpe)
        sweep.chunkSize = 7
        sweep.topCount = 5
        var chunks: [[Int]] = []
        let summary = try sweep.run(combinations: pairs.count,
                                    evaluator: SweepFixtures.evaluator(pairs, counter: SweepFixtures.Counter(), failing: [3, 41]),
                                    candles: SweepFixtures.candles()) { rows in chunks.append(rows.map(\.combo)) }
        #expect(chunks.count == 8)
        #expect(chunks.allSatisfy { $0.count <= 7 })
        #expect(chunks.flatMap { $0 } == Array(0..<50))
        #expect(summary.evaluated == 50 && summary.failed == 2)
        #expect(summary.rankValues[3].isNaN && summary.rankValues[41].isNaN)
        #expect(summary.top.count == 5)
        let topValues = summary.top.map { $0.stats![.sharpe] }
        #expect(topValues == topValues.sorted(by: >))
        #expect(summary.best == summary.top.first?.combo)
        let finite = summary.rankValues.filter(\.isFinite)
        #expect(topValues.first == finite.max())
    }

    @Test("a screen reports a broken symbol as an error row and ranks the rest")
    func screenWithBrokenSymbol() throws {
        let screen = Screen(rankStat: .totalReturn, minTrades: 2)
        var config = ExecutionConfig()
        config.depth = .none
        let rows = screen.run(symbols: ["A", "BROKEN", "=CMD", "FEW"]) { symbol in
            if symbol == "BROKEN" { throw InputError("bad data", file: "broken.csv", line: 7) }
            let c = SweepFixtures.candles(symbol == "A" ? 600 : 400)
            let every = symbol == "FEW" ? 1_000 : 40
            let entries = (0..<c.count).map { $0 % every == 5 }, exits = (0..<c.count).map { $0 % every == 25 }
            let result = try Engine.run(Engine.Request(c, signals: Signals(entries: entries, exits: exits), config: config))
            return (result, Stats(result))
        }
        #expect(rows.map(\.symbol) == ["A", "BROKEN", "=CMD", "FEW"])
        #expect(rows[1].status == .error && rows[1].error == "broken.csv:7: bad data" && rows[1].rank == nil)
        #expect(rows[3].status == .fewTrades && rows[3].rank == nil)
        #expect(Set(rows.compactMap(\.rank)) == [1, 2])
        let ranked = rows.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }
        #expect(ranked[0].stats![.totalReturn] >= ranked[1].stats![.totalReturn])
        #expect(rows[0].equityShape.count == 24)

        let report = ScreenReport(strategy: "test", parameters: [], execution: [], commandLine: ["bt"],
                                  rankStat: .totalReturn, minTrades: 2, top: 10, rows: rows)
        let csv = report.csv()
        let lines = csv.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("rank,symbol,timeframe,status,error,start,end,bars"))
        let tf = rows[2].timeframe?.rawValue ?? ""
        #expect(csv.contains(",'=CMD,\(tf),ok,"))   // formula injection escaped
        #expect(csv.contains(",BROKEN,,error,broken.csv:7: bad data,"))
        let md = report.markdown()
        #expect(md.contains("| BROKEN | broken.csv:7: bad data |"))
        #expect(md.contains("FEW: 1 trades") || md.contains("FEW: 0 trades"))
    }
}
