import BacktestAnalysis
import BacktestCore

/// A stretch without bars, beside bars an import added, longer than a series of its timeframe
/// ordinarily goes without (`threshold`): two minute files 3.5 years apart, a month missing from
/// a daily series.
public struct ImportGap: Sendable, Equatable {
    /// The bars on either side.
    public var after: Int64
    public var before: Int64

    public init(after: Int64, before: Int64) {
        self.after = after
        self.before = before
    }

    /// A gap is long when it is longer than 14 days and longer than 10 bars of the timeframe:
    /// nights, weekends and holiday closures (the longest, Golden Week or the Lunar New Year, about
    /// ten days) are shorter; weekly series need 10 weeks, monthly ones 300 days.
    public static func threshold(_ timeframe: Timeframe) -> Int64 {
        Swift.max(14 * 86_400, 10 * timeframe.seconds)
    }

    /// The long gaps of `merged` (the stored series after the import) that border a bar the
    /// import added: a bar of `incoming` that `base` (the series before) lacks. A re-import adds
    /// nothing and reports nothing.
    /// - Complexity: O(n) over `merged`, plus O(log n) searches at each long gap.
    static func find(merged: [Int64], base: [Int64], incoming: [Int64], timeframe: Timeframe) -> [ImportGap] {
        let limit = threshold(timeframe)
        var gaps: [ImportGap] = []
        merged.withUnsafeBufferPointer { t in
            for i in t.indices.dropFirst() where t[i] - t[i - 1] > limit {
                if isAdded(t[i - 1], base, incoming) || isAdded(t[i], base, incoming) { gaps.append(ImportGap(after: t[i - 1], before: t[i])) }
            }
        }
        return gaps
    }

    static func isAdded(_ t: Int64, _ base: [Int64], _ incoming: [Int64]) -> Bool {
        contains(incoming, t) && !contains(base, t)
    }

    /// Binary search in sorted `times`.
    static func contains(_ times: [Int64], _ t: Int64) -> Bool {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo < times.count && times[lo] == t
    }
}
