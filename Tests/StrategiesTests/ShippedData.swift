import Foundation
import Backtest

/// The repository's sample CSVs (`data/GOOG.csv`, `data/EURUSD.csv`), read without the store
/// so the strategy tests stand alone: header `,Open,High,Low,Close,Volume`, UTC times.
enum ShippedData {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func candles(_ name: String) throws -> CandleSeries {
        let path = root.appendingPathComponent("data/\(name).csv").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var s = CandleSeries(symbol: name)
        for (i, line) in text.split(separator: "\n").enumerated() where i > 0 {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 6, let t = UTCTime.parseISO(f[0]),
                  let o = Double(f[1]), let h = Double(f[2]), let l = Double(f[3]), let c = Double(f[4]),
                  let v = Double(f[5]) else {
                throw InputError("bad row", file: path, line: i + 1)
            }
            s.append(time: t, open: o, high: h, low: l, close: c, volume: v)
        }
        return s
    }

    static func fixture(_ relative: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/\(relative)"))
    }
}
