import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("SVG charts of the reports")
struct SVGChartTests {
    /// ma-cross 10/30 on the shipped GOOG bars with synthetic depth (the default run).
    static func googRun() throws -> BacktestResult {
        try maCrossRun(try ShippedData.goog())
    }

    /// ma-cross 10/30 on `candles` with the default execution.
    static func maCrossRun(_ candles: CandleSeries) throws -> BacktestResult {
        let fast = try Indicators.sma(candles.close, period: 10), slow = try Indicators.sma(candles.close, period: 30)
        var entries = [Bool](repeating: false, count: candles.count), exits = entries
        for t in 1..<candles.count where !slow[t - 1].isNaN {
            entries[t] = fast[t] > slow[t] && fast[t - 1] <= slow[t - 1]
            exits[t] = fast[t] < slow[t] && fast[t - 1] >= slow[t - 1]
        }
        return try Engine.run(Engine.Request(candles, signals: Signals(entries: entries, exits: exits), config: ExecutionConfig()))
    }

    static func smaIndicators(_ candles: CandleSeries) throws -> [ChartIndicator] {
        try [IndicatorSpec(.sma, 10), IndicatorSpec(.sma, 30), IndicatorSpec(.bb, 20, 2), IndicatorSpec(.rsi)]
            .map { try ChartIndicator($0, on: candles) }
    }

    /// A two-parameter heatmap with values of both signs and holes.
    static func heatmap() -> SVGCanvas {
        let rows = (0..<8).map { r in (0..<12).map { c -> Double in r > c ? .nan : sin(Double(r) / 2) * cos(Double(c) / 3) } }
        return SVGHeatmap.canvas(values: rows, rowName: "fast", rowLabels: (0..<8).map { String(5 + 5 * $0) }, columnName: "slow",
                                 columnLabels: (0..<12).map { String(20 + 10 * $0) }, title: "sharpe by fast (rows) and slow (columns)",
                                 stat: .sharpe, best: (row: 0, column: 0))
    }

