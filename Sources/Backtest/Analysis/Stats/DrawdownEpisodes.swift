import BacktestCore

/// Drawdown episodes of an equity curve: from a peak to the bar that regains it (or the end).
///
/// Depth is the episode's lowest point as a negative fraction of its peak; duration runs from the
/// peak bar to the recovery bar, in bars and in days of bar time. A peak before the first bar
/// (the initial cash) counts as bar 0. Averages are over episodes; with no drawdown the maxima
/// are 0 and the averages NaN.
struct DrawdownEpisodes {
    var depths: [Double] = []
    var bars: [Int] = []
    var days: [Double] = []

    /// - Complexity: O(n).
    init(equity: [Double], initial: Double, time: [Int64]) {
        var peak = initial, peakIndex = 0
        var inDrawdown = false, depth = 0.0
        func close(at end: Int) {
            depths.append(depth)
            bars.append(end - peakIndex)
            days.append(time.isEmpty ? 0 : Double(time[end] - time[peakIndex]) / 86_400)
        }
        for i in equity.indices {
            let e = equity[i]
            if e >= peak {
                if inDrawdown { close(at: i); inDrawdown = false }
                peak = e; peakIndex = i; depth = 0
            } else {
                inDrawdown = true
                depth = min(depth, peak > 0 ? (e - peak) / peak : 0)
            }
        }
        if inDrawdown { close(at: equity.count - 1) }
    }

    var averageDepth: Double { depths.isEmpty ? .nan : GSL.mean(depths) }
    var maxBars: Double { Double(bars.max() ?? 0) }
    var averageBars: Double { bars.isEmpty ? .nan : GSL.mean(bars.map(Double.init)) }
    var maxDays: Double { days.max() ?? 0 }
    var averageDays: Double { days.isEmpty ? .nan : GSL.mean(days) }
}
