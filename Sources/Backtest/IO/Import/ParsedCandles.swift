import BacktestAnalysis
import BacktestCore

/// Candles as read from one input file, before validation: the columns plus where each row
/// came from, so every error can name its line (or JSON key).
struct ParsedCandles {
    /// The input file as the user named it.
    var file: String
    var series: CandleSeries
    /// 1-based source line of each row.
    var lines: [Int] = []
    /// For JSON inputs keyed by date: the key of each row (used instead of the line).
    var keys: [String] = []

    init(file: String, symbol: String = "", capacity: Int = 0) {
        self.file = file
        series = CandleSeries(symbol: symbol)
        series.reserveCapacity(capacity)
        lines.reserveCapacity(capacity)
    }

    mutating func append(line: Int, time: Int64, open: Double, high: Double, low: Double, close: Double, volume: Double) {
        series.append(time: time, open: open, high: high, low: low, close: close, volume: volume)
        lines.append(line)
    }

    /// An error at row `i`: at its line, or its key for JSON inputs keyed by date.
    func error(_ reason: String, row i: Int) -> InputError {
        if i < keys.count { return InputError(reason, file: file, key: "\"\(keys[i])\"") }
        return InputError(reason, file: file, line: lines[i])
    }

    /// "file:line" or "file: key "2024-01-02"" for row `i`.
    func location(_ i: Int) -> String {
        error("", row: i).location!
    }

    /// Values bt accepts are at most this large in magnitude, so that sums of them (volumes
    /// aggregated into coarser bars, however many) stay finite.
    static let largestMagnitude = 1e250

    /// Checks every row (time within `UTCTime.supportedRange`, values at most
    /// `largestMagnitude` in magnitude, high >= max(open, close), low <= min(open, close),
    /// volume >= 0), sorts by time (stable), merges identical duplicate rows and refuses
    /// duplicates that differ. Prices are already known to be finite.
    /// - Throws: `InputError` naming the row's line or key.
    /// - Complexity: O(n) when already sorted, else O(n log n).
    func validated() throws -> CandleSeries {
        let s = series
        guard !s.isEmpty else { throw InputError("no data rows", at: file) }
        var sorted = true
        try s.time.withUnsafeBufferPointer { t in
            try s.open.withUnsafeBufferPointer { o in
                try s.high.withUnsafeBufferPointer { h in
                    try s.low.withUnsafeBufferPointer { l in
                        try s.close.withUnsafeBufferPointer { c in
                            try s.volume.withUnsafeBufferPointer { v in
                                for i in 0..<t.count {
                                    if !UTCTime.supportedRange.contains(t[i]) {
                                        throw error("time \(UTCTime.describe(t[i])) is outside the supported range "
                                                        + "1970-01-01 to 9999-12-31", row: i)
                                    }
                                    let largest = Swift.max(Swift.max(Swift.abs(o[i]), Swift.abs(h[i])),
                                                            Swift.max(Swift.max(Swift.abs(l[i]), Swift.abs(c[i])), Swift.abs(v[i])))
                                    if !(largest <= Self.largestMagnitude) {
                                        let (name, value) = [("open", o[i]), ("high", h[i]), ("low", l[i]), ("close", c[i]), ("volume", v[i])]
                                            .first { !(Swift.abs($0.1) <= Self.largestMagnitude) }!
                                        throw error("\(name) \(value) is beyond ±1e250 (sums of it could overflow)", row: i)
                                    }
                                    let top = Swift.max(o[i], c[i]), bottom = Swift.min(o[i], c[i])
                                    if h[i] < top {
                                        throw error("high \(h[i]) is below max(open, close) \(top)", row: i)
                                    }
                                    if l[i] > bottom {
                                        throw error("low \(l[i]) is above min(open, close) \(bottom)", row: i)
                                    }
                                    if v[i] < 0 { throw error("negative volume \(v[i])", row: i) }
                                    if i > 0 && t[i] <= t[i - 1] { sorted = false }
                                }
                            }
                        }
                    }
                }
            }
        }
        if sorted { return s }
        let order = (0..<s.count).sorted { s.time[$0] != s.time[$1] ? s.time[$0] < s.time[$1] : $0 < $1 }
        var out = CandleSeries(symbol: s.symbol, timeframe: s.timeframe)
        out.reserveCapacity(s.count)
        var previous = -1
        for i in order {
            if previous >= 0 && s.time[i] == s.time[previous] {
                let same = s.open[i] == s.open[previous] && s.high[i] == s.high[previous]
                    && s.low[i] == s.low[previous] && s.close[i] == s.close[previous]
                    && s.volume[i] == s.volume[previous]
                if same { continue }
                let first = Swift.min(i, previous), second = Swift.max(i, previous)
                throw error("duplicate time \(UTCTime.iso(s.time[i])) with values different from \(location(first))",
                            row: second)
            }
            out.append(time: s.time[i], open: s.open[i], high: s.high[i], low: s.low[i], close: s.close[i], volume: s.volume[i])
            previous = i
        }
        return out
    }
}
