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
        _ = atr(high: high, low: low, close: close, period: p, into: out, checking: false)
    }

    /// ATR into `out`; with `checking`, also returns whether every input is proved finite (else
    /// true). See `Indicators.Checked.atr`.
    @inline(__always)
    static func atr(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        period p: Int, into out: UnsafeMutableBufferPointer<Double>, checking: Bool
    ) -> Bool {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && out.count == n, "atr: period must be positive and buffers must match")
        guard n > p, let h = high.baseAddress, let l = low.baseAddress, let c = close.baseAddress, let o = out.baseAddress else {
            out.fillNaN(0..<n); return !checking
        }
        out.fillNaN(0..<p)
        // A true range takes in a NaN or an infinity of its low or previous close, and an
        // infinity of its high, but drops a NaN high (`range` and `up` are NaN, `down` is not);
        // so the check reads the highs itself: bars 0...p here, each block below while it is in L1.
        var finite = !checking || Indicators.allFinite(h, count: p + 1)
        var s = 0.0
        for i in 1...p { s += Indicators.trueRange(h[i], l[i], c[i - 1]) }
        let atr = s / Double(p)
        o[p] = atr
        // Blocks of 128 bars: the scaled true ranges go to a 1 KiB stack buffer in a branch-free,
        // vectorised loop, then the eight-bar Wilder step reads them from L1. The block is small
        // enough that the out-of-order core overlaps one block's smoothing (latency bound) with
        // the next block's loads (memory bound), and there is no n-long intermediate array.
        // (Fusing both into one loop is slower: LLVM's SLP vectoriser turns the maxes into branches.)
        let a = Double(p - 1) / Double(p), b = 1 / Double(p)
        let block = 128
        withUnsafeTemporaryAllocation(of: Double.self, capacity: block) { scratch in
            let tr = scratch.baseAddress!
            var previous = atr
            var start = p + 1
            while start < n {
                let end = min(n, start &+ block)
                for j in 0..<(end &- start) { tr[j] = Indicators.trueRange(h[start &+ j], l[start &+ j], c[start &+ j &- 1]) * b }
                if checking && finite { finite = Indicators.allFinite(h + start, count: end &- start) }
                let base = tr - start
                previous = Indicators.wilder8(start, end, a: a, previous: previous, into: o) { base[$0] }
                start = end
            }
        }
        guard checking else { return true }
        // Every low from bar 1 and close to bar n-2 went into a true range, and every true range
        // into the seed and then the smoothed value, which stays non-finite once it took one in:
        // `o[n-1]` covers them all. Bar 0's high and low and the last close are not read.
        return finite && o[n - 1].isFinite && l[0].isFinite && c[n - 1].isFinite
    }
}

extension Indicators {
    /// `recurrence` with eight bars per step: the carried chain is one multiply and one add per
    /// eight bars, `y[t+j] = a^(j+1) y[t-1] + v_j`. Same rounding caveat as `recurrence` (a few
    /// ulps, decaying geometrically), and prefix-stable as it is. Used by ATR, where the shorter
    /// chain is measurably faster.
    @inline(__always)
    static func wilder8(
        _ start: Int, _ end: Int, a: Double, previous: Double,
        into out: UnsafeMutablePointer<Double>, _ u: (Int) -> Double
    ) -> Double {
        let a2 = a * a, a3 = a2 * a, a4 = a2 * a2, a5 = a4 * a, a6 = a4 * a2, a7 = a4 * a3, a8 = a4 * a4
        var y = previous
        var i = start
        while i &+ 8 <= end {
            let v0 = u(i)
            let v1 = a * v0 + u(i &+ 1)
            let v2 = a * v1 + u(i &+ 2)
            let v3 = a * v2 + u(i &+ 3)
            let v4 = a * v3 + u(i &+ 4)
            let v5 = a * v4 + u(i &+ 5)
            let v6 = a * v5 + u(i &+ 6)
            let v7 = a * v6 + u(i &+ 7)
            out[i] = a * y + v0
            out[i &+ 1] = a2 * y + v1
            out[i &+ 2] = a3 * y + v2
            out[i &+ 3] = a4 * y + v3
            out[i &+ 4] = a5 * y + v4
            out[i &+ 5] = a6 * y + v5
            out[i &+ 6] = a7 * y + v6
            y = a8 * y + v7
            out[i &+ 7] = y
            i &+= 8
        }
        // The partial block, in the full block's formulas (prefix-stable, as `recurrence`).
        var v = 0.0
        var power = a
        var j = i
        while j < end {
            v = j == i ? u(j) : a * v + u(j)
            let yj = power * y + v
            out[j] = yj
            power = j &- i == 0 ? a2 : j &- i == 1 ? a3 : j &- i == 2 ? a4 : j &- i == 3 ? a5 : j &- i == 4 ? a6 : a7
            j &+= 1
        }
        return j > i ? out[j &- 1] : y
    }
}
