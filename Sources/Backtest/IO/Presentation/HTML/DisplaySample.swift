import BacktestAnalysis
import BacktestCore

/// A long run's chart thinned for display, so report.html stays a page a browser (and a
/// notebook) opens at once: a run of more than `threshold` bars is drawn as `columns` columns
/// of consecutive bars, each split in two drawn bars at its equity's first extreme, so that
/// the equity line passes through every column's lowest and highest equity in time order (the
/// drawn drawdown is the run's own; the last column also ends at the final equity) and each drawn candle is its bars' open, highest high,
/// lowest low, last close and summed volume (every bar's extreme stays in its column). Trades,
/// fills and drawdown episodes point at the drawn bar holding their bar. The statistics, the
/// tables and the CSVs are the run's, bar for bar; the page's subtitle says the chart is thinned.
struct DisplaySample {
    /// Runs up to this many bars are drawn bar for bar (about 77 bytes a bar in the page).
    static let threshold = 20_000
    /// Columns of a thinned chart: wider than any screen's pixels.
    static let columns = 5_000

    /// The bars each drawn bar stands for, in order, covering every bar once.
    let ranges: [Range<Int>]
    /// The bar whose equity (and indicator values) each drawn bar shows: an extreme of its
    /// column's equity.
    let shown: [Int]
    let bars: Int

    /// nil when `equity`'s `count` bars are drawn as they are.
    init?(equity: [Double], threshold: Int = Self.threshold, columns: Int = Self.columns) {
        let n = equity.count
        guard n > threshold, columns > 0 else { return nil }
        var ranges: [Range<Int>] = [], shown: [Int] = []
        ranges.reserveCapacity(2 * columns)
        shown.reserveCapacity(2 * columns)
        for c in 0..<columns {
            let a = c * n / columns, b = (c + 1) * n / columns
            guard a < b else { continue }
            var low = a, high = a
            for i in a..<b where equity[i].isFinite {
                if !equity[low].isFinite || equity[i] < equity[low] { low = i }
                if !equity[high].isFinite || equity[i] > equity[high] { high = i }
            }
            // The last column ends at the last bar too, so the line ends at the final equity.
            let stops = Set([low, high] + (c == columns - 1 ? [b - 1] : [])).sorted()
            var start = a
            for (k, stop) in stops.enumerated() {
                let end = k == stops.count - 1 ? b : stop + 1
                ranges.append(start..<end)
                shown.append(stop)
                start = end
            }
        }
        self.ranges = ranges
        self.shown = shown
        bars = n
    }

    /// The drawn bar holding `bar`.
    func index(of bar: Int) -> Int {
        var lo = 0, hi = ranges.count - 1
        let bar = min(max(bar, 0), bars - 1)
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if ranges[mid].lowerBound <= bar { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Each drawn bar's candle: first open, highest high, lowest low, last close, summed
    /// volume, at its first bar's time.
    func candles(_ c: CandleSeries) -> CandleSeries {
        var out = CandleSeries(symbol: c.symbol, timeframe: c.timeframe)
        out.reserveCapacity(ranges.count)
        for r in ranges {
            out.time.append(c.time[r.lowerBound])
            out.open.append(c.open[r.lowerBound])
            out.high.append(c.high[r].max() ?? .nan)
            out.low.append(c.low[r].min() ?? .nan)
            out.close.append(c.close[r.upperBound - 1])
            out.volume.append(c.volume[r].reduce(0, +))
        }
        return out
    }

    /// A per-bar series (equity, an indicator's line) at each drawn bar's shown bar.
    func values(_ v: [Double]) -> [Double] {
        shown.map { v[$0] }
    }

    /// The run as drawn: candles, equity and position thinned, trades and fills pointing at
    /// their drawn bars.
    func result(_ r: BacktestResult) -> BacktestResult {
        var out = r
        out.candles = candles(r.candles)
        out.equity = values(r.equity)
        out.cash = values(r.cash)
        out.position = values(r.position)
        out.positionValue = r.positionValue.map(values)
        out.trades = r.trades.map { t in
            var t = t
            (t.entryIndex, t.exitIndex) = (index(of: t.entryIndex), index(of: t.exitIndex))
            return t
        }
        out.fills = r.fills.map { f in
            var f = f
            f.index = index(of: f.index)
            return f
        }
        return out
    }

    func indicator(_ i: ChartIndicator) -> ChartIndicator {
        var out = i
        out.lines = i.lines.map { line in
            var line = line
            line.values = values(line.values)
            return line
        }
        return out
    }

    /// The subtitle's note: `chart: 100,000 bars drawn as 9,871 (...); CSVs complete`.
    var note: String {
        "chart thinned for display: \(PageData.grouped(bars)) bars drawn as \(PageData.grouped(ranges.count)) "
            + "(each column's high, low and equity extremes kept; statistics and CSVs use every bar)"
    }
}
