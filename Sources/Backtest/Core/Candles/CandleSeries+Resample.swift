extension CandleSeries {
    /// The series aggregated into calendar-aligned UTC buckets of `timeframe`: first open,
    /// max high, min low, last close, summed volume; each bar is stamped with its bucket start.
    /// Empty buckets produce no bar.
    /// - Precondition: `time` is sorted ascending.
    /// - Complexity: O(m log(n/m) + n) for m buckets of n bars: each bucket's end is found by a
    ///   galloping search on the times, then one pass folds high, low and volume together, each
    ///   bucket in bar order (`max`, `min`, `+` from the bucket's first bar, as `OtherSeriesStream`
    ///   folds a bar as it grows, so both give the same bits).
    public func resampled(to timeframe: Timeframe) -> CandleSeries {
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        guard !isEmpty else { return out }
        let starts = time.withUnsafeBufferPointer { Self.bucketStarts($0, timeframe: timeframe) }
        let n = count, m = starts.count
        var high = [Double](repeating: 0, count: m), low = high, volume = high
        self.high.withUnsafeBufferPointer { h in
            self.low.withUnsafeBufferPointer { l in
                self.volume.withUnsafeBufferPointer { v in
                    Self.fold(h, l, v, starts: starts, into: &high, &low, &volume)
                }
            }
        }
        out.time = starts.map { timeframe.bucketStart(time[$0]) }
        out.open = starts.map { open[$0] }
        out.high = high
        out.low = low
        out.close = (0..<m).map { k in close[(k + 1 < m ? starts[k + 1] : n) - 1] }
        out.volume = volume
        return out
    }

    /// Each bucket's highest high, lowest low and summed volume, folded in bar order from its
    /// first bar, the three in one pass. Two buckets are folded side by side: each bucket's
    /// sum and extremes are chains of dependent operations, and two independent chains overlap
    /// instead of waiting on each other (each bucket still in its own bar order).
    private static func fold(_ h: UnsafeBufferPointer<Double>, _ l: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>,
                             starts: [Int], into high: inout [Double], _ low: inout [Double], _ volume: inout [Double]) {
        let n = h.count, m = starts.count
        func end(_ k: Int) -> Int { k + 1 < m ? starts[k + 1] : n }
        /// Folds bars `from..<to` into bucket `k`'s running values and stores them.
        func finish(_ k: Int, _ hk: Double, _ lk: Double, _ vk: Double, from: Int, to: Int) {
            var hk = hk, lk = lk, vk = vk
            for i in from..<to {
                hk = Swift.max(hk, h[i])
                lk = Swift.min(lk, l[i])
                vk += v[i]
            }
            high[k] = hk
            low[k] = lk
            volume[k] = vk
        }
        var k = 0
        while k + 1 < m {
            let a = starts[k], b = starts[k + 1]
            var ha = h[a], la = l[a], va = v[a], hb = h[b], lb = l[b], vb = v[b]
            let shared = Swift.min(b - a, end(k + 1) - b) - 1  // bars after its first that each bucket has
            var j = 1
            while j <= shared {
                ha = Swift.max(ha, h[a + j]); la = Swift.min(la, l[a + j]); va += v[a + j]
                hb = Swift.max(hb, h[b + j]); lb = Swift.min(lb, l[b + j]); vb += v[b + j]
                j += 1
            }
            finish(k, ha, la, va, from: a + 1 + shared, to: b)
            finish(k + 1, hb, lb, vb, from: b + 1 + shared, to: end(k + 1))
            k += 2
        }
        if k < m { finish(k, h[starts[k]], l[starts[k]], v[starts[k]], from: starts[k] + 1, to: end(k)) }
    }

    /// The first bar of each bucket of `timeframe` in `t` (ascending times): a bar belongs to
    /// the bucket of the bucket's first bar while it starts before that bucket's end.
    private static func bucketStarts(_ t: UnsafeBufferPointer<Int64>, timeframe: Timeframe) -> [Int] {
        let n = t.count
        var starts: [Int] = []
        var i = 0
        while i < n {
            starts.append(i)
            let end = timeframe.barEnd(timeframe.bucketStart(t[i]))
            // Gallop: t[below] < end; double the step until a probe reaches end (or the series'
            // end), then bisect between the last two probes for the first time at or past `end`.
            var below = i, step = 1
            while below + step < n && t[below + step] < end {
                below += step
                step *= 2
            }
            var lo = below + 1, hi = Swift.min(below + step, n)
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if t[mid] < end { lo = mid + 1 } else { hi = mid }
            }
            i = lo
        }
        return starts
    }
}
