/// One bar: what a streaming computation (`IndicatorStream`, `SignalStream`) reads at each close.
public struct Candle: Sendable, Equatable {
    /// The bar's start, UTC seconds.
    public var time: Int64
    public var open: Double
    public var high: Double
    public var low: Double
    public var close: Double
    public var volume: Double

    public init(time: Int64, open: Double, high: Double, low: Double, close: Double, volume: Double) {
        self.time = time; self.open = open; self.high = high; self.low = low; self.close = close; self.volume = volume
    }

    /// The value of `column`.
    public subscript(column: CandleSeries.Column) -> Double {
        switch column {
        case .open: open
        case .high: high
        case .low: low
        case .close: close
        case .volume: volume
        }
    }
}

extension CandleSeries {
    /// Bar `i` as one value.
    public subscript(bar i: Int) -> Candle {
        Candle(time: time[i], open: open[i], high: high[i], low: low[i], close: close[i], volume: volume[i])
    }

    /// Appends `bar` (later than the last bar).
    public mutating func append(_ bar: Candle) {
        precondition(time.last.map { bar.time > $0 } ?? true, "bars must come in time order")
        append(time: bar.time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
    }
}
