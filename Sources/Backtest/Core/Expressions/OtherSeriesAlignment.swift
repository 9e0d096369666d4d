/// Where one series read with `@` shows in a run: runs of consecutive run bars that see the same
/// bar of the series (the last that closed at or before their close, not older than the series'
/// `maxAge`); run bars in no run see nothing (NaN, counted in the warnings).
///
/// A daily series in a minute run is some hundreds of runs for a million bars, so the join is
/// found by searching the run's close times, and values are laid out by filling whole runs.
struct OtherSeriesAlignment: Sendable {
    /// The run's bars `bars` see the series' bar `bar`; ascending and disjoint.
    struct Span: Sendable, Equatable {
        var bars: Range<Int>
        var bar: Int
    }

    var spans: [Span]
    /// Bars in the run.
    var count: Int

    /// The as-of join of `closes` (the series' close times, ascending) onto a run of `count`
    /// bars whose bar `i` closes at `runClose(i)` (non-decreasing in `i`): run bar `i` sees the
    /// last `j` with `closes[j] <= runClose(i)`, when `runClose(i) - closes[j] <= maxAge`.
    /// - Complexity: O(m log(n/m)) calls of `runClose` for m bars of the series and n of the run
    ///   (each boundary is found by a galloping search from the last).
    init(closes: [Int64], maxAge: Int64?, count: Int, runClose: (Int) -> Int64) {
        self.count = count
        spans = []
        /// The first run bar at or after `lower` whose close satisfies `reached` (false, then true).
        func first(from lower: Int, where reached: (Int64) -> Bool) -> Int {
            var lo = lower, step = 1
            while lo < count && !reached(runClose(lo)) {
                let probe = lo + step
                if probe >= count || reached(runClose(probe)) {
                    // The answer is in lo + 1 ... min(probe, count).
                    var a = lo + 1, b = min(probe, count)
                    while a < b {
                        let mid = a + (b - a) / 2
                        if reached(runClose(mid)) { b = mid } else { a = mid + 1 }
                    }
                    return a
                }
                lo = probe
                step *= 2
            }
            return lo
        }
        var start = 0
        for j in closes.indices where start < count {
            let close = closes[j]
            let lower = first(from: start) { $0 >= close }
            let next = j + 1 < closes.count ? first(from: lower) { $0 >= closes[j + 1] } : count
            var upper = next
            if let maxAge {
                let limit = close.addingReportingOverflow(maxAge)
                if !limit.overflow { upper = min(upper, first(from: lower) { $0 > limit.partialValue }) }
            }
            if lower < upper { spans.append(Span(bars: lower..<upper, bar: j)) }
            start = next
        }
    }

    /// Whether no run bar sees a bar of the series.
    var isEmpty: Bool { spans.isEmpty }

    /// The run bars that see no bar of the series, ascending.
    var unseen: [Int] {
        var out: [Int] = []
        var next = 0
        for span in spans {
            out += next..<span.bars.lowerBound
            next = span.bars.upperBound
        }
        return out + (next..<count)
    }

    /// `own` (one value per bar of the series) as the run sees it: NaN on unseen bars.
    func values(_ own: [Double]) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { out, initialized in
            var next = 0
            for span in spans {
                out[next..<span.bars.lowerBound].initialize(repeating: .nan)
                out[span.bars].initialize(repeating: own[span.bar])
                next = span.bars.upperBound
            }
            out[next..<count].initialize(repeating: .nan)
            initialized = count
        }
    }
}
