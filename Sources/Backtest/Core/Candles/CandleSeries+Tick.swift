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
    /// - Complexity: O(n) per power tried; most powers fail within a few bars.
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

    private static func allMultiples(_ values: [Double], of tick: Double) -> Bool {
        values.withUnsafeBufferPointer { v in
            for x in v where !isMultiple(x, of: tick) { return false }
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
