import BacktestCore

/// A replay's chart as report.html draws it: the points of its trace (`ReplayTrace`) and every
/// fill pointing at the point it falls on.
///
/// A column of one step is one point. A column of several steps is two points, at its first and
/// its last step's time; each series takes, in time order, its lowest and its highest value over
/// the column (the one that came first on the first point), so each line passes through every
/// column's extremes in the order they happened, as `DisplaySample` draws a long run's equity.
/// A series with no value in a column (a side not quoted) has NaN there: a gap.
struct ReplayDisplay {
    /// Each point's time, epoch seconds (UTC, with the fraction).
    let time: [Double]
    /// Each series' value at each point, indexed by `ReplayTrace.Series.rawValue`.
    let values: [[Double]]
    /// The point each fill is drawn on: the last point at or before its exchange time (the
    /// first point for a fill before it), in fill order.
    let fillIndex: [Int]
    /// Steps traced, and whether columns hold several steps.
    let steps: Int
    let thinned: Bool

    init(trace: ReplayTrace, fills: [ReplayFill]) {
        var time: [Double] = [], values = Array(repeating: [Double](), count: ReplayTrace.Series.allCases.count)
        for column in trace.columns {
            if column.steps == 1 {
                time.append(Double(column.firstNs) / 1e9)
                for s in ReplayTrace.Series.allCases { values[s.rawValue].append(column[s].min) }
                continue
            }
            time += [Double(column.firstNs) / 1e9, Double(column.lastNs) / 1e9]
            for s in ReplayTrace.Series.allCases {
                let e = column[s]
                values[s.rawValue] += e.minStep <= e.maxStep ? [e.min, e.max] : [e.max, e.min]
            }
        }
        self.time = time
        self.values = values
        fillIndex = fills.map { fill in
            // The first point later than the fill, less one.
            let t = Double(fill.exchangeNs) / 1e9
            var lo = 0, hi = time.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if time[mid] <= t { lo = mid + 1 } else { hi = mid }
            }
            return Swift.max(0, lo - 1)
        }
        steps = trace.steps
        thinned = trace.stepsPerColumn > 1
    }

    /// The subtitle's note on what the chart shows.
    func note(everyNs: Int64) -> String {
        let every = NumberText.shortest(Double(everyNs) / 1e6) + " ms"
        guard thinned else {
            return "chart: the mid, the quotes in force and the position at each of the \(PageData.grouped(steps)) steps (every \(every)); every fill"
        }
        return "chart thinned for display: \(PageData.grouped(steps)) steps (every \(every)) drawn as \(PageData.grouped(time.count)) points "
            + "(each column's lowest and highest mid, quotes and position kept, in time order; every fill drawn); "
            + "the statistics and fills.csv use every step and fill"
    }
}
