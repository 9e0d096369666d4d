extension CandleSeries {
    /// The series aggregated into calendar-aligned UTC buckets of `timeframe`: first open,
    /// max high, min low, last close, summed volume; each bar is stamped with its bucket start.
    /// Empty buckets produce no bar.
    /// - Precondition: `time` is sorted ascending.
    /// - Complexity: O(n).
    public func resampled(to timeframe: Timeframe) -> CandleSeries {
        var out = CandleSeries(symbol: symbol, timeframe: timeframe)
        guard !isEmpty else { return out }
        var i = 0
        while i < count {
            let bucket = timeframe.bucketStart(time[i])
            let o = open[i]
            var h = high[i], l = low[i], c = close[i], v = volume[i]
            var j = i + 1
            while j < count && timeframe.bucketStart(time[j]) == bucket {
                h = Swift.max(h, high[j]); l = Swift.min(l, low[j]); c = close[j]; v += volume[j]
                j += 1
            }
            out.append(time: bucket, open: o, high: h, low: l, close: c, volume: v)
            i = j
        }
        return out
    }
}
