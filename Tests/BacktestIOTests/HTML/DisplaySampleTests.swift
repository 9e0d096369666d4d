import Foundation
import Testing
import AnalysisTestSupport
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestData
@testable import BacktestPresentation
@testable import BacktestJobs

/// report.html of a long run draws a thinned chart (`DisplaySample`): every bar's extreme stays
/// in its column, the equity line keeps each column's lowest and highest value in time order,
/// trades and fills point at the drawn bar holding their bar, and the page says so.
@Suite("report.html of a long run: the chart thinned for display")
struct DisplaySampleTests {
    /// ma-cross 10/30 on `bars` synthetic minute bars.
    static func longRun(bars: Int) throws -> BacktestResult {
        try SVGChartTests.maCrossRun(Synth.universe(symbols: 1, bars: bars, seed: 11, timeframe: .minute1)[0])
    }

    @Test("each column keeps its bars' extremes, its equity's lowest and highest in order, and the drawn drawdown is the run's")
    func extremesKept() throws {
        let run = try Self.longRun(bars: 30_000)
        let sample = try #require(DisplaySample(equity: run.equity, threshold: 20_000, columns: 700))
        // The drawn bars cover every bar once, in order; each column is one or two drawn bars.
        #expect(sample.ranges.first?.lowerBound == 0 && sample.ranges.last?.upperBound == run.candles.count)
        #expect(zip(sample.ranges, sample.ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(sample.ranges.count > 700 && sample.ranges.count <= 1_401)
        let drawn = sample.candles(run.candles), equity = sample.values(run.equity)
        let n = run.candles.count
        for c in 0..<700 {
            let bars = (c * n / 700)..<((c + 1) * n / 700)
            let inColumn = sample.index(of: bars.lowerBound)...sample.index(of: bars.upperBound - 1)
            let starts: Bool = sample.ranges[inColumn.lowerBound].lowerBound == bars.lowerBound
            let ends: Bool = sample.ranges[inColumn.upperBound].upperBound == bars.upperBound
            #expect(starts && ends, "column \(c) is not its drawn bars")
            let highs: [Double] = inColumn.map { drawn.high[$0] }, lows: [Double] = inColumn.map { drawn.low[$0] }
            let values: [Double] = inColumn.map { equity[$0] }
            #expect(highs.max() == run.candles.high[bars].max(), "column \(c) high")
            #expect(lows.min() == run.candles.low[bars].min(), "column \(c) low")
            #expect(values.max() == run.equity[bars].max(), "column \(c) equity high")
            #expect(values.min() == run.equity[bars].min(), "column \(c) equity low")
            let open: Bool = drawn.open[inColumn.lowerBound] == run.candles.open[bars.lowerBound]
            let close: Bool = drawn.close[inColumn.upperBound] == run.candles.close[bars.upperBound - 1]
            #expect(open && close, "column \(c) open and close")
        }
        let volume: Double = run.candles.volume.reduce(0, +), drawnVolume: Double = drawn.volume.reduce(0, +)
        #expect(abs(drawnVolume - volume) <= 1e-9 * volume)
        let full = DrawdownEpisodes.curve(equity: run.equity, initial: run.initialCash).min()
        #expect(DrawdownEpisodes.curve(equity: equity, initial: run.initialCash).min() == full)
        // Trades and fills at the drawn bar holding their bar.
        let shown = sample.result(run)
        for (t, s) in zip(run.trades, shown.trades) {
            #expect(sample.ranges[s.entryIndex].contains(t.entryIndex) && sample.ranges[s.exitIndex].contains(t.exitIndex))
        }
        #expect(zip(run.fills, shown.fills).allSatisfy { sample.ranges[$1.index].contains($0.index) })
        let short = DisplaySample(equity: Array(run.equity.prefix(20_000)), threshold: 20_000)
        #expect(short == nil)
    }

    @Test("a run of more than 20,000 bars makes a page of thinned chart data that says so, the statistics and files unchanged")
    func page() throws {
        let run = try Self.longRun(bars: 100_000)
        let report = Report(strategy: "ma-cross", parameters: [], execution: ExecutionConfig().parameters, commandLine: [],
                            result: run, stats: Stats(run, bootstrap: .init(resamples: 20)), costs: nil)
        let html = report.html()
        #expect(html.utf8.count < 2_000_000, "page of \(html.utf8.count) bytes")
        let d = try ReportPageDataTests.data(html)
        let subtitle = try #require(d["subtitle"] as? [String])
        #expect(subtitle.contains { $0.hasPrefix("chart thinned for display: 100,000 bars drawn as ") }, "\(subtitle)")
        let chart = try #require(d["chart"] as? [String: Any])
        let series = try #require(chart["series"] as? [String: Any])
        let times = try ReportPageDataTests.times(series)
        #expect(times.count <= 2 * DisplaySample.columns + 1 && times.count > DisplaySample.columns)
        let equity = try ReportPageDataTests.numbers((chart["equity"] as? [String: Any])?["values"])
        #expect(equity.count == times.count && equity.last == run.equity.last)
        let trades = try #require(chart["trades"] as? [String: Any])
        #expect((trades["entry_index"] as? [Int])?.count == run.trades.count)
        #expect((trades["exit_index"] as? [Int])?.allSatisfy { $0 < times.count } == true)
        // The tables are the run's own, bar for bar.
        let tables = try #require(d["tables"] as? [[String: Any]])
        let rows = try #require(tables.first { $0["id"] as? String == "stats" }?["rows"] as? [[String]])
        #expect(rows.contains(["Bars", "100,000"]) || rows.contains { $0[0] == "Bars" && $0[1].contains("100") })
    }
}
