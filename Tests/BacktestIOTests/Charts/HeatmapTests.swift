import Testing
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestPresentation

@Suite("Heatmap and histogram")
struct HeatmapTests {
    static let values: [[Double]] = [
        [0.1, 0.4, 0.2, .nan],
        [0.5, 1.2, 0.9, 0.3],
        [-0.2, 0.6, 0.7, 0.0],
    ]

    @Test("heatmap snapshot at 60x12, best cell marked")
    func snapshot() throws {
        let text = try Heatmap.render(values: Self.values, rowName: "fast", rowLabels: ["5", "10", "20"],
                                      columnName: "slow", columnLabels: ["50", "100", "150", "200"],
                                      title: "sharpe by fast x slow", size: ChartSize(width: 60, height: 12))
        #expect(text.contains("* best: fast=10 slow=100 value=1.2"))
        #expect(try ChartFixtures.matchesSnapshot(text, "heatmap_60x12"))
    }

    @Test("heatmap too wide for the size is an input error")
    func tooSmall() {
        #expect(throws: InputError.self) {
            try Heatmap.render(values: Self.values, rowName: "fast", rowLabels: ["5", "10", "20"], columnName: "slow",
                               columnLabels: ["50", "100", "150", "200"], title: "t", size: ChartSize(width: 12, height: 12))
        }
    }

    @Test("lower-is-better marks the minimum")
    func lowerIsBetter() throws {
        let text = try Heatmap.render(values: Self.values, rowName: "fast", rowLabels: ["5", "10", "20"], columnName: "slow",
                                      columnLabels: ["50", "100", "150", "200"], title: "dd", higherIsBetter: false,
                                      size: ChartSize(width: 60, height: 12))
        #expect(text.contains("fast=20 slow=50"))
    }

    @Test("histogram snapshot of GOOG daily returns at 72x14")
    func histogram() throws {
        let goog = try ChartFixtures.candles("GOOG")
        let r = Array(ReturnStats.returns(equity: goog.close, initial: goog.close[0]).dropFirst())
        let text = try HistogramChart.render(r, size: ChartSize(width: 72, height: 14))
        #expect(try ChartFixtures.matchesSnapshot(text, "goog_returns_histogram_72x14"))
    }
}
