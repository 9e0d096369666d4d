import Foundation

/// A one-bar move of the close that looks like a stock split left in raw prices: what an
/// import and a run warn about (`ImportNotice.likelySplits`, `RunWarning.Kind.likelySplit`),
/// since a backtest on such prices reads the split as a gain or a loss.
///
/// The definition (docs/guide/data.md, "Adjusted prices and splits"): bar t is a likely split
/// when both hold
/// - **the price**: r = close[t] / close[t-1] (both positive) is within 1% of a split ratio q,
///   |r - q| <= 0.01 q, for q in 1/2, 1/3, 2/3, 1/4, 1/10 (splits 2:1, 3:1, 3:2, 4:1, 10:1) and
///   2, 3, 3/2, 4, 10 (the same reversed);
/// - **not matched by the volume**: the volume did not move by the inverse ratio. With
///   j = volume[t] / the median volume of the (up to) 20 bars before t that have a positive
///   volume, the volume matches when j is nearer to 1/q than to 1 on a log scale,
///   |ln j + ln q| < |ln j| (for a 2:1 split: j above sqrt 2). A bar whose volume is missing,
///   0, or has no earlier volume to compare with does not match: it is warned about.
public struct LikelySplit: Sendable, Equatable {
    /// The bar's time (epoch seconds) and index in the series.
    public var time: Int64
    public var index: Int
    /// close[t] / close[t-1].
    public var move: Double
    /// The split ratio it is near, as `2:1` (the close fell to a half) or `1:2` (it doubled).
    public var ratio: String

    /// The split ratios q = close after / close before, with their names.
    static let ratios: [(q: Double, name: String)] = [
        (1.0 / 2, "2:1"), (1.0 / 3, "3:1"), (2.0 / 3, "3:2"), (1.0 / 4, "4:1"), (1.0 / 10, "10:1"),
        (2, "1:2"), (3, "1:3"), (3.0 / 2, "2:3"), (4, "1:4"), (10, "1:10"),
    ]
    /// Bars before t whose volume median the bar's volume is compared with.
    static let volumeWindow = 20

    /// The likely splits of `series`, in time order.
    /// - Complexity: O(n) for the prices; each bar near a ratio also sorts up to 20 volumes.
    public static func find(_ series: CandleSeries) -> [LikelySplit] {
        let close = series.close, volume = series.volume
        var out: [LikelySplit] = []
        guard close.count > 1 else { return out }
        for t in 1..<close.count {
            let a = close[t - 1], b = close[t]
            guard a > 0, b > 0, a.isFinite, b.isFinite else { continue }
            let r = b / a
            guard let (q, name) = ratios.first(where: { abs(r - $0.q) <= 0.01 * $0.q }) else { continue }
            if volumeMatches(volume, at: t, ratio: q) { continue }
            out.append(LikelySplit(time: series.time[t], index: t, move: r, ratio: name))
        }
        return out
    }

    /// True when the volume at `t` moved by about 1 / `ratio` against the median before it.
    static func volumeMatches(_ volume: [Double], at t: Int, ratio q: Double) -> Bool {
        let v = volume[t]
        guard v > 0, v.isFinite else { return false }
        let before = volume[max(0, t - volumeWindow)..<t].filter { $0 > 0 && $0.isFinite }
        guard !before.isEmpty else { return false }
        let m = GSL.median(before)
        let j = log(v / m)
        return abs(j + log(q)) < abs(j)
    }

    /// `2005-02-28: close fell 50.1% in one bar, like a 2:1 split`.
    public var text: String {
        let change = (move - 1) * 100
        return "\(UTCTime.isoDate(time)): close \(change < 0 ? "fell" : "rose") \(String(format: "%.1f", abs(change)))% "
            + "in one bar, like a \(ratio) \(move < 1 ? "split" : "reverse split")"
    }

    /// How many splits a warning lists by date before it says how many more.
    public static let listed = 5

    /// One line for `symbol`'s `splits`: `AAPL 2005-02-28: close fell 50.1% in one bar, like a
    /// 2:1 split; import adjusted prices or use --adjusted`, the first `listed` of them joined by
    /// `; ` and then `and N more`. Nil when there are none.
    public static func warning(symbol: String, _ splits: [LikelySplit]) -> String? {
        guard !splits.isEmpty else { return nil }
        let shown = splits.prefix(listed).map { "\(symbol) \($0.text)" }.joined(separator: "; ")
        let more = splits.count > listed ? " (and \(splits.count - listed) more)" : ""
        return shown + more + "; import adjusted prices or use --adjusted"
    }
}

extension CandleWindow {
    /// The run's warning about `likelySplits`, none when there are none.
    var splitWarning: [RunWarning] {
        LikelySplit.warning(symbol: series.symbol, likelySplits).map { [RunWarning(.likelySplit, $0)] } ?? []
    }
}
