import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

/// Charts of more bars than columns draw each column for several bars: a line's column spans
/// its bars' lowest to highest value (every bar's extreme stays in its column), and the chart
/// says it is thinned exactly then (`ChartDrawing.note`, `SVGChart.thinningNote`).
@Suite("Thinned charts keep every column's extremes and say so")
struct ChartThinningTests {
    /// A random walk with rare spikes and gaps, between 100 and 200 at its ends (so a chart's
    /// labels, and with them its columns, do not depend on `n`).
    static func series(_ n: Int, rng: inout SplitMix64) -> [Double] {
        var v = 150.0, out: [Double] = []
        for _ in 0..<n {
            v = min(199, max(101, v + Double.random(in: -1...1, using: &rng)))
            let spike = Double.random(in: 0..<1, using: &rng) < 0.003 ? Double.random(in: -40...40, using: &rng) : 0
            out.append(Double.random(in: 0..<1, using: &rng) < 0.001 ? .nan : min(199, max(101, v + spike)))
        }
        if n >= 2 { out[0] = 100; out[n - 1] = 200 }
        return out
    }

    @Test("a braille line's every dot column holds the rows of its bars' lowest and highest value", arguments: 1...10)
    func lineKeepsExtremes(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let n = Int.random(in: 100...40_000, using: &rng)
        let values = Self.series(n, rng: &rng)
        var grid = BrailleGrid(columns: Int.random(in: 10...120, using: &rng), rows: Int.random(in: 2...12, using: &rng))
        let scale = YScale(min: 100, max: 200, rows: grid.rows)
        LinePlot.plot(values, scale: scale, into: &grid)
        let map = ColumnMap(count: n, slots: grid.dotColumns)
        var checked = 0
        for d in 0..<grid.dotColumns {
            let finite = map.points(in: d).filter { values[$0].isFinite }
            guard let lo = finite.min(by: { values[$0] < values[$1] }), let hi = finite.max(by: { values[$0] < values[$1] }) else { continue }
            let lowDrawn = grid.has(d, scale.position(values[lo], steps: grid.dotRows))
            let highDrawn = grid.has(d, scale.position(values[hi], steps: grid.dotRows))
            #expect(lowDrawn, "seed \(seed): column \(d) lost the low of bar \(lo)")
            #expect(highDrawn, "seed \(seed): column \(d) lost the high of bar \(hi)")
            checked += 1
        }
        #expect(checked > 0)
    }

    /// The plot's width in cells, read off the drawn text: the top row's width after the axis.
    static func plotCells(_ text: String, width: Int) -> Int {
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let gutter = rows.dropFirst().compactMap { $0.firstIndex(of: "┤") ?? $0.firstIndex(of: "│") }.first! + 1
        return width - gutter
    }

    @Test("the equity chart notes its thinning exactly when there are more bars than braille dot columns")
    func equityNote() throws {
        var rng = SplitMix64(seed: 7)
        let size = ChartSize(width: 60, height: 12)
        func draw(_ n: Int) throws -> ChartDrawing {
            let equity = Self.series(n, rng: &rng).map { $0.isNaN ? 150 : $0 }
            return try EquityChart.drawing(time: (0..<n).map { 1_600_000_000 + Int64($0) * 60 }, equity: equity, initial: 100,
                                           drawdown: DrawdownEpisodes.curve(equity: equity, initial: 100), size: size)
        }
        let wide = try draw(5_000)
        #expect(wide.columns == 2 * Self.plotCells(wide.text, width: 60))
        #expect(wide.note == "chart thinned for display: 5,000 bars in \(wide.columns) columns, each spans its bars' lowest to highest value")
        for n in [wide.columns - 1, wide.columns, wide.columns + 1, 2 * wide.columns] {
            let d = try draw(n)
            #expect(d.columns == 2 * Self.plotCells(d.text, width: 60) && d.bars == n)
            #expect((d.note != nil) == (n > d.columns), "\(n) bars in \(d.columns) dot columns")
        }
        #expect(try draw(12).note == nil)
    }

    @Test("the candle chart notes its thinning exactly when there are more bars than columns")
    func candleNote() throws {
        let size = ChartSize(width: 70, height: 16)
        let all = ChartBehaviourTests.walk(3_000)
        let wide = try CandleChart.drawing(all, size: size)
        #expect(wide.columns == Self.plotCells(wide.text, width: 70))
        #expect(wide.note?.hasPrefix("chart thinned for display: 3,000 bars in \(wide.columns) columns, each a candle of its bars") == true)
        // Fewer bars (a slice of the same walk keeps the price range, and the labels, close).
        for n in [wide.columns - 1, wide.columns, wide.columns + 1] {
            let d = try CandleChart.drawing(all.slice(0..<n), size: size)
            #expect(d.columns == Self.plotCells(d.text, width: 70))
            #expect((d.note != nil) == (n > d.columns), "\(n) bars in \(d.columns) columns")
        }
    }

    @Test("equity.svg says it is thinned exactly when there are more bars than pixel columns")
    func svgNote() throws {
        let run = try SVGChartTests.googRun()
        let long = SVGChart.equity(run, drawdowns: DrawdownEpisodes(run), title: "Equity")
        #expect(long.contains(">\(PageData.grouped(run.candles.count)) bars, thinned: each pixel column keeps its lowest and highest</text>"))
        #expect(SVGChart.thinningNote(bars: 800, pixelColumns: 800) == nil)
        #expect(SVGChart.thinningNote(bars: 801, pixelColumns: 800) != nil)
        let short = run.candles.slice(0..<300)
        let shortRun = BacktestResult(candles: short, initialCash: 100, cash: Array(repeating: 100, count: 300),
                                      position: Array(repeating: 0, count: 300), equity: Array(repeating: 100, count: 300),
                                      trades: [], fills: [], rejected: [], ambiguousExitBars: 0)
        #expect(!SVGChart.equity(shortRun, drawdowns: DrawdownEpisodes(shortRun), title: "Equity").contains("thinned"))
    }

    @Test("report.md says under each text chart that it is thinned, for a long run only")
    func reportMarkdownNotes() throws {
        func markdown(_ result: BacktestResult) throws -> String {
            let stats = Stats(result, periodsPerYear: 252, bootstrap: .init(resamples: 20))
            return try Report(strategy: "ma-cross", parameters: [], execution: ExecutionConfig().parameters, commandLine: ["bt"],
                              result: result, stats: stats, costs: nil).markdown()
        }
        let long = try SVGChartTests.googRun()
        let notes = try markdown(long).split(separator: "\n").filter { $0.hasPrefix("Chart thinned for display: ") }
        #expect(notes.count == 2, "the equity and the candle chart")
        #expect(notes.allSatisfy { $0.contains("\(PageData.grouped(long.candles.count)) bars in ") })
        let short = try SVGChartTests.maCrossRun(long.candles.slice(0..<60))
        #expect(!(try markdown(short)).contains("thinned"))
    }
}
