extension Indicators {
    /// Moving average convergence/divergence (Appel), as TA-Lib `MACD`.
    ///
    /// `macd = EMA(fast) - EMA(slow)`, `signal = EMA(signal) of macd`, `histogram = macd - signal`.
    /// TA-Lib's alignment: both EMAs start at index `slow - 1`, each seeded with the SMA of its
    /// own last `period` values up to there (so the fast EMA is not the standalone `ema(fast)`
    /// before about `3 * slow` bars); the signal EMA is seeded with the SMA of the first `signal`
    /// MACD values. Warm-up `slow + signal - 2` (33 for 12/26/9) for all three outputs.
    /// Requires `1 <= fast < slow`.
    /// - Complexity: O(n).
    public static func macd(_ x: [Double], fast: Int = 12, slow: Int = 26, signal: Int = 9) throws -> MACD {
        try checkPeriod(fast, "fast period", of: "macd", count: x.count)
        try checkPeriod(slow, "slow period", of: "macd", count: x.count)
        try checkPeriod(signal, "signal period", of: "macd", count: x.count)
        guard fast < slow else {
            throw InputError("macd: fast period (\(fast)) must be shorter than slow period (\(slow))")
        }
        let r = map([x], outputs: 3) { i, o in
            Kernel.macd(i[0], fast: fast, slow: slow, signal: signal, macd: o[0], signal: o[1], histogram: o[2])
        }
        return MACD(macd: r[0], signal: r[1], histogram: r[2])
    }
}

extension Indicators.Kernel {
    /// MACD of `x` into three buffers of `x`'s length. See `Indicators.macd`.
    public static func macd(
        _ x: UnsafeBufferPointer<Double>, fast: Int, slow: Int, signal: Int,
        macd m: UnsafeMutableBufferPointer<Double>, signal s: UnsafeMutableBufferPointer<Double>,
        histogram h: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(fast >= 1 && fast < slow && signal >= 1, "macd: need 1 <= fast < slow and signal >= 1")
        precondition(m.count == x.count && s.count == x.count && h.count == x.count, "macd: buffers must match x")
        let n = x.count
        let lookback = Indicators.Lookback.macd(fast: fast, slow: slow, signal: signal)
        guard n > lookback, let xs = x.baseAddress, let mo = m.baseAddress, let so = s.baseAddress, let ho = h.baseAddress else {
            m.fillNaN(0..<n); s.fillNaN(0..<n); h.fillNaN(0..<n); return
        }
        let first = slow - 1
        // Fast EMA into m, slow EMA into s, both from `first`.
        let fastSeed = Indicators.seedMean(xs + (first - fast + 1), fast)
        mo[first] = fastSeed
        Indicators.emaContinue(xs, first + 1, n, k: 2 / Double(fast + 1), previous: fastSeed, into: mo)
        let slowSeed = Indicators.seedMean(xs, slow)
        so[first] = slowSeed
        Indicators.emaContinue(xs, first + 1, n, k: 2 / Double(slow + 1), previous: slowSeed, into: so)
        for i in first..<n { mo[i] -= so[i] }
        // Signal: EMA of the MACD line, seeded on its first `signal` values.
        let signalSeed = Indicators.seedMean(UnsafePointer(mo) + first, signal)
        so[lookback] = signalSeed
        Indicators.emaContinue(UnsafePointer(mo), lookback + 1, n, k: 2 / Double(signal + 1), previous: signalSeed, into: so)
        for i in lookback..<n { ho[i] = mo[i] - so[i] }
        m.fillNaN(0..<lookback); s.fillNaN(0..<lookback); h.fillNaN(0..<lookback)
    }
}
