import Backtest

extension Strategy {
    /// Bollinger mean reversion: long while the close is below the lower band (SMA − k·σ,
    /// population σ as TA-Lib `BBANDS`), flat once it is back at or above the middle band.
    /// Level signals, not crossings: repeated entries while long are ignored by the engine.
    public static let bollinger = Strategy(
        name: "bollinger",
        summary: "Mean reversion: enter when the close is below the lower band, exit at the middle band",
        parameters: [
            .int("period", 20, minimum: 2, "Band period (SMA and standard deviation)"),
            .double("k", 2, "Band width in standard deviations"),
        ],
        indicators: { p in [IndicatorSpec(.bb, Double(p.int("period")), p.double("k"))] },
        incremental: { p in BollingerSignals(bands: try IndicatorStream(IndicatorSpec(.bb, Double(p.int("period")), p.double("k")))) }
    ) { candles, p, cache in
        let period = p.int("period"), k = p.double("k")
        let b = try cache.outputs(IndicatorSpec(.bb, Double(period), k), on: candles)   // upper, middle, lower
        return Signals(entries: Cross.compare(candles.close, b[2], <),
                       exits: Cross.compare(candles.close, b[1], >=))
    }
}

/// bollinger one bar at a time: the bands streamed, the close against the lower and middle band.
struct BollingerSignals: IncrementalSignals {
    var bands: IndicatorStream

    mutating func next(_ bar: Candle) -> BarSignals {
        let b = bands.next(bar.close)  // upper, middle, lower
        return BarSignals(entry: bar.close < b[2], exit: bar.close >= b[1])
    }
}
