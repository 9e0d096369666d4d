extension Indicators {
    /// Rate of change in percent, as TA-Lib `ROC`: `(x[i] / x[i-period] - 1) * 100`, and 0 when
    /// `x[i-period]` is 0. Warm-up `period`.
    /// - Complexity: O(n).
    public static func roc(_ x: [Double], period: Int = 10) throws -> [Double] {
        try checkPeriod(period, of: "roc", count: x.count)
        return map(x) { Kernel.roc($0, period: period, into: $1) }
    }
}

extension Indicators.Kernel {
    /// ROC of `x` into `out` (same length). See `Indicators.roc`.
    public static func roc(_ x: UnsafeBufferPointer<Double>, period p: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(p >= 1 && out.count == x.count, "roc: period must be positive and out must match x")
        let n = x.count
        out.fillNaN(0..<min(n, p))
        guard n > p else { return }
        for i in p..<n {
            let old = x[i - p]
            out[i] = old != 0 ? ((x[i] / old) - 1) * 100 : 0
        }
    }
}
