import Foundation
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Shipped data and snapshot files for the chart tests.
enum ChartFixtures {
    static let repo = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `data/<name>.csv` (date,Open,High,Low,Close,Volume), parsed here so chart tests need no store.
    static func candles(_ name: String) throws -> CandleSeries {
        let text = try String(contentsOf: repo.appendingPathComponent("data/\(name).csv"), encoding: .utf8)
        var s = CandleSeries(symbol: name)
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            s.append(time: UTCTime.parseISO(f[0])!, open: Double(f[1])!, high: Double(f[2])!,
                     low: Double(f[3])!, close: Double(f[4])!, volume: Double(f[5])!)
        }
        s.timeframe = Timeframe.infer(from: s.time)
        return s
    }

    /// Simple moving average, enough for overlay snapshots (the real one lives in Indicators).
    static func sma(_ x: [Double], _ p: Int) -> [Double] {
        var out = [Double](repeating: .nan, count: x.count)
        var sum = 0.0
        for i in x.indices {
            sum += x[i]
            if i >= p { sum -= x[i - p] }
            if i >= p - 1 { out[i] = sum / Double(p) }
        }
        return out
    }

    /// Compares `text` with `Tests/Fixtures/charts/<name>.txt` byte for byte. With
    /// `BT_UPDATE_SNAPSHOTS=1` in the environment it (re)writes the file instead and passes.
    static func matchesSnapshot(_ text: String, _ name: String) throws -> Bool {
        let url = repo.appendingPathComponent("Tests/Fixtures/charts/\(name).txt")
        if ProcessInfo.processInfo.environment["BT_UPDATE_SNAPSHOTS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return true
        }
        let expected = try Data(contentsOf: url)
        return Data(text.utf8) == expected
    }
}
