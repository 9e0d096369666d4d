import Backtest

extension Strategy {
    /// Donchian breakout (turtle style): long when the close breaks above the highest high of the
    /// previous `period` bars, flat when it falls below the lowest low of the previous
    /// `period / 2` bars (at least 1). Channels exclude the current bar, so a breakout is possible.
    public static let donchian = Strategy(
        name: "donchian",
        summary: "Breakout: enter above the prior period-bar high, exit below the prior period/2-bar low",
        parameters: [
            .int("period", 20, minimum: 2, "Entry channel period; the exit channel uses period/2"),
        ],
        indicators: { p in
            let period = p.int("period")
            return [IndicatorSpec(.donchian, Double(period)), IndicatorSpec(.donchian, Double(max(1, period / 2)))]
        },
        incremental: { p in
            let period = p.int("period")
            return DonchianSignals(entry: try IndicatorStream(IndicatorSpec(.donchian, Double(period))),
                                   exit: try IndicatorStream(IndicatorSpec(.donchian, Double(max(1, period / 2)))))
        }
    ) { candles, p, cache in
        let period = p.int("period")
        let exitPeriod = max(1, period / 2)
        // Outputs: upper, middle, lower.
        let upper = try cache.outputs(IndicatorSpec(.donchian, Double(period)), on: candles)[0]
        let lower = try cache.outputs(IndicatorSpec(.donchian, Double(exitPeriod)), on: candles)[2]
        return Signals(entries: Cross.compare(candles.close, upper.laggedOneBar(), >),
                       exits: Cross.compare(candles.close, lower.laggedOneBar(), <))
    }
}

/// donchian one bar at a time: both channels streamed, the close against the bar before's.
struct DonchianSignals: IncrementalSignals {
    var entry: IndicatorStream, exit: IndicatorStream
    var upper = OneBarLag(), lower = OneBarLag()

    mutating func next(_ bar: Candle) -> BarSignals {
        let u = upper.next(entry.next(bar)[0]), l = lower.next(exit.next(bar)[2])
        return BarSignals(entry: bar.close > u, exit: bar.close < l)
    }
}
