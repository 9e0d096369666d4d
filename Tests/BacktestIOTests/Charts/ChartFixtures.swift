import Foundation
import TestSupport
import Testing
@testable import BacktestCore
@testable import BacktestAnalysis

/// Shipped data and snapshot files for the chart tests.
enum ChartFixtures {
    static let repo = Repository.root

    /// `data/<name>.csv`, parsed without a store (`ShippedData`).
    static func candles(_ name: String) throws -> CandleSeries { try ShippedData.candles(name) }

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

    /// Compares `text` with `Tests/Fixtures/charts/<name>.<ext>` byte for byte. With
    /// `BT_UPDATE_SNAPSHOTS=1` in the environment it (re)writes the file instead and passes.
    static func matchesSnapshot(_ text: String, _ name: String, extension ext: String = "txt") throws -> Bool {
        let url = repo.appendingPathComponent("Tests/Fixtures/charts/\(name).\(ext)")
        if ProcessInfo.processInfo.environment["BT_UPDATE_SNAPSHOTS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return true
        }
        let expected = try Data(contentsOf: url)
        guard Data(text.utf8) != expected else { return true }
        let diff = TextDiff.describe(expected: String(decoding: expected, as: UTF8.self), actual: text) ?? "(the bytes differ)"
        Issue.record("\(url.path) differs:\n\(diff)\nAfter checking the change, rewrite it with BT_UPDATE_SNAPSHOTS=1.")
        return false
    }
}
