import Backtest

extension Strategy {
    /// RSI mean reversion (Wilder's RSI): long when RSI crosses below `lower` (oversold), flat
    /// when it crosses above `upper`.
    public static let rsi = Strategy(
        name: "rsi",
        summary: "Enter when RSI crosses below the lower level, exit when it crosses above the upper level",
        parameters: [
            .int("period", 14, minimum: 2, "RSI period (Wilder smoothing)"),
            .double("lower", 30, "Oversold level, 0-100"),
            .double("upper", 70, "Overbought level, 0-100 (> lower)"),
        ],
        indicators: { p in [IndicatorSpec(.rsi, Double(p.int("period")))] },
        incremental: { p in
            RSISignals(rsi: try IndicatorStream(IndicatorSpec(.rsi, Double(p.int("period")))), lower: p.double("lower"), upper: p.double("upper"))
        }
    ) { candles, p, cache in
        let lower = p.double("lower"), upper = p.double("upper")
        guard lower < upper, upper < 100 else {
            throw InputError("rsi: need 0 < lower (\(lower)) < upper (\(upper)) < 100", setting: .parameter)
        }
        let period = p.int("period")
        let r = try cache.outputs(IndicatorSpec(.rsi, Double(period)), on: candles)[0]
        return Signals(entries: Cross.below(r, level: lower), exits: Cross.above(r, level: upper))
    }
}

/// rsi one bar at a time: RSI streamed, its crossings of the two levels.
struct RSISignals: IncrementalSignals {
    var rsi: IndicatorStream
    let lower: Double, upper: Double
    var belowLower = StreamingCross(), aboveUpper = StreamingCross()

    mutating func next(_ bar: Candle) -> BarSignals {
        let r = rsi.next(bar.close)[0]
        return BarSignals(entry: belowLower.next(r, lower).below, exit: aboveUpper.next(r, upper).above)
    }
}
