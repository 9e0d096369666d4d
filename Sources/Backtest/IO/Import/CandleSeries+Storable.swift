import BacktestCore

extension CandleSeries {
    /// The first bar an import would refuse (`ParsedCandles.problem`: times in the supported
    /// range, prices within `ParsedCandles.priceRange`, high and low around open and close,
    /// volume >= 0) or whose time does not follow the one before it, with the reason; nil when
    /// every bar could be stored. For candles that come from outside bt without an import (the
    /// C library's caller arrays, `Sources/CBridge`), checked before they reach code that
    /// assumes stored bars.
    /// - Complexity: O(n), branch-free per bar until the first problem.
    package var firstUnstorableBar: (index: Int, reason: String)? {
        let n = count
        let bad: Int? = time.withUnsafeBufferPointer { ts in
            open.withUnsafeBufferPointer { os in
            high.withUnsafeBufferPointer { hs in
            low.withUnsafeBufferPointer { ls in
            close.withUnsafeBufferPointer { cs in
            volume.withUnsafeBufferPointer { vs in
                var previous = Int64.min
                for i in 0..<n {
                    let t = ts[i]
                    let ok = ParsedCandles.accepts(time: t, open: os[i], high: hs[i], low: ls[i], close: cs[i], volume: vs[i])
                    if ok == 0 || (i > 0 && t <= previous) { return i }
                    previous = t
                }
                return nil
            }}}}}
        }
        guard let i = bad else { return nil }
        let (t, o, h, l, c, v) = (time[i], open[i], high[i], low[i], close[i], volume[i])
        if let reason = ParsedCandles.problem(time: t, open: o, high: h, low: l, close: c, volume: v)
            ?? ParsedCandles.pricesOutOfRange(open: o, high: h, low: l, close: c) {
            return (i, reason)
        }
        if i > 0 && t <= time[i - 1] {
            return (i, "time \(UTCTime.iso(t)) does not follow the bar before it (\(UTCTime.iso(time[i - 1]))): times must increase")
        }
        return (i, "not a bar bt can store")
    }
}
