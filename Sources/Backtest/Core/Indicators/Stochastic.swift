extension Indicators {
    /// Slow stochastic oscillator, as TA-Lib `STOCH` with SMA slowing (`slowk_matype = slowd_matype = 0`).
    ///
    /// `fastK = 100 * (close - lowest low) / (highest high - lowest low)` over `fastK` bars (0 when
    /// the range is 0); `k = SMA(fastK, slowK)`; `d = SMA(k, slowD)`. Both outputs start at
    /// TA-Lib's lookback `(fastK - 1) + (slowK - 1) + (slowD - 1)` (17 for 14/3/3). Range 0...100.
    /// - Complexity: O(n).
    public static func stochastic(
        high: [Double], low: [Double], close: [Double], fastK: Int = 14, slowK: Int = 3, slowD: Int = 3
    ) throws -> Stochastic {
        try checkLengths([high.count, low.count, close.count], of: "stoch")
        try checkPeriod(fastK, "fast %K period", of: "stoch", count: close.count)
        try checkPeriod(slowK, "slow %K period", of: "stoch", count: close.count)
        try checkPeriod(slowD, "slow %D period", of: "stoch", count: close.count)
        let r = map([high, low, close], outputs: 2) { i, o in
            Kernel.stochastic(high: i[0], low: i[1], close: i[2], fastK: fastK, slowK: slowK, slowD: slowD, k: o[0], d: o[1])
        }
        return Stochastic(k: r[0], d: r[1])
    }
}

extension Indicators.Kernel {
    /// Slow stochastic into `k` and `d` (the input's length). See `Indicators.stochastic`.
    public static func stochastic(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        fastK: Int, slowK: Int, slowD: Int, k: UnsafeMutableBufferPointer<Double>, d: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(fastK >= 1 && slowK >= 1 && slowD >= 1, "stoch: periods must be positive")
        precondition(high.count == n && low.count == n && k.count == n && d.count == n, "stoch: buffers must match")
        let lookback = Indicators.Lookback.stochastic(fastK: fastK, slowK: slowK, slowD: slowD)
        guard n > lookback, let h = high.baseAddress, let l = low.baseAddress, let c = close.baseAddress,
              let ko = k.baseAddress, let dout = d.baseAddress else {
            k.fillNaN(0..<n); d.fillNaN(0..<n); return
        }
        // Highest high into k, lowest low into d, then fast %K into d.
        let f0 = fastK - 1
        RollingExtremes.extreme(h, count: n, period: fastK, maximum: true, into: ko)
        RollingExtremes.extreme(l, count: n, period: fastK, maximum: false, into: dout)
        for i in f0..<n {
            let lowest = dout[i]
            let diff = (ko[i] - lowest) / 100
            dout[i] = diff != 0 ? (c[i] - lowest) / diff : 0
        }
        let k0 = f0 + slowK - 1
        RollingSum.sums(
            UnsafeBufferPointer(rebasing: UnsafeBufferPointer(d)[f0..<n]), period: slowK, scale: 1 / Double(slowK),
            into: UnsafeMutableBufferPointer(rebasing: k[f0..<n]))
        RollingSum.sums(
            UnsafeBufferPointer(rebasing: UnsafeBufferPointer(k)[k0..<n]), period: slowD, scale: 1 / Double(slowD),
            into: UnsafeMutableBufferPointer(rebasing: d[k0..<n]))
        k.fillNaN(0..<lookback)
        d.fillNaN(0..<lookback)
    }
}
