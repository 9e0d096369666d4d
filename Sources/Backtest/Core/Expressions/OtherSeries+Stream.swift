/// A series read with `@` one bar at a time (`ExpressionPlan.Stream`, for a live session): the
/// run's own symbol at its timeframe or a higher one, its bars made from the run's bars as they
/// come, and the expression read on it advanced only when one of those bars has closed.
///
/// A higher bar is made as `CandleSeries.resampled(to:)` makes it from the stored bars (UTC
/// buckets: first open, highest high, lowest low, last close, volume summed in order), so its
/// values are the batch's to the bit. It is fed to the inner expression at the first run bar
/// whose close is at or after the bucket's end (the bar that completes it, or the first of a
/// later bucket after a gap): exactly the run bars at which `OtherSeries.alignment` shows it.
/// Before the first such bar the value is NaN (`hasClosedBar` false), as the batch's is. The
/// run's own symbol is never stale, so a closed bar's value holds until the next one closes.
///
/// Another symbol, or a symbol whose bars follow a trading session (bars outside its hours left
/// out, closes at its close), is refused: neither can be made from the run's bars in UTC buckets.
struct OtherSeriesStream: Sendable {
    let series: OtherSeries
    private let runTimeframe: Timeframe
    private var inner: ExpressionPlan.Stream
    /// The bucket being built: its start and its bar so far; nil once fed.
    private var bucket: Int64?
    private var forming: Candle?
    /// Whether a bar of the series has closed (been fed) by the last run bar taken.
    private(set) var hasClosedBar = false
    private var value = Double.nan

    /// - Throws: `InputError` for another symbol or a session, and from the inner expression's
    ///   indicators.
    init(_ series: OtherSeries, _ node: ExpressionNode, runTimeframe: Timeframe, runSymbol: String?) throws {
        guard series.symbol == runSymbol else {
            throw InputError("a rule reading \(series.name) with '@' reads another symbol, which cannot be followed bar by bar "
                             + "from the run's own bars")
        }
        guard !series.followsSession else {
            throw InputError("a rule reading \(series.name) with '@' reads bars that follow a trading session, which are not "
                             + "made bar by bar (the run's bars are bucketed in UTC)")
        }
        self.series = series
        self.runTimeframe = runTimeframe
        inner = try ExpressionPlan.Stream(ExpressionPlan([node]))
    }

    /// Takes the run's next bar; returns the value shown at it.
    mutating func next(_ bar: Candle) -> Double {
        let timeframe = series.timeframe
        if timeframe == runTimeframe {
            forming = bar
            feed()
            return value
        }
        let start = timeframe.bucketStart(bar.time)
        if start != bucket {
            if forming != nil { feed() }
            bucket = start
            forming = Candle(time: start, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
        } else if var f = forming {
            // The operations and their order of `resampled(to:)`, so the bar is the batch's to the bit.
            f.high = Swift.max(f.high, bar.high); f.low = Swift.min(f.low, bar.low); f.close = bar.close; f.volume += bar.volume
            forming = f
        }
        if forming != nil, timeframe.barEnd(start) <= runTimeframe.barEnd(bar.time) { feed() }
        return hasClosedBar ? value : .nan
    }

    /// The bucket has closed: its bar goes to the inner expression.
    private mutating func feed() {
        guard let f = forming else { return }
        inner.next(f)
        value = inner.root(0)
        hasClosedBar = true
        forming = nil
    }
}
