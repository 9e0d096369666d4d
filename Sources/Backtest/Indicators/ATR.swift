extension Indicators {
    /// Average true range (Wilder), as TA-Lib `ATR`.
    ///
    /// True range `TR[i] = max(high[i] - low[i], |high[i] - close[i-1]|, |low[i] - close[i-1]|)`
    /// from bar 1. The first ATR (index `period`) is the mean of `TR[1...period]`, then
    /// `atr = (atr * (period - 1) + TR) / period`. Warm-up `period`. Price units.
    /// - Complexity: O(n).
    public static func atr(high: [Double], low: [Double], close: [Double], period: Int = 14) throws -> [Double] {
        try checkLengths([high.count, low.count, close.count], of: "atr")
        try checkPeriod(period, of: "atr", count: close.count)
        return map([high, low, close], outputs: 1) { i, o in
            Kernel.atr(high: i[0], low: i[1], close: i[2], period: period, into: o[0])
        }[0]
    }

    /// True range at `i >= 1`, in TA-Lib's operation order.
    @inline(__always)
    static func trueRange(_ h: Double, _ l: Double, _ previousClose: Double) -> Double {
        var tr = h - l
        let up = abs(previousClose - h)
        if up > tr { tr = up }
        let down = abs(previousClose - l)
        if down > tr { tr = down }
        return tr
    }
}

extension Indicators.Kernel {
    /// ATR into `out` (all buffers the same length). See `Indicators.atr`.
    public static func atr(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        period p: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && out.count == n, "atr: period must be positive and buffers must match")
        guard n > p, let h = high.baseAddress, let l = low.baseAddress, let c = close.baseAddress, let o = out.baseAddress else {
            out.fillNaN(0..<n); return
        }
        out.fillNaN(0..<p)
        var s = 0.0
        for i in 1...p { s += Indicators.trueRange(h[i], l[i], c[i - 1]) }
        var atr = s / Double(p)
        o[p] = atr
        let a = Double(p - 1) / Double(p), b = 1 / Double(p)
        for i in (p + 1)..<n {
            atr = atr * a + Indicators.trueRange(h[i], l[i], c[i - 1]) * b
            o[i] = atr
        }
    }
}
