/// A columnar OHLCV series: one contiguous array per field, ready for vectorized work.
///
/// `time` holds bar open times in UTC seconds since the Unix epoch, strictly increasing.
/// All arrays have the same length.
public struct CandleSeries: Sendable, Equatable {
    public var symbol: String
    public var timeframe: Timeframe?
    public var time: [Int64]
    public var open: [Double]
    public var high: [Double]
    public var low: [Double]
    public var close: [Double]
    public var volume: [Double]

    public init(
        symbol: String, timeframe: Timeframe? = nil,
        time: [Int64] = [], open: [Double] = [], high: [Double] = [],
        low: [Double] = [], close: [Double] = [], volume: [Double] = []
    ) {
        precondition(
            [open.count, high.count, low.count, close.count, volume.count].allSatisfy { $0 == time.count },
            "all candle columns must have the same length")
        self.symbol = symbol
        self.timeframe = timeframe
        self.time = time
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }

    /// Number of bars.
    public var count: Int { time.count }
    public var isEmpty: Bool { time.isEmpty }

    /// Reserves capacity in every column.
    public mutating func reserveCapacity(_ n: Int) {
        time.reserveCapacity(n); open.reserveCapacity(n); high.reserveCapacity(n)
        low.reserveCapacity(n); close.reserveCapacity(n); volume.reserveCapacity(n)
    }

    /// Appends one bar.
    public mutating func append(time t: Int64, open o: Double, high h: Double, low l: Double, close c: Double, volume v: Double) {
        time.append(t); open.append(o); high.append(h); low.append(l); close.append(c); volume.append(v)
    }

    /// The bars at `range`, as a new series.
    public func slice(_ range: Range<Int>) -> CandleSeries {
        CandleSeries(
            symbol: symbol, timeframe: timeframe,
            time: Array(time[range]), open: Array(open[range]), high: Array(high[range]),
            low: Array(low[range]), close: Array(close[range]), volume: Array(volume[range]))
    }

    /// The bars whose time is in `from...to` (either bound optional, both inclusive).
    /// - Complexity: O(log n) search plus the copy.
    public func between(from: Int64?, to: Int64?) -> CandleSeries {
        let lo = from.map { lowerBound(of: $0) } ?? 0
        let hi = to.map { lowerBound(of: $0 &+ 1) } ?? count
        return slice(lo..<max(lo, hi))
    }

    /// Index of the first bar with `time >= t` (count if none).
    public func lowerBound(of t: Int64) -> Int {
        var lo = 0, hi = time.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if time[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
