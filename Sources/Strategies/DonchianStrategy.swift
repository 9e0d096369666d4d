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
        ]
    ) { candles, p in
        let period = p.int("period")
        let entry = try Indicators.donchian(high: candles.high, low: candles.low, period: period)
        let exit = try Indicators.donchian(high: candles.high, low: candles.low, period: max(1, period / 2))
        return Signals(entries: Cross.compare(candles.close, entry.upper.laggedOneBar(), >),
                       exits: Cross.compare(candles.close, exit.lower.laggedOneBar(), <))
    }
}
