import Foundation
import BacktestCore

/// Committed fixtures and hand-built results shared by the stats, chart and report tests.
package enum StatsFixtures {

    /// Rows of a simple CSV (no quoting) with a header, as dictionaries.
    package static func csv(_ relative: String) throws -> [[String: String]] {
        let text = try Repository.text("Tests/Fixtures/\(relative)")
        var lines = text.split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    /// A result whose equity is `curve_<name>.csv`'s equity, candles closing at its benchmark.
    package static func result(curve name: String, initial: Double) throws -> BacktestResult {
        let rows = try csv("empyrical/curve_\(name).csv")
        let time = rows.map { Int64($0["time"]!)! }
        let equity = rows.map { Double($0["equity"]!)! }
        let close = rows.map { Double($0["benchmark"]!)! }
        return result(time: time, close: close, equity: equity, initial: initial)
    }

    /// A result with the given closes and equity, flat position, no trades.
    package static func result(time: [Int64], close: [Double], equity: [Double], initial: Double,
                       trades: [Trade] = [], fills: [Fill] = []) -> BacktestResult {
        let candles = CandleSeries(symbol: "TEST", timeframe: nil, time: time, open: close, high: close,
                                   low: close, close: close, volume: close.map { _ in 1 })
        return BacktestResult(candles: candles, initialCash: initial, cash: equity,
                              position: equity.map { _ in 0 }, equity: equity, trades: trades, fills: fills,
                              rejected: [], ambiguousExitBars: 0)
    }

    /// `n` daily bars from 2024-01-01 (weekends included).
    package static func days(_ n: Int) -> [Int64] { (0..<n).map { 1_704_067_200 + Int64($0) * 86_400 } }

    package static func trade(_ entry: Int, _ exit: Int, pnl: Double, ret: Double) -> Trade {
        Trade(side: .long, entryIndex: entry, exitIndex: exit, entryTime: days(20)[entry],
              exitTime: days(20)[exit], quantity: 1, entryPrice: 100, exitPrice: 100 + pnl,
              slippageBps: 1, fees: 0.5, pnl: pnl, returnFraction: ret)
    }

    /// Ten bars: equity 100 -> 110 -> 99 (drawdown 10%) -> back to 110 at bar 5 -> 121.
    package static let equity: [Double] = [100, 110, 104.5, 99, 104.5, 110, 115, 121, 121, 121]
    package static let sample: BacktestResult = {
        var r = result(time: days(10), close: (0..<10).map { 50 + Double($0) },
                                     equity: equity, initial: 100,
                                     trades: [trade(0, 3, pnl: -1, ret: -0.01), trade(3, 6, pnl: 3, ret: 0.03),
                                              trade(6, 8, pnl: 1, ret: 0.01)],
                                     fills: [Fill(index: 1, time: 0, side: .buy, referencePrice: 100, vwap: 100.1,
                                                  slippageBps: 10, quantityAsked: 2, quantityFilled: 1, fee: 0.25),
                                             Fill(index: 3, time: 0, side: .sell, referencePrice: 100, vwap: 99.8,
                                                  slippageBps: 20, quantityAsked: 1, quantityFilled: 1, fee: 0.75)])
        r.position = [0, 1, 1, 1, 1, 1, 1, 1, 0, 0]
        return r
    }()
}

/// |a - b| <= tolerance x max(|b|, 1e-3): relative, with an absolute floor near zero.
package func close(_ a: Double, _ b: Double, relative tolerance: Double = 1e-9) -> Bool {
    if a.isNaN && b.isNaN { return true }
    if a.isInfinite || b.isInfinite { return a == b }
    return abs(a - b) <= tolerance * max(abs(b), 1e-3)
}
