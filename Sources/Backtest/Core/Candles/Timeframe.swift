/// A bar spacing, with calendar-aligned UTC buckets for resampling.
public enum Timeframe: String, CaseIterable, Sendable, Comparable, Codable {
    case minute1 = "1m", minute5 = "5m", minute15 = "15m", minute30 = "30m"
    case hour1 = "1h", hour4 = "4h"
    case day1 = "1d", week1 = "1w", month1 = "1M"

    /// Nominal length in seconds (a month counts as 30 days; buckets use the calendar).
    public var seconds: Int64 {
        switch self {
        case .minute1: 60
        case .minute5: 300
        case .minute15: 900
        case .minute30: 1800
        case .hour1: 3600
        case .hour4: 14_400
        case .day1: 86_400
        case .week1: 604_800
        case .month1: 2_592_000
        }
    }

    public static func < (a: Timeframe, b: Timeframe) -> Bool { a.seconds < b.seconds }

    /// Parses `1m`, `5m`, ..., `1M`; throws a usage error listing the valid values.
    public static func parse(_ text: String) throws -> Timeframe {
        if let tf = Timeframe(rawValue: text) { return tf }
        throw InputError(
            "unknown timeframe \(Excerpt.quoted(text)) (valid: \(allCases.map(\.rawValue).joined(separator: " ")))")
    }

    /// Start of the UTC bucket holding `t`: minutes and hours from the epoch, days at midnight,
    /// weeks on Monday 00:00, months on the 1st at 00:00.
    public func bucketStart(_ t: Int64) -> Int64 {
        switch self {
        case .week1:
            let monday: Int64 = 4 * 86_400  // 1970-01-05 was a Monday
            return floorDiv(t - monday, 604_800) * 604_800 + monday
        case .month1:
            let c = UTCTime.civil(t)
            return UTCTime.epoch(year: c.year, month: c.month, day: 1)
        default:
            return floorDiv(t, seconds) * seconds
        }
    }

    /// When the bar stamped `t` closes: a bar covers `t..<end`, so this is its bucket's end
    /// (the next month's first day for months, `t` plus the length otherwise).
    public func barEnd(_ t: Int64) -> Int64 {
        guard self == .month1 else { return t + seconds }
        let c = UTCTime.civil(t)
        return c.month == 12 ? UTCTime.epoch(year: c.year + 1, month: 1, day: 1) : UTCTime.epoch(year: c.year, month: c.month + 1, day: 1)
    }

    /// The timeframe whose spacing matches `time`, from the median gap between bars; nil when
    /// there are fewer than two bars or the spacing matches none of the supported timeframes.
    /// Gaps within 10% of a timeframe count as it; daily data with weekends gaps still has a
    /// median of one day; months are 28 to 31 days. Zero or negative gaps are ignored.
    /// - Complexity: O(n), no sort: the median lies in a timeframe's band exactly when fewer than
    ///   half the gaps are below the band and more than half are at or below its top. A run of
    ///   equal gaps (a regular series is mostly one) is counted against the bands once.
    public static func infer(from time: [Int64]) -> Timeframe? {
        guard time.count >= 2 else { return nil }
        let bands: [(Timeframe, Int64, Int64)] = allCases.map { tf in
            tf == .month1 ? (tf, 28 * 86_400, 31 * 86_400) : (tf, tf.seconds - tf.seconds / 10, tf.seconds + tf.seconds / 10)
        }
        var below = [Int](repeating: 0, count: bands.count)
        var inside = [Int](repeating: 0, count: bands.count)
        var gaps = 0
        func count(_ g: Int64, _ times: Int) {
            for k in 0..<bands.count {
                if g < bands[k].1 { below[k] += times } else if g <= bands[k].2 { inside[k] += times }
            }
        }
        time.withUnsafeBufferPointer { t in
            var run: Int64 = 0, length = 0
            for i in 1..<t.count {
                let g = t[i] - t[i - 1]
                guard g > 0 else { continue }
                gaps += 1
                if g == run {
                    length += 1
                } else {
                    if length > 0 { count(run, length) }
                    run = g
                    length = 1
                }
            }
            if length > 0 { count(run, length) }
        }
        guard gaps > 0 else { return nil }
        let mid = gaps / 2
        for k in 0..<bands.count where below[k] <= mid && mid < below[k] + inside[k] { return bands[k].0 }
        return nil
    }
}

/// Integer division rounding toward negative infinity.
@inline(__always)
package func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
