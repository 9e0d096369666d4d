extension Indicators {
    /// Williams %R, as TA-Lib `WILLR`: `-100 * (highest high - close) / (highest high - lowest low)`
    /// over `period` bars (0 when the range is 0). Range -100...0. Warm-up `period - 1`.
    /// - Complexity: O(n).
    public static func williamsR(high: [Double], low: [Double], close: [Double], period: Int = 14) throws -> [Double] {
        try checkLengths([high.count, low.count, close.count], of: "willr")
        try checkPeriod(period, of: "willr", count: close.count)
        return map([high, low, close], outputs: 1) { i, o in
            Kernel.williamsR(high: i[0], low: i[1], close: i[2], period: period, into: o[0])
        }[0]
    }
}

extension Indicators.Kernel {
    /// Williams %R into `out`. Uses `out` as scratch for the rolling low. See `Indicators.williamsR`.
    public static func williamsR(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        period p: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && out.count == n, "willr: bad period or buffers")
        out.fillNaN(0..<min(n, p - 1))
        guard n >= p, let h = high.baseAddress, let l = low.baseAddress, let o = out.baseAddress else { return }
        let highest = UnsafeMutablePointer<Double>.allocate(capacity: n)
        defer { highest.deallocate() }
        RollingExtremes.extreme(h, count: n, period: p, maximum: true, into: highest)
        RollingExtremes.extreme(l, count: n, period: p, maximum: false, into: o)
        for i in (p - 1)..<n {
            let hh = highest[i]
            let diff = (hh - o[i]) / -100
            o[i] = diff != 0 ? (hh - close[i]) / diff : 0
        }
    }
}