    /// Every pair of labels is apart and every label inside the canvas.
    static func expectNoOverlap(_ c: SVGCanvas, _ name: String) {
        let labels = c.labels
        for (i, a) in labels.enumerated() {
            #expect(a.box.x >= 0 && a.box.y >= 0 && a.box.maxX <= c.width && a.box.maxY <= c.height,
                    "\(name): label '\(a.text)' \(a.box) leaves the \(c.width)x\(c.height) canvas")
            for b in labels[(i + 1)...] {
                #expect(!a.box.intersects(b.box), "\(name): '\(a.text)' \(a.box) overlaps '\(b.text)' \(b.box)")
            }
        }
    }

    static func canvases() throws -> [(String, SVGCanvas)] {
        let run = try googRun()
        let goog = run.candles
        let eurusd = try ShippedData.eurusd()
        let flat = BacktestResult(candles: goog.slice(0..<50), initialCash: 100, cash: Array(repeating: 100, count: 50),
                                  position: Array(repeating: 0, count: 50), equity: Array(repeating: 100, count: 50),
                                  trades: [], fills: [], rejected: [], ambiguousExitBars: 0)
        let one = goog.slice(0..<1)
        let folds = [SVGChart.Fold(start: 0, label: "step 1: fast=10 slow=30"), SVGChart.Fold(start: 700, label: "step 2: fast=15 slow=40"),
                     SVGChart.Fold(start: 730, label: "step 3: fast=50 slow=110")]
        return [
            ("price GOOG", SVGChart.priceCanvas(goog, trades: run.trades, indicators: try smaIndicators(goog), title: "ma-cross on GOOG")),
            ("equity GOOG", SVGChart.equityCanvas(run, drawdowns: DrawdownEpisodes(run), title: "Equity and drawdown: ma-cross on GOOG")),
            ("equity with folds", SVGChart.equityCanvas(run, drawdowns: DrawdownEpisodes(run), title: "Walk-forward", folds: folds)),
            ("price EURUSD hourly", SVGChart.priceCanvas(eurusd, trades: [], indicators: [try ChartIndicator(IndicatorSpec(.ema, 50), on: eurusd)])),
            ("price last 60 bars", SVGChart.priceCanvas(goog.slice(2000..<2060), trades: [])),
            ("price one bar", SVGChart.priceCanvas(one, trades: [])),
            ("price no bars", SVGChart.priceCanvas(goog.slice(0..<0), trades: [])),
            ("equity flat", SVGChart.equityCanvas(flat, drawdowns: DrawdownEpisodes(flat), title: "flat")),
            ("heatmap", heatmap()),
            ("heatmap 1 x 2", SVGHeatmap.canvas(values: [[0.5, .nan]], rowName: "k", rowLabels: ["2"], columnName: "period",
                                                columnLabels: ["10", "20"], title: "sharpe by k (rows) and period (columns)",
                                                stat: .sharpe, best: (row: 0, column: 0))),
        ]
    }

    @Test("byte-for-byte snapshots at a fixed size (900 wide)", arguments: ["price", "equity", "walk_forward", "heatmap"])
    func snapshots(name: String) throws {
        let run = try Self.googRun()
        let svg: String
        switch name {
        case "price": svg = SVGChart.price(run.candles, trades: run.trades, indicators: try Self.smaIndicators(run.candles),
                                           title: "ma-cross on GOOG")
        case "equity": svg = SVGChart.equity(run, drawdowns: DrawdownEpisodes(run), title: "Equity and drawdown: ma-cross on GOOG")
        case "walk_forward":
            svg = SVGChart.equity(run, drawdowns: DrawdownEpisodes(run), title: "Walk-forward: out-of-sample equity, stitched",
                                  folds: [.init(start: 0, label: "step 1: fast=10 slow=30"), .init(start: 716, label: "step 2: fast=15 slow=40"),
                                          .init(start: 1432, label: "step 3: fast=50 slow=110")])
        default: svg = Self.heatmap().svg
        }
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(name) is not well-formed XML")
        #expect(try ChartFixtures.matchesSnapshot(svg, "goog_\(name)_900", extension: "svg"),
                "\(name) differs from Tests/Fixtures/charts/goog_\(name)_900.svg (rewrite with BT_UPDATE_SNAPSHOTS=1 after checking it)")
    }

    @Test("no label overlaps another or leaves the canvas (boxes from the layout code)")
    func labelsDoNotOverlap() throws {
        for (name, canvas) in try Self.canvases() {
            #expect(!canvas.labels.isEmpty || name.contains("no bars"), "\(name) has no labels")
            Self.expectNoOverlap(canvas, name)
            #expect(XMLParser(data: Data(canvas.svg.utf8)).parse(), "\(name) is not well-formed XML")
        }
    }

    @Test("labels are drawn after every shape, so no fill covers one")
    func labelsOnTop() throws {
        for (name, canvas) in try Self.canvases() {
            let svg = canvas.svg
            guard let firstText = svg.range(of: "<text") else { continue }
            let after = svg[firstText.lowerBound...]
            for shape in ["<path", "<polygon", "<line", "<circle"] {
                #expect(!after.contains(shape), "\(name): a \(shape) is drawn after a label")
            }
        }
    }

    @Test("label boxes: width from the characters, overlap only when they share area")
    func boxes() {
        let a = SVGCanvas.textBox("2008", x: 100, y: 50, size: 10, anchor: .middle)
        #expect(abs(a.width - 25.6) < 1e-9 && abs(a.x - 87.2) < 1e-9)
        #expect(SVGCanvas.textWidth("Mar", size: 10) < SVGCanvas.textWidth("MMM", size: 10))
        let b = SVGCanvas.textBox("2009", x: 120, y: 50, size: 10, anchor: .middle)
        #expect(a.intersects(b))
        let c = SVGCanvas.textBox("2009", x: 130, y: 50, size: 10, anchor: .middle)
        #expect(!a.intersects(c))
        var canvas = SVGCanvas(width: 200, height: 100)
        canvas.text("2008", x: 100, y: 50, size: 10, anchor: .middle)
        #expect(!canvas.isFree(b) && canvas.isFree(c.outset(-1), gap: 0))
    }

    @Test("value ticks are round and inside the range")
    func ticks() {
        let t = SVGAxis.ticks(93.2, 812.7, count: 6)
        #expect(t.step == 200 && t.values == [200, 400, 600, 800])
        #expect(SVGAxis.ticks(-0.3226, 0, count: 3).values == [-0.2, 0])
        #expect(SVGAxis.ticks(-0.3226, 0, count: 4).values == [-0.3, -0.2, -0.1, 0])
        #expect(SVGAxis.ticks(0.95, 1.05, count: 4).step == 0.025)
        #expect(SVGAxis.label(46834.7651, step: 0.01) == "46,834.77")
        #expect(SVGAxis.label(-0.2, step: 0.1, percent: true) == "-20%")
        #expect(SVGAxis.label(1_000_000, step: 250_000) == "1,000,000")
        #expect(SVGAxis.label(-0.00001, step: 0.1) == "0.0")
        #expect(SVGAxis.label(2.5, step: 0.5) == "2.5")
    }

    @Test("date ticks fall on calendar boundaries at the first bar after each")
    func timeTicks() throws {
        let goog = try ShippedData.goog()
        let years = SVGAxis.timeTicks(goog.time, width: 800)
        #expect(years.map(\.text) == (2005...2013).map(String.init))
        for tick in years {
            let year = Int(tick.text)!
            #expect(UTCTime.civil(goog.time[tick.index]).year == year && UTCTime.civil(goog.time[tick.index - 1]).year == year - 1)
        }
        let months = SVGAxis.timeTicks(Array(goog.time[0..<250]), width: 800)
        #expect(months.first?.text == "Sep" && months.contains { $0.text == "2005" })
        let eurusd = try ShippedData.eurusd()
        let hours = SVGAxis.timeTicks(Array(eurusd.time[0..<48]), width: 800)
        #expect(hours.allSatisfy { $0.text.count == 5 || $0.text.hasPrefix("Apr") }, "\(hours.map(\.text))")
        #expect(hours.count >= 4)
    }

    @Test("calendar candles replace bars when there are more bars than room")
    func candleGroups() throws {
        let goog = try ShippedData.goog()
        let groups = SVGChart.CandleGroups(goog, maxGroups: 200)
        #expect(groups.timeframe == .month1)
        let monthly = goog.resampled(to: .month1)
        #expect(groups.count == monthly.count)
        #expect(groups.open == monthly.open && groups.high == monthly.high && groups.low == monthly.low
                && groups.close == monthly.close && groups.volume == monthly.volume)
        let daily = SVGChart.CandleGroups(goog.slice(0..<100), maxGroups: 200)
        #expect(daily.timeframe == .day1 && daily.count == 100)
    }

    @Test("the heatmap scale is colour-blind safe: blue above zero, orange below, never red against green")
    func heatmapColours() {
        let scale = SVGHeatmap.ColorScale(values: [-1, 0.5], diverging: true)
        #expect(scale.lo == -1 && scale.hi == 1)
        for v in Swift.stride(from: 0.1, through: 1, by: 0.1) {
            let p = scale.rgb(v), n = scale.rgb(-v)
            #expect(p.2 > p.0, "positive \(v) is not blue: \(p)")
            #expect(n.0 > n.2 && n.0 >= n.1, "negative \(-v) is not orange: \(n)")
        }
        #expect(SVGHeatmap.cellText(-0.001, unit: .ratio) == "0.00" && SVGHeatmap.cellText(-0.01, unit: .ratio) == "-0.01")
        #expect(SVGHeatmap.cellText(-0.0004, unit: .fraction) == "0.0%" && SVGHeatmap.cellText(0.256, unit: .fraction) == "26%")
        let sequential = SVGHeatmap.ColorScale(values: [3, 9], diverging: false)
        let dark = sequential.rgb(3), bright = sequential.rgb(9)
        #expect(dark.0 + dark.1 + dark.2 < bright.0 + bright.1 + bright.2)
        // The rule: diverging for a signed metric once a value is negative.
        let svg = Self.heatmap().svg
        #expect(svg.contains("#f4f4f4") || svg.contains("fill=\"#f"), "no near-white around zero")
    }

    @Test("the deepest drawdown episode follows bt's statistics")
    func deepest() throws {
        let run = try Self.googRun()
        let stats = Stats(run, bootstrap: .init(resamples: 10))
        let d = try #require(DrawdownEpisodes(equity: run.equity, initial: run.initialCash, time: run.candles.time).deepest)
        #expect(abs(d.depth - stats[.maxDrawdown]) < 1e-12)
        #expect(d.peak < d.trough && d.trough <= d.end)
        #expect(run.equity[d.trough] == run.equity[d.peak...d.end].min())
        #expect(DrawdownEpisodes(equity: [100, 101, 102], initial: 100, time: [0, 1, 2]).deepest == nil)
    }

    @Test("episodes: the peak starts at the initial cash; recovery, the open last one, deepest and longest")
    func episodes() {
        let day: Int64 = 86_400
        // 100 -> 90 (below the initial cash) -> 110 (recovered, new peak) -> 99 -> 88 (deepest) -> 95 (open).
        let d = DrawdownEpisodes(equity: [100, 90, 110, 99, 88, 95], initial: 100, time: (0..<6).map { $0 * day })
        #expect(d.episodes == [
            .init(peak: 0, trough: 1, end: 2, depth: -0.1, recovered: true, days: 2),
            .init(peak: 2, trough: 4, end: 5, depth: (88 - 110) / 110.0, recovered: false, days: 3),
        ])
        #expect(d.deepest == d.episodes[1] && d.longest == d.episodes[1])
        #expect(d.maxBars == 3 && d.maxDays == 3 && d.averageBars == 2.5)
        // Below the initial cash from the first bar; a bar that is not finite is skipped.
        let b = DrawdownEpisodes(equity: [95, .nan, 97, 101], initial: 100, time: [0, 60, 120, 180])
        #expect(b.episodes == [.init(peak: 0, trough: 0, end: 3, depth: -0.05, recovered: true, days: 180 / 86_400.0)])
        let none = DrawdownEpisodes(equity: [], initial: 100, time: [])
        #expect(none.episodes.isEmpty && none.maxBars == 0 && none.averageDepth.isNaN)
    }
}
