import Testing
import Foundation
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("Chart snapshots")
struct ChartSnapshotTests {
    @Test("GOOG candles with SMA overlays at 100x30")
    func candles() throws {
        let goog = try ChartFixtures.candles("GOOG")
        let text = try CandleChart.render(goog, overlays: [
            .init(name: "sma_20", values: ChartFixtures.sma(goog.close, 20)),
            .init(name: "sma_100", values: ChartFixtures.sma(goog.close, 100)),
        ], size: ChartSize(width: 100, height: 30))
        #expect(try ChartFixtures.matchesSnapshot(text, "goog_candles_100x30"))
    }

    @Test("last 60 GOOG candles with an RSI-style panel at 80x24")
    func candlesWithPanel() throws {
        let goog = try ChartFixtures.candles("GOOG")
        let last = goog.slice((goog.count - 60)..<goog.count)
        let osc = last.close.indices.map { i in 50 + 40 * sin(Double(i) / 5) }
        let text = try CandleChart.render(last, overlays: [.init(name: "sma_10", values: ChartFixtures.sma(last.close, 10))],
                                          panels: [.init(name: "osc", lines: [.init(name: "osc", values: osc)],
                                                         range: 0...100, guides: [30, 70])],
                                          size: ChartSize(width: 80, height: 24))
        #expect(try ChartFixtures.matchesSnapshot(text, "goog_last60_panel_80x24"))
    }

    @Test("GOOG buy-and-hold equity with drawdown at 80x20")
    func equity() throws {
        let goog = try ChartFixtures.candles("GOOG")
        let equity = goog.close.map { 10_000 / goog.close[0] * $0 }
        let text = try EquityChart.render(time: goog.time, equity: equity, initial: 10_000, size: ChartSize(width: 80, height: 20))
        #expect(try ChartFixtures.matchesSnapshot(text, "goog_equity_80x20"))
    }
}
