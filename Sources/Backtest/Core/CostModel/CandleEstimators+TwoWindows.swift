extension CandleEstimators {
    /// `impactWindow` of two fills at once, one per SIMD lane: lane j takes the window before
    /// `t.j` with the same operations in the same order as `impactWindow` does (the returns
    /// from `lnSeries`, the three sums in bar order, then the squared deviations), so each lane's
    /// results are `impactWindow`'s to the bit, while the two windows' serial chains of additions
    /// run side by side. nil unless both windows take `impactWindow`'s common path: the window
    /// within the series (t > window), every price positive and finite, every return within
    /// `lnSeries`' range and the volume sums finite; the caller then takes `impactWindow` for
    /// each.
    /// - Complexity: O(window).
    static func impactWindows(_ c: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>,
                              before t: (Int, Int), window: Int)
        -> ((sigma: Double, volume: Double, dollars: Double), (sigma: Double, volume: Double, dollars: Double))? {
        guard window >= 2, t.0 > window, t.1 > window, max(t.0, t.1) <= min(c.count, v.count) else { return nil }
        typealias V = Lanes.V
        let n = window
        let p0 = c.baseAddress! + (t.0 &- n), p1 = c.baseAddress! + (t.1 &- n)
        let q0 = v.baseAddress! + (t.0 &- n), q1 = v.baseAddress! + (t.1 &- n)
        return withUnsafeTemporaryAllocation(of: V.self, capacity: n) { buffer in
            let r = buffer.baseAddress!
            let zero = V(repeating: 0)
            var worst = zero, lowest = V(p0[-1], p1[-1])
            var sum = zero, volume = zero, dollars = zero
            var y = lowest
            for i in 0..<n {
                let x = V(p0[i], p1[i])
                let s = Lanes.lnSeries(x, y)
                r[i] = s.value
                worst = Lanes.max(worst, s.z2)
                lowest = Lanes.min(lowest, x)
                let q = V(q0[i], q1[i])
                let product = x * q
                // The product where it is finite (x - x is 0 only then), else +0.
                let finite = unsafeBitCast(product - product .== zero, to: SIMD2<UInt64>.self)
                sum += s.value
                volume += q
                dollars += unsafeBitCast(unsafeBitCast(product, to: SIMD2<UInt64>.self) & finite, to: V.self)
                y = x
            }
            // The max and min skip NaN, which a price that is NaN or infinite puts in the sum of
            // the returns; a price that is not positive fails `lowest` (or, with a positive
            // neighbour, sends its return past 1e-4).
            let finite = (sum - sum .== zero) .& (volume - volume .== zero)
            guard all(finite .& (worst .< V(repeating: 1e-4)) .& (lowest .> zero)) else { return nil }
            let count = V(repeating: Double(n))
            let mean = sum / count
            var squares = zero
            for i in 0..<n { squares += (r[i] - mean) * (r[i] - mean) }
            let sigma = (squares / V(repeating: Double(n &- 1))).squareRoot()
            let volumeMean = volume / count, dollarMean = dollars / count
            return ((sigma[0], volumeMean[0], dollarMean[0]), (sigma[1], volumeMean[1], dollarMean[1]))
        }
    }
}
