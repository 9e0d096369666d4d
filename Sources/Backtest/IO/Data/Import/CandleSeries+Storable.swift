import BacktestCore
import Foundation

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

    /// `firstUnstorableBar == nil` for the candles that copying `count` bars from these columns
    /// would make, checked while copying them into the new `CandleSeries` columns: one pass over
    /// the caller's memory, 2,048 bars at a time, each block checked branch-free while it is in
    /// cache, on every core for a long series (the C library's backtests, `Sources/CBridge`).
    /// A NULL `volume` is read as zeros.
    /// Returns the candles and whether every bar is sure to be storable; when not,
    /// `firstUnstorableBar` of the candles names the first bar and the reason (or finds none).
    /// - Complexity: O(n), one read of each column and one write of each copy.
    package static func copying(
        symbol: String, timeframe: Timeframe?, count n: Int, time: UnsafePointer<Int64>, open: UnsafePointer<Double>,
        high: UnsafePointer<Double>, low: UnsafePointer<Double>, close: UnsafePointer<Double>, volume: UnsafePointer<Double>?
    ) -> (candles: CandleSeries, storable: Bool) {
        var ok: UInt8 = 1
        var o: [Double] = [], h: [Double] = [], l: [Double] = [], c: [Double] = [], v: [Double] = []
        let t = [Int64](unsafeUninitializedCapacity: n) { ts, tCount in
        o = [Double](unsafeUninitializedCapacity: n) { os, oCount in
        h = [Double](unsafeUninitializedCapacity: n) { hs, hCount in
        l = [Double](unsafeUninitializedCapacity: n) { ls, lCount in
        c = [Double](unsafeUninitializedCapacity: n) { cs, cCount in
        v = [Double](unsafeUninitializedCapacity: n) { vs, vCount in
            let block = 2048, blocks = (n &+ block &- 1) / block
            // Parts of whole blocks on the cores at once (a copy of a million bars is bound by
            // memory and the checks by arithmetic; both go faster on two cores); one part below
            // 256 blocks, where starting threads costs more than it saves.
            let parts = blocks < 256 ? 1 : Swift.min(4, Swift.max(1, ProcessInfo.processInfo.activeProcessorCount))
            let perPart = (blocks &+ parts &- 1) / parts
            var oks = [UInt8](repeating: 1, count: parts)
            oks.withUnsafeMutableBufferPointer { oks in
                nonisolated(unsafe) let to = (ts.baseAddress!, os.baseAddress!, hs.baseAddress!, ls.baseAddress!, cs.baseAddress!,
                                              vs.baseAddress!)
                nonisolated(unsafe) let from = (time, open, high, low, close, volume), results = oks.baseAddress!
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    var ok: UInt8 = 1
                    var start = part &* perPart &* block
                    let end = Swift.min(n, (part &+ 1) &* perPart &* block)
                    while start < end {
                        let m = Swift.min(block, end &- start)
                        func copy<T>(_ source: UnsafePointer<T>, _ target: UnsafeMutablePointer<T>) {
                            (target + start).update(from: source + start, count: m)
                        }
                        copy(from.0, to.0); copy(from.1, to.1); copy(from.2, to.2); copy(from.3, to.3); copy(from.4, to.4)
                        if let volume = from.5 { copy(volume, to.5) } else { (to.5 + start).initialize(repeating: 0, count: m) }
                        ok &= blockStorable(to.0 + start, to.1 + start, to.2 + start, to.3 + start, to.4 + start, to.5 + start, m,
                                            previous: start == 0 ? Int64.min : from.0[start &- 1])
                        start &+= m
                    }
                    results[part] = ok
                }
            }
            ok = oks.reduce(1, &)
            vCount = n
        }
        cCount = n }
        lCount = n }
        hCount = n }
        oCount = n }
        tCount = n }
        let candles = CandleSeries(symbol: symbol, timeframe: timeframe, time: t, open: o, high: h, low: l, close: c, volume: v)
        return (candles, ok == 1)
    }

    /// 1 when each of the `m` bars is one `ParsedCandles.accepts` and its time follows the one
    /// before (`previous` before the first), else 0 (or 0 for a bar a hair inside `accepts`'s
    /// bounds: the caller then asks `firstUnstorableBar`, which finds none). Four bars a step in
    /// vector registers with no branch per bar. Where `accepts` bounds high and low by max(open,
    /// close) and min(open, close) with a tolerance of its magnitude, this bounds them by open and
    /// close each (stricter: it never passes a bar `accepts` fails), and without `abs`, since a
    /// price that is not positive fails the price range.
    @inline(__always)
    private static func blockStorable(
        _ t: UnsafePointer<Int64>, _ o: UnsafePointer<Double>, _ h: UnsafePointer<Double>, _ l: UnsafePointer<Double>,
        _ c: UnsafePointer<Double>, _ v: UnsafePointer<Double>, _ m: Int, previous: Int64
    ) -> UInt8 {
        typealias V = SIMD4<Double>
        let lo = V(repeating: ParsedCandles.priceRange.lowerBound), hi = V(repeating: ParsedCandles.priceRange.upperBound)
        let most = V(repeating: ParsedCandles.largestMagnitude), tolerance = V(repeating: ParsedCandles.ohlcTolerance)
        let zero = V(repeating: 0)
        var good = SIMDMask<SIMD4<Int64>>(repeating: true)
        func load(_ p: UnsafePointer<Double>, _ i: Int) -> V { UnsafeRawPointer(p + i).loadUnaligned(as: V.self) }
        var i = 0
        while i &+ 4 <= m {
            let o4 = load(o, i), h4 = load(h, i), l4 = load(l, i), c4 = load(c, i), v4 = load(v, i)
            var g = (o4 .>= lo) .& (o4 .<= hi) .& (h4 .>= lo) .& (h4 .<= hi)
            g .&= (l4 .>= lo) .& (l4 .<= hi) .& (c4 .>= lo) .& (c4 .<= hi)
            let flat = (o4 .== h4) .& (h4 .== l4) .& (l4 .== c4)
            g .&= ((v4 .>= zero) .& (v4 .<= most)) .| ((v4 .!= v4) .& flat)
            g .&= (o4 - h4 .<= tolerance * o4) .& (c4 - h4 .<= tolerance * c4)
            g .&= (l4 - o4 .<= tolerance * o4) .& (l4 - c4 .<= tolerance * c4)
            good .&= g
            i &+= 4
        }
        var ok: UInt8 = any(.!good) ? 0 : 1
        while i < m {
            ok &= ParsedCandles.accepts(time: t[i], open: o[i], high: h[i], low: l[i], close: c[i], volume: v[i])
            i &+= 1
        }
        let first = UTCTime.supportedRange.lowerBound, last = UTCTime.supportedRange.upperBound
        var times: UInt8 = t[0] > previous ? 1 : 0
        for j in 0..<m { times &= (t[j] >= first ? 1 : 0) & (t[j] <= last ? 1 : 0) }
        for j in 1..<Swift.max(1, m) { times &= t[j] > t[j &- 1] ? 1 : 0 }
        return ok & times
    }
}
