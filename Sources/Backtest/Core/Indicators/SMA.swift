extension Indicators {
    /// Simple moving average: the mean of the last `period` values (TA-Lib `SMA`).
    ///
    /// Warm-up `period - 1`. Divides by multiplying with `1/period` (within 1 ulp of TA-Lib's
    /// division). Rolling sum with bounded drift (`RollingSum`).
    /// - Complexity: O(n).
    public static func sma(_ x: [Double], period: Int) throws -> [Double] {
        try checkPeriod(period, of: "sma", count: x.count)
        return map(x) { Kernel.sma($0, period: period, into: $1) }
    }
}

extension Indicators.Kernel {
    /// SMA of `x` into `out` (same length). See `Indicators.sma`.
    public static func sma(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(period >= 1 && out.count == x.count, "sma: period must be positive and out must match x")
        RollingSum.sums(x, period: period, scale: 1 / Double(period), into: out)
    }
}
