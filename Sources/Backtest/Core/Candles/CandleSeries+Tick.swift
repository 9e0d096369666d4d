extension CandleSeries {
    /// The price increment the candles are quoted in, when they show one: the largest power of
    /// ten from 1e4 down to 1e-8 of which every open, high, low and close is an integer multiple
    /// (within a millionth of the tick, or 1e-14 of the price for the rounding of decimals). GOOG's daily bars give 0.01, BTC/USD bars of whole dollars 1,
    /// EUR/USD 1e-5. Nil when no power down to 1e-8 fits (computed prices, adjusted closes) or
    /// the series is empty.
    /// - Complexity: O(n) per power tried; most powers fail within a few bars.
    public var inferredTick: Double? {
        guard !isEmpty else { return nil }
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
            for x in v {
                let k = (x / tick).rounded()
                if abs(x - k * tick) > max(1e-6 * tick, 1e-14 * abs(x)) { return false }
            }
            return true
        }
    }

    /// 10^k, exact for the negative powers as a division.
    private static func power10(_ k: Int) -> Double {
        var v = 1.0
        for _ in 0..<abs(k) { v *= 10 }
        return k >= 0 ? v : 1 / v
    }
}
