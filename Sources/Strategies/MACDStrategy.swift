import Backtest

extension Strategy {
    /// MACD (Appel): long when the MACD line crosses above its signal line, flat on the cross below.
    public static let macd = Strategy(
        name: "macd",
        summary: "Enter when the MACD line crosses above its signal line, exit on the cross below",
        parameters: [
            .int("fast", 12, "Fast EMA period"),
            .int("slow", 26, minimum: 2, "Slow EMA period (> fast)"),
            .int("signal", 9, "Signal-line EMA period"),
        ],
        indicators: { p in [IndicatorSpec(.macd, Double(p.int("fast")), Double(p.int("slow")), Double(p.int("signal")))] },
        incremental: { p in
            MACDSignals(macd: try IndicatorStream(IndicatorSpec(.macd, Double(p.int("fast")), Double(p.int("slow")), Double(p.int("signal")))))
        }
    ) { candles, p, cache in
        let fast = p.int("fast"), slow = p.int("slow"), signal = p.int("signal")
        let m = try cache.outputs(IndicatorSpec(.macd, Double(fast), Double(slow), Double(signal)), on: candles)
        let cross = Cross.both(m[0], m[1])
        return Signals(entries: cross.above, exits: cross.below)
    }
}

/// macd one bar at a time: MACD streamed, the line's crossings of its signal line.
struct MACDSignals: IncrementalSignals {
    var macd: IndicatorStream
    var cross = StreamingCross()

    mutating func next(_ bar: Candle) -> BarSignals {
        let m = macd.next(bar.close)
        let c = cross.next(m[0], m[1])
        return BarSignals(entry: c.above, exit: c.below)
    }
}
