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
