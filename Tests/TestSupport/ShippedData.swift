import BacktestCore
import Foundation

/// The shipped sample candles (`data/GOOG.csv`, `data/EURUSD.csv`), parsed here without bt's
/// importers or store so tests of indicators, strategies and charts stand alone. The files are
/// CSV as pandas writes them: `,Open,High,Low,Close,Volume`, times in UTC.
package enum ShippedData {
    /// `data/<name>.csv` with real bar times and the inferred timeframe.
    package static func candles(_ name: String) throws -> CandleSeries {
        try candles(file: "data/\(name).csv", symbol: name)
    }

    /// A committed file of the same format (`relative` to the repository root) as `symbol`.
    package static func candles(file relative: String, symbol: String) throws -> CandleSeries {
        var s = CandleSeries(symbol: symbol)
        for (i, line) in try Repository.text(relative).split(separator: "\n").enumerated() where i > 0 {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 6, let t = UTCTime.parseISO(f[0]),
                  let o = Double(f[1]), let h = Double(f[2]), let l = Double(f[3]), let c = Double(f[4]),
                  let v = Double(f[5]) else {
                throw InputError("bad row", file: Repository.path(relative), line: i + 1)
            }
            s.append(time: t, open: o, high: h, low: l, close: c, volume: v)
        }
        s.timeframe = Timeframe.infer(from: s.time)
        return s
    }

    /// `data/GOOG.csv`: 2,148 daily bars, 2004-08-19 to 2013-03-01.
    package static func goog() throws -> CandleSeries { try cached.value(for: "GOOG") }

    /// `data/EURUSD.csv`: 5,000 hourly bars, 2017-04-19 to 2018-02-07.
    package static func eurusd() throws -> CandleSeries { try cached.value(for: "EURUSD") }

    /// GOOG without every 7th bar, from the 4th: a second daily symbol with other holidays, the
    /// GOOGX of the `@` goldens (`Tests/Fixtures/timeframes/make_goldens.py`).
    package static func googx() throws -> CandleSeries {
        let goog = try goog()
        var x = CandleSeries(symbol: "GOOGX", timeframe: .day1)
        for i in 0..<goog.count where i % 7 != 3 {
            x.append(time: goog.time[i], open: goog.open[i], high: goog.high[i], low: goog.low[i], close: goog.close[i], volume: goog.volume[i])
        }
        return x
    }

    private static let cached = Cache()

    /// Parsed files, read once per test process.
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var series: [String: CandleSeries] = [:]

        func value(for name: String) throws -> CandleSeries {
            lock.lock()
            defer { lock.unlock() }
            if let s = series[name] { return s }
            let s = try ShippedData.candles(name)
            series[name] = s
            return s
        }
    }
}
