extension Indicators {
    /// Exponential moving average with `k = 2 / (period + 1)` (TA-Lib `EMA`).
    ///
    /// Seeded as TA-Lib does: the value at index `period - 1` is the SMA of the first `period`
    /// values; then `ema = ema + k * (x - ema)`. Warm-up `period - 1`.
    /// - Complexity: O(n).
    public static func ema(_ x: [Double], period: Int) throws -> [Double] {
        try checkPeriod(period, of: "ema", count: x.count)
        return map(x) { Kernel.ema($0, period: period, into: $1) }
    }

    /// Sequential sum of `count` values then division, exactly TA-Lib's seed of EMA/ATR/MACD.
    @inline(__always)
    static func seedMean(_ x: UnsafePointer<Double>, _ count: Int) -> Double {
        var s = 0.0
        for i in 0..<count { s += x[i] }
        return s / Double(count)
    }

    /// Continues an EMA: `out[i] = a * out[i-1] + k * x[i]` for `i` in `start..<end`, with
    /// `a = 1 - k` and `out[start-1] = previous`.
    @inline(__always)
    static func emaContinue(
        _ x: UnsafePointer<Double>, _ start: Int, _ end: Int, k: Double, previous: Double,
        into out: UnsafeMutablePointer<Double>
    ) {
        _ = recurrence(start, end, a: 1 - k, previous: previous, into: out) { k * x[$0] }
    }

    /// First-order linear recurrence `out[i] = a * out[i-1] + u(i)` for `i` in `start..<end`, with
    /// `out[start-1] = previous`; returns the last value. The form of EMA and Wilder smoothing.
    ///
    /// Four bars per step: `y[t+j] = a^(j+1) y[t-1] + v_j` where `v_j = a v_(j-1) + u(t+j)` does not
    /// depend on the carried value, so the loop-carried chain is one multiply and one add per four
    /// bars. Rounding differs from the one-bar recurrence by a few ulps; the difference decays
    /// geometrically (|a| < 1).
    ///
    /// Prefix-stable: the blocks start at `start` whatever `end` is, and the last, partial block
    /// uses the same formulas, so `out[i]` depends only on `u(start...i)` and `previous` (bars
    /// appended later never change it, to the bit; `StreamingRecurrence` continues it bar by bar).
    @inline(__always)
    static func recurrence(
        _ start: Int, _ end: Int, a: Double, previous: Double,
        into out: UnsafeMutablePointer<Double>, _ u: (Int) -> Double
    ) -> Double {
        let a2 = a * a, a3 = a2 * a, a4 = a2 * a2
        var y = previous
        var i = start
        while i &+ 4 <= end {
            let v0 = u(i)
            let v1 = a * v0 + u(i &+ 1)
            let v2 = a * v1 + u(i &+ 2)
            let v3 = a * v2 + u(i &+ 3)
            out[i] = a * y + v0
            out[i &+ 1] = a2 * y + v1
            out[i &+ 2] = a3 * y + v2
            y = a4 * y + v3
            out[i &+ 3] = y
            i &+= 4
        }
        // The partial block, in the full block's formulas.
        if i < end {
            let v0 = u(i)
            let y0 = a * y + v0
            out[i] = y0
            guard i &+ 1 < end else { return y0 }
            let v1 = a * v0 + u(i &+ 1)
            let y1 = a2 * y + v1
            out[i &+ 1] = y1
            guard i &+ 2 < end else { return y1 }
            let v2 = a * v1 + u(i &+ 2)
            let y2 = a3 * y + v2
            out[i &+ 2] = y2
            return y2
        }
        return y
    }
}

extension Indicators.Kernel {
    /// EMA of `x` into `out` (same length). See `Indicators.ema`.
    public static func ema(_ x: UnsafeBufferPointer<Double>, period: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(period >= 1 && out.count == x.count, "ema: period must be positive and out must match x")
        let n = x.count
        guard n >= period, let xs = x.baseAddress, let o = out.baseAddress else { out.fillNaN(0..<n); return }
        out.fillNaN(0..<(period - 1))
        let seed = Indicators.seedMean(xs, period)
        o[period - 1] = seed
        Indicators.emaContinue(xs, period, n, k: 2 / Double(period + 1), previous: seed, into: o)
    }
}
