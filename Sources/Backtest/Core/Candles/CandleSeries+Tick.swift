extension CandleSeries {
    /// The price increment the candles are quoted in, when they show one: the largest power of
    /// ten from 1e4 down to 1e-8 of which every open, high, low and close is an integer multiple.
    /// GOOG's daily bars give 0.01, BTC/USD bars of whole dollars 1, EUR/USD 1e-5, SHIB/USDT
    /// bars near 0.00001234 give 1e-8. Nil when no power down to 1e-8 fits (computed prices,
    /// adjusted closes), or the series is empty or all zero.
    ///
    /// "A multiple" is judged relative to each price (`isMultiple`), never by an absolute
    /// tolerance: a tolerance of a millionth of the tick alone reads every price below a
    /// hundredth as a multiple of 10,000 (it rounds to zero within 0.01), and the synthetic
    /// book's spread of at least one tick then rejects nearly every order.
    /// - Complexity: O(n) per power tried; most powers fail within the first block.
    public var inferredTick: Double? {
        guard !isEmpty, [open, high, low, close].contains(where: { $0.contains { $0 != 0 } }) else { return nil }
        var exponent = 4
        while exponent >= -8 {
            let tick = Self.power10(exponent)
            if [open, high, low, close].allSatisfy({ Self.allMultiples($0, of: tick) }) { return tick }
            exponent -= 1
        }
        return nil
    }

    /// `values.allSatisfy { isMultiple($0, of: tick) }`, the same answer for every input, four
    /// values a step in vector registers with no branch or libm call per value, for prices
    /// from 2 ticks to 2^45 ticks. There `isMultiple`'s bound is `max(1e-6 * tick, 1e-14 * x)`
    /// (the price is above the tick), the nearest integer comes from adding and subtracting
    /// 1.5 * 2^52 (exact below 2^51), and a quotient exactly halfway, which that rounds to even
    /// where `rounded()` rounds away from zero, is half a tick from both neighbours, more than
    /// the bound, so it fails either way. For the same reason the quotient may be a product with
    /// 1 / tick, a few ulps from `x / tick`: the nearest integers differ only for a quotient
    /// that close to halfway. A block of 256 holding any other value (a price below two ticks,
    /// a huge one, a negative, NaN or an infinity) is judged by `isMultiple`.
    static func allMultiples(_ values: [Double], of tick: Double) -> Bool {
        typealias V = SIMD4<Double>
        return values.withUnsafeBufferPointer { v in
            let magic = V(repeating: 6_755_399_441_055_744), t = V(repeating: tick), fine = V(repeating: 1e-6 * tick)
            let inverse = V(repeating: 1 / tick)
            let low = V(repeating: 2), high = V(repeating: 35_184_372_088_832)  // 2^45
            let block = 256
            var start = 0
            while start < v.count {
                let end = Swift.min(start &+ block, v.count)
                var near = SIMDMask<SIMD4<Int64>>(repeating: true), inside = near
                var i = start
                while i &+ 4 <= end {
                    let x = UnsafeRawPointer(v.baseAddress! + i).loadUnaligned(as: V.self)
                    let q = x * inverse
                    let k = (q + magic) - magic
                    let d = x - k * t
                    let rounding = 1e-14 * x
                    let bound = fine.replacing(with: rounding, where: fine .< rounding)
                    near .&= (d .<= bound) .& (-d .<= bound)
                    inside .&= (q .>= low) .& (q .< high)
                    i &+= 4
                }
                var ok = !any(.!near)
                if any(.!inside) {
                    ok = true
                    i = start
                }
                while ok && i < end {
                    ok = isMultiple(v[i], of: tick)
                    i &+= 1
                }
                if !ok { return false }
                start = end
            }
            return true
        }
    }

    /// Whether `x` is `k * tick` for an integer `k`, to within a millionth of the tick but never
    /// more than a millionth of `x` itself (so a nonzero price is never a multiple of a tick
    /// larger than itself: `k = 0` misses it by all of `x`), or 1e-14 of `x` for the rounding of
    /// decimals (a large price at a fine tick). Zero is a multiple of every tick.
    static func isMultiple(_ x: Double, of tick: Double) -> Bool {
        let k = (x / tick).rounded()
        let size = abs(x)
        return abs(x - k * tick) <= max(min(1e-6 * tick, 1e-6 * size), 1e-14 * size)
    }

    /// 10^k, exact for the negative powers as a division.
    private static func power10(_ k: Int) -> Double {
        var v = 1.0
        for _ in 0..<abs(k) { v *= 10 }
        return k >= 0 ? v : 1 / v
    }
}
