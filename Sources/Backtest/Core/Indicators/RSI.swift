extension Indicators {
    /// Relative strength index (Wilder), as TA-Lib `RSI`.
    ///
    /// Gains and losses of `x[i] - x[i-1]`; the first averages are their plain means over the
    /// first `period` changes, then Wilder's smoothing `avg = (avg * (period - 1) + value) / period`.
    /// `rsi = 100 * avgGain / (avgGain + avgLoss)`, and 0 when that sum is below 1e-14 (TA-Lib's
    /// `TA_IS_ZERO`). Warm-up `period`. Range 0...100.
    /// - Complexity: O(n).
    public static func rsi(_ x: [Double], period: Int = 14) throws -> [Double] {
        try checkPeriod(period, of: "rsi", count: x.count)
        return map(x) { Kernel.rsi($0, period: period, into: $1) }
    }

    /// TA-Lib's `TA_IS_ZERO` with its 0.6 epsilon.
    @inline(__always)
    static func isZero(_ v: Double) -> Bool { v > -1e-14 && v < 1e-14 }
}

extension Indicators.Kernel {
    /// RSI of `x` into `out` (same length). See `Indicators.rsi`.
    public static func rsi(_ x: UnsafeBufferPointer<Double>, period p: Int, into out: UnsafeMutableBufferPointer<Double>) {
        _ = rsiAverages(x, period: p, into: out)
    }

    /// RSI into `out`; returns whether the final average gain and loss are finite (false when
    /// `x` is too short to be read). See `Indicators.Checked.rsi`.
    @inline(__always)
    static func rsiAverages(_ x: UnsafeBufferPointer<Double>, period p: Int, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
        precondition(p >= 1 && out.count == x.count, "rsi: period must be positive and out must match x")
        let n = x.count
        guard n > p, let xs = x.baseAddress, let o = out.baseAddress else { out.fillNaN(0..<n); return false }
        out.fillNaN(0..<p)
        var gain = 0.0, loss = 0.0
        for i in 1...p {
            let d = xs[i] - xs[i - 1]
            if d < 0 { loss -= d } else { gain += d }
        }
        gain /= Double(p)
        loss /= Double(p)
        @inline(__always) func value(_ g: Double, _ l: Double) -> Double {
            let t = g + l
            return Indicators.isZero(t) ? 0 : 100 * (g / t)
        }
        o[p] = value(gain, loss)
        // Chunks of 256 bars: average gains into `out`, average losses into a stack buffer (both
        // branch-free four-bar recurrences), then the ratio in a separate, vectorisable pass.
        let a = Double(p - 1) / Double(p), b = 1 / Double(p)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 256) { scratch in
            let losses = scratch.baseAddress!
            var start = p + 1
            while start < n {
                let end = min(n, start &+ 256)
                gain = Indicators.recurrence(start, end, a: a, previous: gain, into: o) { max(xs[$0] - xs[$0 &- 1], 0) * b }
                loss = Indicators.recurrence(start, end, a: a, previous: loss, into: losses - start) { max(xs[$0 &- 1] - xs[$0], 0) * b }
                for i in start..<end {
                    let g = o[i]
                    let t = g + losses[i &- start]
                    o[i] = Indicators.isZero(t) ? 0 : 100 * (g / t)
                }
                start = end
            }
        }
        return gain.isFinite && loss.isFinite
    }
}
