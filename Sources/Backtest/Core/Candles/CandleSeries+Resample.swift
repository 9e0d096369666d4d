extension CandleSeries {
    /// The series aggregated into calendar-aligned UTC buckets of `timeframe`: first open,
    /// max high, min low, last close, summed volume; each bar is stamped with its bucket start.
    /// Empty buckets produce no bar.
    /// - Precondition: `time` is sorted ascending.
    /// - Complexity: O(n): the buckets' bounds are found on the times alone (a later bar is in a
    ///   bucket while it starts before the bucket's end), then each column is folded per bucket.
    public func resampled(to timeframe: Timeframe) -> CandleSeries {
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        guard !isEmpty else { return out }
        let n = count
        var starts: [Int] = []
        time.withUnsafeBufferPointer { t in
            var i = 0
            while i < n {
                starts.append(i)
                let end = timeframe.barEnd(timeframe.bucketStart(t[i]))
                i += 1
                while i < n && t[i] < end { i += 1 }
            }
        }
        func fold(_ column: [Double], _ combine: (Double, Double) -> Double) -> [Double] {
            column.withUnsafeBufferPointer { c in
                starts.indices.map { k in
                    let end = k + 1 < starts.count ? starts[k + 1] : n
                    var value = c[starts[k]]
                    for x in c[(starts[k] + 1)..<end] { value = combine(value, x) }
                    return value
                }
            }
        }
        out.time = starts.map { timeframe.bucketStart(time[$0]) }
        out.open = starts.map { open[$0] }
        out.high = fold(high) { Swift.max($0, $1) }
        out.low = fold(low) { Swift.min($0, $1) }
        out.close = starts.indices.map { k in close[(k + 1 < starts.count ? starts[k + 1] : n) - 1] }
        out.volume = fold(volume, +)
        return out
    }
}
