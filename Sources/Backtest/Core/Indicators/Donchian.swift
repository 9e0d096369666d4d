extension Indicators {
    /// Donchian channels: `upper = max(high)`, `lower = min(low)` over the last `period` bars
    /// (current bar included), `middle = (upper + lower) / 2`. No TA-Lib function; checked against
    /// a pandas rolling max/min. Warm-up `period - 1`. Price units.
    /// - Complexity: O(n) (monotonic deques).
    public static func donchian(high: [Double], low: [Double], period: Int = 20) throws -> Bands {
        try checkLengths([high.count, low.count], of: "donchian")
        try checkPeriod(period, of: "donchian", count: high.count)
        let r = map([high, low], outputs: 3) { i, o in
            Kernel.donchian(high: i[0], low: i[1], period: period, upper: o[0], middle: o[1], lower: o[2])
        }
        return Bands(upper: r[0], middle: r[1], lower: r[2])
    }
}

extension Indicators.Kernel {
    /// Donchian channels into three buffers of the input's length. See `Indicators.donchian`.
    public static func donchian(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, period p: Int,
        upper: UnsafeMutableBufferPointer<Double>, middle: UnsafeMutableBufferPointer<Double>,
        lower: UnsafeMutableBufferPointer<Double>
    ) {
        let n = high.count
        precondition(p >= 1 && low.count == n && upper.count == n && middle.count == n && lower.count == n, "donchian: bad period or buffers")
        let warm = min(n, p - 1)
        upper.fillNaN(0..<warm); middle.fillNaN(0..<warm); lower.fillNaN(0..<warm)
        guard n >= p, let h = high.baseAddress, let l = low.baseAddress,
              let u = upper.baseAddress, let m = middle.baseAddress, let lo = lower.baseAddress else { return }
        RollingExtremes.extreme(h, count: n, period: p, maximum: true, into: u)
        RollingExtremes.extreme(l, count: n, period: p, maximum: false, into: lo)
        for i in (p - 1)..<n { m[i] = (u[i] + lo[i]) / 2 }
    }
}
