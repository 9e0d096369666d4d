extension Indicators {
    /// Linearly weighted moving average, weights `1...period` with the newest bar heaviest
    /// (TA-Lib `WMA`): `sum(j * x[i-period+j]) / (period * (period + 1) / 2)`.
    ///
    /// Rolling update `W += period * x[i] - S[i-1]` with the plain window sum `S`, both re-summed
    /// directly every `max(1024, 8 * period)` bars to bound drift. Warm-up `period - 1`.
    /// - Complexity: O(n).
    public static func wma(_ x: [Double], period: Int) throws -> [Double] {
        try checkPeriod(period, of: "wma", count: x.count)
        return map(x) { Kernel.wma($0, period: period, into: $1) }
    }
}

extension Indicators.Kernel {
    /// WMA of `x` into `out` (same length). See `Indicators.wma`.
    public static func wma(_ x: UnsafeBufferPointer<Double>, period p: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(p >= 1 && out.count == x.count, "wma: period must be positive and out must match x")
        let n = x.count
        guard n >= p, let xs = x.baseAddress, let o = out.baseAddress else { out.fillNaN(0..<n); return }
        out.fillNaN(0..<(p - 1))
        let divider = Double(p * (p + 1) / 2)
        let weight = Double(p)
        let block = RollingSum.resumEvery(p)
        var i = p - 1
        while i < n {
            var s = 0.0, w = 0.0
            for j in 0..<p {
                let v = xs[i - p + 1 + j]
                s += v
                w += Double(j + 1) * v
            }
            o[i] = w / divider
            let end = min(n, i + 1 + block)
            var j = i + 1
            while j < end {
                w += weight * xs[j] - s
                s += xs[j] - xs[j - p]
                o[j] = w / divider
                j += 1
            }
            i = end
        }
    }
}
