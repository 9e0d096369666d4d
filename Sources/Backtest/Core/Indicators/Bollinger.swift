extension Indicators {
    /// Bollinger Bands, as TA-Lib `BBANDS` with `matype = SMA` and `nbdevup = nbdevdn = k`.
    ///
    /// `middle = SMA(period)`, `upper/lower = middle ± k * sd` with the population standard
    /// deviation of the same window (see `stddev`). Warm-up `period - 1`. `k` must be finite and
    /// non-negative.
    /// - Complexity: O(n).
    public static func bollinger(_ x: [Double], period: Int = 20, k: Double = 2) throws -> Bands {
        try checkPeriod(period, of: "bollinger", count: x.count)
        guard k.isFinite, k >= 0 else { throw InputError("bollinger: k must be a non-negative number (got \(k))") }
        let r = map([x], outputs: 3) { i, o in
            Kernel.bollinger(i[0], period: period, k: k, upper: o[0], middle: o[1], lower: o[2])
        }
        return Bands(upper: r[0], middle: r[1], lower: r[2])
    }
}

extension Indicators.Kernel {
    /// Bollinger Bands of `x` into three buffers of its length. See `Indicators.bollinger`.
    public static func bollinger(
        _ x: UnsafeBufferPointer<Double>, period p: Int, k: Double,
        upper: UnsafeMutableBufferPointer<Double>, middle: UnsafeMutableBufferPointer<Double>,
        lower: UnsafeMutableBufferPointer<Double>
    ) {
        let n = x.count
        precondition(p >= 1 && upper.count == n && middle.count == n && lower.count == n, "bollinger: bad period or buffers")
        guard n >= p, let u = upper.baseAddress, let m = middle.baseAddress, let l = lower.baseAddress else {
            upper.fillNaN(0..<n); middle.fillNaN(0..<n); lower.fillNaN(0..<n); return
        }
        // Middle from the drift-bounded rolling sum (exactly `sma`), sd via the shifted sums.
        RollingSum.sums(x, period: p, scale: 1 / Double(p), into: middle)
        Indicators.rollingMeanSD(x, period: p, mean: nil, sd: u)
        upper.fillNaN(0..<(p - 1)); lower.fillNaN(0..<(p - 1))
        for i in (p - 1)..<n {
            let w = k * u[i]
            u[i] = m[i] + w
            l[i] = m[i] - w
        }
    }
}
