extension Indicators {
    /// Commodity channel index (Lambert), as TA-Lib `CCI`.
    ///
    /// Typical price `tp = (high + low + close) / 3`; over `period` bars, `mean = SMA(tp)` and
    /// `md = mean(|tp - mean|)`; `cci = (tp - mean) / (0.015 * md)`, and 0 when either is 0.
    /// Warm-up `period - 1`.
    /// - Complexity: O(n * period): the mean absolute deviation has no O(1) rolling update
    ///   (TA-Lib also rescans the window).
    public static func cci(high: [Double], low: [Double], close: [Double], period: Int = 20) throws -> [Double] {
        try checkLengths([high.count, low.count, close.count], of: "cci")
        try checkPeriod(period, of: "cci", count: close.count)
        return map([high, low, close], outputs: 1) { i, o in
            Kernel.cci(high: i[0], low: i[1], close: i[2], period: period, into: o[0])
        }[0]
    }
}

extension Indicators.Kernel {
    /// CCI into `out` (the input's length). See `Indicators.cci`.
    public static func cci(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        period p: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && out.count == n, "cci: bad period or buffers")
        out.fillNaN(0..<min(n, p - 1))
        guard n >= p else { return }
        // Typical prices in a ring of `period`.
        let ring = UnsafeMutablePointer<Double>.allocate(capacity: p)
        defer { ring.deallocate() }
        let divisor = Double(p)
        for i in 0..<n {
            let tp = (high[i] + low[i] + close[i]) / 3
            ring[i % p] = tp
            guard i >= p - 1 else { continue }
            var sum = 0.0
            for j in 0..<p { sum += ring[j] }
            let mean = sum / divisor
            var deviation = 0.0
            for j in 0..<p { deviation += abs(ring[j] - mean) }
            let distance = tp - mean
            out[i] = distance != 0 && deviation != 0 ? distance / (0.015 * (deviation / divisor)) : 0
        }
    }
}
