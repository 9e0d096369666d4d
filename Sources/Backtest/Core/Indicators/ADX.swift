extension Indicators {
    /// Average directional index (Wilder), as TA-Lib `ADX`.
    ///
    /// Directional movement `+DM = high - prevHigh`, `-DM = prevLow - low` (only the larger one
    /// counts, and only when positive); `+DM`, `-DM` and true range are summed over the first
    /// `period - 1` changes, then Wilder-smoothed (`s = s - s/period + value`). From bar `period`
    /// on, `DX = 100 * |+DI - -DI| / (+DI + -DI)` with `±DI = 100 * ±DM / TR`; the first ADX
    /// (bar `2 * period - 1`) is the mean of the first `period` DX values, then
    /// `adx = (adx * (period - 1) + DX) / period`. A DX whose TR or DI sum is below 1e-14 keeps
    /// the previous ADX (TA-Lib). Warm-up `2 * period - 1` (27 for 14). Range 0...100.
    /// - Complexity: O(n).
    public static func adx(high: [Double], low: [Double], close: [Double], period: Int = 14) throws -> [Double] {
        try checkLengths([high.count, low.count, close.count], of: "adx")
        try checkPeriod(period, of: "adx", count: close.count)
        return map([high, low, close], outputs: 1) { i, o in
            Kernel.adx(high: i[0], low: i[1], close: i[2], period: period, into: o[0])
        }[0]
    }
}

extension Indicators.Kernel {
    /// ADX into `out` (the input's length). See `Indicators.adx`.
    public static func adx(
        high: UnsafeBufferPointer<Double>, low: UnsafeBufferPointer<Double>, close: UnsafeBufferPointer<Double>,
        period p: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = close.count
        precondition(p >= 1 && high.count == n && low.count == n && out.count == n, "adx: bad period or buffers")
        let lookback = Indicators.Lookback.adx(period: p)
        out.fillNaN(0..<min(n, lookback))
        guard n > lookback else { return }
        let period = Double(p)
        var plusDM = 0.0, minusDM = 0.0, tr = 0.0
        var prevHigh = high[0], prevLow = low[0], prevClose = close[0]

        /// Moves to bar `i`: returns its directional movements and true range.
        @inline(__always) func step(_ i: Int) -> (plus: Double, minus: Double, tr: Double) {
            let h = high[i], l = low[i]
            let m = Indicators.directionalMovement(high: h, low: l, previousHigh: prevHigh, previousLow: prevLow)
            prevHigh = h
            prevLow = l
            let range = Indicators.trueRange(h, l, prevClose)
            prevClose = close[i]
            return (m.plus, m.minus, range)
        }
        @inline(__always) func dx() -> Double? { Indicators.directionalIndex(plusDM: plusDM, minusDM: minusDM, trueRange: tr) }

        var i = 1
        while i < p {
            let s = step(i)
            plusDM += s.plus; minusDM += s.minus; tr += s.tr
            i += 1
        }
        var sumDX = 0.0
        while i <= lookback {
            let s = step(i)
            plusDM = plusDM - plusDM / period + s.plus
            minusDM = minusDM - minusDM / period + s.minus
            tr = tr - tr / period + s.tr
            if let v = dx() { sumDX += v }
            i += 1
        }
        var adx = sumDX / period
        out[lookback] = adx
        while i < n {
            let s = step(i)
            plusDM = plusDM - plusDM / period + s.plus
            minusDM = minusDM - minusDM / period + s.minus
            tr = tr - tr / period + s.tr
            if let v = dx() { adx = (adx * (period - 1) + v) / period }
            out[i] = adx
            i += 1
        }
    }
}

extension Indicators {
    /// +DM and -DM of a bar: only the larger move counts, and only when positive (TA-Lib's
    /// order of tests). Shared by `Kernel.adx` and its stream.
    @inline(__always)
    static func directionalMovement(high h: Double, low l: Double, previousHigh: Double, previousLow: Double)
        -> (plus: Double, minus: Double) {
        let up = h - previousHigh, down = previousLow - l
        var plus = 0.0, minus = 0.0
        if down > 0 && up < down { minus = down } else if up > 0 && up > down { plus = up }
        return (plus, minus)
    }

    /// DX from the Wilder sums, `100 * |+DI - -DI| / (+DI + -DI)`, or nil when TA-Lib skips the
    /// bar (a true range or DI sum below 1e-14). Shared by `Kernel.adx` and its stream.
    @inline(__always)
    static func directionalIndex(plusDM: Double, minusDM: Double, trueRange tr: Double) -> Double? {
        guard !isZero(tr) else { return nil }
        let minusDI = 100 * (minusDM / tr)
        let plusDI = 100 * (plusDM / tr)
        let sum = minusDI + plusDI
        guard !isZero(sum) else { return nil }
        return 100 * (abs(minusDI - plusDI) / sum)
    }
}
