import BacktestCore

/// Drawdown episodes of an equity curve: from a peak to the bar that regains it (or the end).
/// The one implementation behind the statistics, the SVG charts and the report page (which draws
/// the episodes bt computed rather than finding its own).
///
/// The running peak starts at the initial cash, which counts as bar 0; a bar at or above the
/// peak ends an episode (recovered) and becomes the new peak. Depth is the episode's lowest
/// point as a negative fraction of its peak (0 when the peak is not positive), its trough the
/// first bar at that point; duration runs from the peak bar to the recovery bar (or the last
/// bar), in bars and in days of bar time. Bars whose equity is not finite are skipped. Averages
/// are over episodes; with no drawdown the maxima are 0 and the averages NaN.
///
/// It also keeps the per-bar drawdown `curve` (what `equity.csv`, the SVG chart and the
/// walk-forward file show), so a report draws what the statistics were computed from.
public struct DrawdownEpisodes: Sendable {
    public struct Episode: Sendable, Equatable {
        /// Bar of the peak (0 for the initial cash).
        public var peak: Int
        /// First bar at the episode's lowest equity.
        public var trough: Int
        /// Bar that regains the peak, or the last bar when none does.
        public var end: Int
        /// Lowest equity as a fraction of the peak, minus 1 (negative).
        public var depth: Double
        public var recovered: Bool
        /// Days of bar time from the peak to the end.
        public var days: Double

        public var bars: Int { end - peak }
    }

    /// In time order.
    public private(set) var episodes: [Episode] = []

    /// Per-bar drawdown against the running peak (which starts at the initial cash), as a
    /// negative fraction: `curve(equity:initial:)`.
    public let curve: [Double]

    /// Drawdown of an equity curve against its running peak, the peak starting at `initial`, as
    /// a negative fraction (0 while the peak is not positive; a bar whose equity is not finite
    /// reads NaN and leaves the peak as it was).
    public static func curve(equity: [Double], initial: Double) -> [Double] {
        var out = [Double](repeating: 0, count: equity.count)
        var peak = initial
        for i in equity.indices {
            peak = max(peak, equity[i])
            out[i] = peak > 0 ? (equity[i] - peak) / peak : 0
        }
        return out
    }

    /// - Complexity: O(n).
    public init(equity: [Double], initial: Double, time: [Int64]) {
        curve = Self.curve(equity: equity, initial: initial)
        var peak = initial, peakIndex = 0
        var open: (trough: Int, depth: Double)?
        func close(at end: Int, recovered: Bool) {
            guard let o = open else { return }
            let days = time.count > end ? Double(time[end] - time[peakIndex]) / 86_400 : 0
            episodes.append(Episode(peak: peakIndex, trough: o.trough, end: end, depth: o.depth, recovered: recovered, days: days))
            open = nil
        }
        for i in equity.indices {
            let e = equity[i]
            guard e.isFinite else { continue }
            if e >= peak {
                close(at: i, recovered: true)
                peak = e; peakIndex = i
            } else {
                let depth = peak > 0 ? (e - peak) / peak : 0
                if let o = open { if depth < o.depth { open = (i, depth) } } else { open = (i, depth) }
            }
        }
        close(at: equity.count - 1, recovered: false)
    }

    /// The drawdowns of `result`'s equity, its peak starting at the initial cash.
    public init(_ result: BacktestResult) {
        self.init(equity: result.equity, initial: result.initialCash, time: result.candles.time)
    }

    /// The deepest episode with a negative depth (the first of equals), nil without one.
    public var deepest: Episode? {
        episodes.reduce(nil) { best, e in e.depth < (best?.depth ?? 0) ? e : best }
    }

    /// The longest episode in bars (the first of equals), nil without one.
    public var longest: Episode? {
        episodes.reduce(nil) { best, e in best.map { e.bars > $0.bars } ?? true ? e : best }
    }

    public var averageDepth: Double { episodes.isEmpty ? .nan : GSL.mean(episodes.map(\.depth)) }
    public var maxBars: Double { Double(episodes.map(\.bars).max() ?? 0) }
    public var averageBars: Double { episodes.isEmpty ? .nan : GSL.mean(episodes.map { Double($0.bars) }) }
    public var maxDays: Double { episodes.map(\.days).max() ?? 0 }
    public var averageDays: Double { episodes.isEmpty ? .nan : GSL.mean(episodes.map(\.days)) }
}
