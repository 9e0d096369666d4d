extension Indicators {
    /// On-balance volume (Granville), as TA-Lib `OBV`: starts at `volume[0]`, then adds the bar's
    /// volume when the close rose, subtracts it when it fell, keeps it when unchanged. No warm-up.
    /// After a gap (NaN input) it restarts at the first volume of the next run. Volume units.
    /// - Complexity: O(n).
    public static func obv(close: [Double], volume: [Double]) throws -> [Double] {
        try checkLengths([close.count, volume.count], of: "obv")
        return map([close, volume], outputs: 1) { i, o in Kernel.obv(close: i[0], volume: i[1], into: o[0]) }[0]
    }
}

extension Indicators.Kernel {
    /// OBV into `out` (the input's length). See `Indicators.obv`.
    public static func obv(close: UnsafeBufferPointer<Double>, volume: UnsafeBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>) {
        let n = close.count
        precondition(volume.count == n && out.count == n, "obv: buffers must match")
        guard n > 0 else { return }
        var total = volume[0]
        var previous = close[0]
        out[0] = total
        for i in 1..<n {
            let c = close[i]
            if c > previous { total += volume[i] } else if c < previous { total -= volume[i] }
            out[i] = total
            previous = c
        }
    }
}
