import Foundation
import Testing
import TestSupport
@testable import BacktestCore

/// Reads the committed TA-Lib goldens (`Tests/Fixtures/talib`, written by `make_goldens.py`).
enum Golden {
    static let root = Repository.root
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/talib")

    /// Datasets with goldens: their candles and golden file.
    enum Dataset: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case goog, eurusd, synth
        var testDescription: String { rawValue }
    }

    static func lines(_ url: URL) throws -> [Substring] {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingFixture(path: url.path) }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true)
    }

    /// The dataset's candles (times are bar indices: the goldens do not need them).
    static func candles(_ d: Dataset) throws -> CandleSeries {
        let url: URL
        let first: Int
        switch d {
        case .goog: url = root.appendingPathComponent("data/GOOG.csv"); first = 1
        case .eurusd: url = root.appendingPathComponent("data/EURUSD.csv"); first = 1
        case .synth: url = fixtures.appendingPathComponent("synth_input.csv"); first = 0
        }
        var s = CandleSeries(symbol: d.rawValue)
        for (i, line) in try lines(url).dropFirst().enumerated() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).dropFirst(first).map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines))! }
            s.append(time: Int64(i), open: f[0], high: f[1], low: f[2], close: f[3], volume: f[4])
        }
        return s
    }

    /// Golden columns by name: `(bar index, value or nil for NaN)` rows.
    static func goldens(_ d: Dataset) throws -> (rows: [Int], columns: [String: [Double?]]) {
        try goldens(at: fixtures.appendingPathComponent("\(d.rawValue)_goldens.csv"))
    }

    /// Golden columns of the CSV at `url` (first column the bar index).
    static func goldens(at url: URL) throws -> (rows: [Int], columns: [String: [Double?]]) {
        let all = try lines(url)
        let names = all[0].split(separator: ",").map(String.init)
        var rows: [Int] = []
        var cols = [[Double?]](repeating: [], count: names.count)
        for line in all.dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            rows.append(Int(f[0])!)
            for j in 1..<names.count { cols[j].append(f[j].isEmpty ? nil : Double(f[j])!) }
        }
        var byName: [String: [Double?]] = [:]
        for j in 1..<names.count { byName[names[j]] = cols[j] }
        return (rows, byName)
    }

    /// True when `actual` matches `expected` within `1e-9` relative plus `absolute`.
    static func close(_ actual: Double, _ expected: Double, absolute: Double) -> Bool {
        abs(actual - expected) <= 1e-9 * abs(expected) + absolute
    }
}
