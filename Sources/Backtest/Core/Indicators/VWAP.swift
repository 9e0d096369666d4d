extension Indicators {
    /// Rolling volume-weighted average price over `period` bars:
    /// `sum(tp * volume) / sum(volume)` with typical price `tp = (high + low + close) / 3`.
    ///
    /// No TA-Lib function; checked against a numpy reference. NaN when the window's volume is 0.
    /// Both sums re-summed directly every `max(1024, 8 * period)` bars to bound drift.
    /// Warm-up `period - 1`. Price units.
    /// - Complexity: O(n).
    public static func vwap(high: [Double], low: [Double], close: [Double], volume: [Double], period: Int = 20) throws -> [Double] {
        try checkLengths([high.count, low.count, close.count, volume.count], of: "vwap")
        try checkPeriod(period, of: "vwap", count: close.count)
        return map([high, low, close, volume], outputs: 1) { i, o in
            Kernel.vwap(high: i[0], low: i[1], close: i[2], volume: i[3], period: period, into: o[0])
        }[0]
    }
}

extension Indicators.Kernel {
    /// Rolling VWAP into `out` (the input's length). See `Indicators.vwap`.
    public static func vwap(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        volume: UnsafeBufferPointer<Double>, period p: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && volume.count == n && out.count == n, "vwap: bad period or buffers")
        out.fillNaN(0..<min(n, p - 1))
        guard n >= p else { return }
        @inline(__always) func weighted(_ i: Int) -> Double { (high[i] + low[i] + close[i]) / 3 * volume[i] }
        let block = RollingSum.resumEvery(p)
        var i = p - 1
        while i < n {
            var pv = 0.0, v = 0.0
            for j in (i - p + 1)...i { pv += weighted(j); v += volume[j] }
            out[i] = v != 0 ? pv / v : .nan
            let end = min(n, i + 1 + block)
            var j = i + 1
            while j < end {
                pv += weighted(j) - weighted(j - p)
                v += volume[j] - volume[j - p]
                out[j] = v != 0 ? pv / v : .nan
                j += 1
            }
            i = end
        }
    }
}
