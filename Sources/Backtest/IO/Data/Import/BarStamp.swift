import BacktestAnalysis
import BacktestCore

/// Which end of its interval a bar's time marks. bt stores every bar at its start; a file that
/// stamps bars at their end (09:31 ... 16:00 for the minutes of a 09:30-16:00 session, as
/// pyqstrat writes them) is moved back one interval as it is read.
public enum BarStamp: String, Sendable, CaseIterable {
    case start
    case end

    /// `start` or `end`, in any case.
    /// - Throws: `InputError` (setting `.stamp`).
    package init(parsing text: String) throws {
        guard let stamp = Self(rawValue: text.lowercased()) else {
            throw InputError("is not a bar stamp (valid: start end)", setting: .stamp, value: text)
        }
        self = stamp
    }

    /// Moves every bar of `series` (and the rows of `parsed`, which errors quote) back by
    /// `interval`: the bars' own spacing, as inferred from the file, or the timeframe given when
    /// it cannot be inferred (a single bar). Months have no fixed length and are refused.
    /// - Throws: `InputError` (setting `.timeframe`) when the interval is unknown; `.stamp` for
    ///   monthly bars; at the first row when a start falls before 1970.
    /// - Complexity: O(n); the order of the bars is kept.
    static func moveEndsToStarts(_ series: inout CandleSeries, _ parsed: inout ParsedCandles, interval: Timeframe?) throws {
        guard let interval else {
            throw InputError(.needsSetting, "a bar stamped at its end is moved back by its interval, which a single bar does not show",
                             setting: .timeframe, file: parsed.file)
        }
        guard interval != .month1 else {
            throw InputError("monthly bars have no fixed length to move an end stamp back by; write each month's first day",
                             setting: .stamp, value: "end")
        }
        let step = interval.seconds
        if let first = series.time.first, first - step < UTCTime.supportedRange.lowerBound {
            let row = parsed.series.time.firstIndex(of: first) ?? 0
            throw parsed.error("the bar ending at \(UTCTime.iso(first)) would start before 1970-01-01", row: row)
        }
        for i in series.time.indices { series.time[i] -= step }
        for i in parsed.series.time.indices { parsed.series.time[i] -= step }
    }
}
