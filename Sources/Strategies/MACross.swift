import Backtest

extension Strategy {
    /// Moving-average crossover: long when the fast MA crosses above the slow one, flat when it
    /// crosses below. Signals start once both MAs exist (bar `slow`, 0-based).
    public static let maCross = Strategy(
        name: "ma-cross",
        summary: "Enter when the fast moving average crosses above the slow one, exit on the cross below",
        parameters: [
            .int("fast", 10, "Fast moving-average period"),
            .int("slow", 30, minimum: 2, "Slow moving-average period (> fast)"),
            .choice("type", "sma", ["sma", "ema"], "Moving-average type"),
        ],
        indicators: { p in
            let average: IndicatorSpec.Kind = p.string("type") == "ema" ? .ema : .sma
            return [IndicatorSpec(average, Double(p.int("fast"))), IndicatorSpec(average, Double(p.int("slow")))]
        },
        incremental: { p in
            let average: IndicatorSpec.Kind = p.string("type") == "ema" ? .ema : .sma
            return MACrossSignals(fast: try IndicatorStream(IndicatorSpec(average, Double(p.int("fast")))),
                                  slow: try IndicatorStream(IndicatorSpec(average, Double(p.int("slow")))))
        }
    ) { candles, p, cache in
        let fast = p.int("fast"), slow = p.int("slow")
        guard fast < slow else {
            throw InputError("ma-cross: fast (\(fast)) must be shorter than slow (\(slow))", setting: .parameter)
        }
        let average: IndicatorSpec.Kind = p.string("type") == "ema" ? .ema : .sma
        let f = try cache.outputs(IndicatorSpec(average, Double(fast)), on: candles)[0]
        let s = try cache.outputs(IndicatorSpec(average, Double(slow)), on: candles)[0]
        let cross = Cross.both(f, s)
        return Signals(entries: cross.above, exits: cross.below)
    }
}

/// ma-cross one bar at a time: the two averages streamed, crossings as `Cross.both` finds them.
struct MACrossSignals: IncrementalSignals {
    var fast: IndicatorStream, slow: IndicatorStream
    var cross = StreamingCross()

    mutating func next(_ bar: Candle) -> BarSignals {
        let c = cross.next(fast.next(bar.close)[0], slow.next(bar.close)[0])
        return BarSignals(entry: c.above, exit: c.below)
    }
}
