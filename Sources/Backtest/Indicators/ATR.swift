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
        // Same value as TA-Lib's compare-and-replace sequence (each term is one exact-rounded
        // subtraction); the `a > b ? a : b` form maps onto the `maxsd` instruction, branch-free.
        let range = h - l, up = abs(previousClose - h), down = abs(previousClose - l)
        let t = range > up ? range : up
        return t > down ? t : down
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
        let atr = s / Double(p)
        o[p] = atr
        // True ranges first (a branch-free, vectorisable pass), then Wilder smoothing in place.
        let b = 1 / Double(p)
        for i in (p + 1)..<n { o[i] = Indicators.trueRange(h[i], l[i], c[i - 1]) * b }
        _ = Indicators.recurrence(p + 1, n, a: Double(p - 1) / Double(p), previous: atr, into: o) { o[$0] }
    }
}
