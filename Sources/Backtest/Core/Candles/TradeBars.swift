/// One candle built from trade prints.
package struct TradeBar: Equatable, Sendable {
    /// The bucket's start, UTC seconds.
    package var time: Int64
    package var open: Double
    package var high: Double
    package var low: Double
    package var close: Double
    package var volume: Double
    /// Prints in the bar.
    package var trades: Int

    package init(time: Int64, open: Double, high: Double, low: Double, close: Double, volume: Double, trades: Int) {
        self.time = time; self.open = open; self.high = high; self.low = low; self.close = close
        self.volume = volume; self.trades = trades
    }
}

/// Trade prints into candles of one timeframe, as they arrive: calendar-aligned UTC buckets of
/// the print's own time (`Timeframe.bucketStart`), first price open, max high, min low, last
/// close, summed quantity as volume. The aggregation of `bt data import --format trades` and of
/// `bt live`, written once: a bucket with no print has no bar.
///
/// Prints must come in time order (the importer sorts them first; the live feed drops late ones).
/// - Complexity: O(1) per print.
package struct TradeBarBuilder: Sendable {
    package let timeframe: Timeframe
    /// The bar of the latest bucket, still open to prints of the same bucket.
    package private(set) var forming: TradeBar?

    package init(timeframe: Timeframe) {
        self.timeframe = timeframe
    }

    /// The bucket (UTC seconds) a print at `timeMs` belongs to.
    package func bucket(ofMs timeMs: Int64) -> Int64 {
        timeframe.bucketStart(floorDiv(timeMs, 1000))
    }

    /// Adds `print`; returns the bar it closed when it opens a new bucket.
    package mutating func add(_ print: TradePrint) -> TradeBar? {
        let b = bucket(ofMs: print.timeMs)
        if var bar = forming, bar.time == b {
            bar.high = max(bar.high, print.price)
            bar.low = min(bar.low, print.price)
            bar.close = print.price
            bar.volume += print.quantity
            bar.trades += 1
            forming = bar
            return nil
        }
        precondition(forming.map { b > $0.time } ?? true, "trade prints must come in time order")
        let closed = forming
        forming = TradeBar(time: b, open: print.price, high: print.price, low: print.price, close: print.price,
                           volume: print.quantity, trades: 1)
        return closed
    }

    /// Ends the stream: the forming bar, if any.
    package mutating func finish() -> TradeBar? {
        defer { forming = nil }
        return forming
    }
}
