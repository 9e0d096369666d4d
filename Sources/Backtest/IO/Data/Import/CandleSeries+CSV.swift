import BacktestAnalysis
import BacktestCore

extension CandleSeries {
    /// The series as CSV with header `time,open,high,low,close,volume`, ISO-8601 UTC times and
    /// each value in Swift's shortest round-trip form, so reading it back gives the same Doubles.
    /// A missing volume (a close-only bar) is left empty, which reads back as missing.
    /// - Complexity: O(n).
    public func csvText() -> String {
        var out = "time,open,high,low,close,volume\n"
        out.reserveCapacity(count * 64 + 40)
        for i in 0..<count {
            out += UTCTime.iso(time[i])
            out += ","; out += open[i].description
            out += ","; out += high[i].description
            out += ","; out += low[i].description
            out += ","; out += close[i].description
            out += ","; if !volume[i].isNaN { out += volume[i].description }
            out += "\n"
        }
        return out
    }
}

extension CandleSeries {
    /// `bt indicators`' CSV: the series' columns then one per output of each of `specs`, named
    /// from the spec (`sma_20`, `macd_signal_12_26_9`); warm-up values are empty cells, numbers
    /// in Swift's shortest round-trip form (a missing volume as `nan`).
    /// - Throws: `InputError` from an indicator (a period longer than the series).
    package func csvText(indicators specs: [IndicatorSpec]) throws -> String {
        var names: [String] = []
        var columns: [[Double]] = []
        for spec in specs {
            names += spec.columns
            columns += try spec.compute(on: self)
        }
        var out = (["time", "open", "high", "low", "close", "volume"] + names).joined(separator: ",") + "\n"
        for i in 0..<count {
            out += "\(UTCTime.iso(time[i])),\(open[i]),\(high[i]),\(low[i]),\(close[i]),\(volume[i])"
            for column in columns {
                out += ","
                if !column[i].isNaN { out += column[i].description }
            }
            out += "\n"
        }
        return out
    }
}
