extension Indicators {
    /// Rolling population standard deviation over `period` bars, as TA-Lib `STDDEV` with `nbdev = 1`.
    ///
    /// Computed from sums of `x - c` and `(x - c)^2`, where the shift `c` is a recent input
    /// re-chosen at every re-summation, so prices far from zero (1e5 with cents of spread) do not
    /// lose precision to cancellation. A variance within rounding noise of zero (below
    /// `1e-14 * mean((x-c)^2)`) gives 0. Warm-up `period - 1`.
    /// - Complexity: O(n).
    public static func stddev(_ x: [Double], period: Int = 20) throws -> [Double] {
        try checkPeriod(period, of: "stddev", count: x.count)
        return map(x) { Kernel.stddev($0, period: period, into: $1) }
    }

    /// Rolling mean and population standard deviation of `x` in one pass; `mean` may be nil.
    /// Re-sums both shifted sums directly every 256 bars (at least `4 * period`).
    static func rollingMeanSD(
        _ x: UnsafeBufferPointer<Double>, period p: Int,
        mean: UnsafeMutablePointer<Double>?, sd: UnsafeMutablePointer<Double>
    ) {
        let n = x.count
        guard let xs = x.baseAddress else { return }
        let invP = 1 / Double(p)
        let block = max(256, 4 * p)
        var i = p - 1
        while i < n {
            let c = xs[i]
            var s1 = 0.0, s2 = 0.0
            for j in (i &- p &+ 1)...i {
                let d = xs[j] - c
                s1 += d
                s2 += d * d
            }
            let end = min(n, i &+ block)
            var j = i
            while true {
                let m = s1 * invP
                let m2 = s2 * invP
                var v = m2 - m * m
                if v <= 1e-14 * m2 { v = 0 }
                sd[j] = v.squareRoot()
                if let mean { mean[j] = m + c }
                j &+= 1
                if j >= end { break }
                let dNew = xs[j] - c, dOld = xs[j &- p] - c
                s1 += dNew - dOld
                s2 += dNew * dNew - dOld * dOld
            }
            i = end
        }
    }
}

extension Indicators.Kernel {
    /// STDDEV of `x` into `out` (same length). See `Indicators.stddev`.
    public static func stddev(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(period >= 1 && out.count == x.count, "stddev: period must be positive and out must match x")
        let n = x.count
        guard n >= period, let o = out.baseAddress else { out.fillNaN(0..<n); return }
        out.fillNaN(0..<(period - 1))
        Indicators.rollingMeanSD(x, period: period, mean: nil, sd: o)
    }
}
