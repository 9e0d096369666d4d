/// A series read with `@` one bar at a time (`ExpressionPlan.Stream`, for a live session): the
/// run's own symbol at its timeframe or a higher one, its bars made from the run's bars as they
/// come, or another symbol followed by the session (`OtherSeries.feed`), its bars taken from the
/// feed; the expression read on it advanced only when one of those bars has closed.
///
/// A higher bar is made as `CandleSeries.resampled(to:)` makes it from the stored bars (UTC
/// buckets: first open, highest high, lowest low, last close, volume summed in order), so its
/// values are the batch's to the bit. It is fed to the inner expression at the first run bar
/// whose close is at or after the bucket's end (the bar that completes it, or the first of a
/// later bucket after a gap): exactly the run bars at which `OtherSeries.alignment` shows it.
/// Before the first such bar the value is NaN (`hasClosedBar` false), as the batch's is. The
/// run's own symbol is never stale, so a closed bar's value holds until the next one closes.
/// Another symbol's goes stale as the batch's does: at a run bar closing at T its last bar fed
/// is shown only while T is at most `OtherSeries.staleAfter` after that bar's close.
///
/// A symbol whose bars follow a trading session (bars outside its hours left out, closes at
/// its close) is refused: its bars cannot be made in UTC buckets. So is another symbol without
/// a feed (a session that does not follow its stream).
struct OtherSeriesStream: Sendable {
    let series: OtherSeries
    private let runTimeframe: Timeframe
    private var inner: ExpressionPlan.Stream
    /// The bucket being built: its start and its bar so far; nil once fed.
    private var bucket: Int64?
    private var forming: Candle?
    /// Whether the last run bar taken shows a bar of the series: one has closed (been fed),
    /// and for another symbol it is not stale.
    private(set) var hasClosedBar = false
    private var value = Double.nan
    /// Another symbol's bars (nil for the run's own), the next of them to take, and the close
    /// of the last bucket fed (UTC s).
    private let otherBars: OtherBarFeed?
    private var taken = 0
    private var fedClose = Int64.min

    /// - Throws: `InputError` for another symbol or a session, and from the inner expression's
    ///   indicators.
    init(_ series: OtherSeries, _ node: ExpressionNode, runTimeframe: Timeframe, runSymbol: String?) throws {
        guard series.symbol == runSymbol || series.feed != nil else {
            throw InputError("a rule reading \(series.name) with '@' reads another symbol, whose stream the session does not follow")
        }
        guard !series.followsSession else {
            throw InputError("a rule reading \(series.name) with '@' reads bars that follow a trading session, which are not "
                             + "made bar by bar (the run's bars are bucketed in UTC)")
        }
        self.series = series
        self.runTimeframe = runTimeframe
        otherBars = series.symbol == runSymbol ? nil : series.feed
        inner = try ExpressionPlan.Stream(ExpressionPlan([node]))
    }

    /// Takes the run's next bar; returns the value shown at it.
    mutating func next(_ bar: Candle) -> Double {
        if let otherBars { return next(closingAt: runTimeframe.barEnd(bar.time), from: otherBars) }
        let timeframe = series.timeframe
        if timeframe == runTimeframe {
            forming = bar
            feed()
            return value
        }
        add(bar)
        if forming != nil, let start = bucket, timeframe.barEnd(start) <= runTimeframe.barEnd(bar.time) { feed() }
        return hasClosedBar ? value : .nan
    }

    /// Another symbol's value at a run bar closing at `close`: its bars closed by then are
    /// bucketed (as `next(_:)` buckets the run's own), a bucket fed once it has ended by `close`.
    private mutating func next(closingAt close: Int64, from bars: OtherBarFeed) -> Double {
        let timeframe = series.timeframe
        for b in bars.bars(from: taken, closingBy: close) {
            taken += 1
            add(b)
        }
        if forming != nil, let start = bucket, timeframe.barEnd(start) <= close { feed() }
        hasClosedBar = fedClose != .min && close - fedClose <= series.staleAfter
        return hasClosedBar ? value : .nan
    }

    /// Adds a bar of the series' symbol to its bucket; one that starts a new bucket feeds the
    /// bucket before.
    private mutating func add(_ bar: Candle) {
        let start = series.timeframe.bucketStart(bar.time)
        if start != bucket {
            if forming != nil { feed() }
            bucket = start
            forming = Candle(time: start, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
        } else if var f = forming {
            // The operations and their order of `resampled(to:)`, so the bar is the batch's to the bit.
            f.high = Swift.max(f.high, bar.high); f.low = Swift.min(f.low, bar.low); f.close = bar.close; f.volume += bar.volume
            forming = f
        }
    }

    /// The bucket has closed: its bar goes to the inner expression.
    private mutating func feed() {
        guard let f = forming else { return }
        inner.next(f)
        value = inner.root(0)
        hasClosedBar = true
        fedClose = series.timeframe.barEnd(f.time)
        forming = nil
    }
}
