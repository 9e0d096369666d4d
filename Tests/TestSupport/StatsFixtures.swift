import Foundation
import TestSupport
@testable import BacktestCore
@testable import BacktestAnalysis
@testable import BacktestIO

/// Committed fixtures and hand-built results shared by the stats, chart and report tests.
enum StatsFixtures {

    /// Rows of a simple CSV (no quoting) with a header, as dictionaries.
    static func csv(_ relative: String) throws -> [[String: String]] {
        let text = try Repository.text("Tests/Fixtures/\(relative)")
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// A result whose equity is `curve_<name>.csv`'s equity, candles closing at its benchmark.
    static func result(curve name: String, initial: Double) throws -> BacktestResult {
        let rows = try csv("empyrical/curve_\(name).csv")
        let time = rows.map { Int64($0["time"]!)! }
        let equity = rows.map { Double($0["equity"]!)! }
        let close = rows.map { Double($0["benchmark"]!)! }
        return result(time: time, close: close, equity: equity, initial: initial)
    }

    /// A result with the given closes and equity, flat position, no trades.
    static func result(time: [Int64], close: [Double], equity: [Double], initial: Double,
                       trades: [Trade] = [], fills: [Fill] = []) -> BacktestResult {
        let candles = CandleSeries(symbol: "TEST", timeframe: nil, time: time, open: close, high: close,
                                   low: close, close: close, volume: close.map { _ in 1 })
        return BacktestResult(candles: candles, initialCash: initial, cash: equity,
                              position: equity.map { _ in 0 }, equity: equity, trades: trades, fills: fills,
                              rejected: [], ambiguousExitBars: 0)
    }

    /// `n` daily bars from 2024-01-01 (weekends included).
    static func days(_ n: Int) -> [Int64] { (0..<n).map { 1_704_067_200 + Int64($0) * 86_400 } }
}

/// |a - b| <= tolerance x max(|b|, 1e-3): relative, with an absolute floor near zero.
func close(_ a: Double, _ b: Double, relative tolerance: Double = 1e-9) -> Bool {
    if a.isNaN && b.isNaN { return true }
    if a.isInfinite || b.isInfinite { return a == b }
    return abs(a - b) <= tolerance * max(abs(b), 1e-3)
}
