import BacktestCore

/// Another symbol a live session's rules read with `@` (`close@ETHUSDT`): its `<symbol>@trade`
/// stream made into bars as the session's own trades are (by exchange time; consecutive trade
/// ids, so a missed trade is known and its bar is taken from the exchange's kline instead), each
/// bar appended to the rules' feed (`OtherBarFeed`) and kept for the store once it is final.
///
/// **Ordering.** A bar of the session's symbol that closes at T is decided only when every bar
/// of this symbol closing at or before T is final, so two bars closing at the same time T are
/// taken this symbol's first:
/// - its stream has passed T (`hasPassed`: a trade at or after T was received, which closed its
///   bar closing at T), or else
/// - the session stops waiting (its own bar is closed anyway: the depth wait ran out, its next
///   trade came, or the session ends) and `settle(through:klines:)` takes this symbol's bars
///   up to T from the exchange's klines (the bar forming from trades is dropped for its kline);
///   its trades of those buckets that arrive later are late and make no bar.
///
/// Either way the decision at T reads exactly the bars that the store holds with closes at or
/// before T, and none of them is changed afterwards, so `bt run` over the stored bars (the
/// replay) aligns the same bars to every decision (its as-of join on close times).
package struct LiveOtherSymbol {
    package let symbol: String
    /// The bars final so far: the stored ones, then the stream's.
    package let feed: OtherBarFeed
    private var builder: TradeBarBuilder
    private var lastTradeId: Int64?
    /// Buckets (UTC s) whose trades are known to be incomplete.
    private var incomplete: Set<Int64> = []
    /// Buckets before this one (UTC s) are final: a trade in one is late.
    private var floor: Int64
    /// Trades of buckets already final.
    package private(set) var lateTrades = 0
    /// The session's bars of the symbol, and how many of them came from klines.
    package private(set) var bars = 0, barsFromKlines = 0
    /// Bars made final since the last `takeUnwritten`.
    private var unwritten: CandleSeries

    /// - Parameter feed: the symbol's bars at the session's interval, its stored ones held.
    package init(feed: OtherBarFeed) {
        symbol = feed.symbol
        self.feed = feed
        builder = TradeBarBuilder(timeframe: feed.timeframe)
        floor = feed.lastTime.map { $0 + feed.timeframe.seconds } ?? .min
        unwritten = CandleSeries(symbol: feed.symbol, timeframe: feed.timeframe)
    }

    private var seconds: Int64 { feed.timeframe.seconds }

    /// Whether the stream has passed `time` (UTC s): every bar closing at or before it is final.
    package func hasPassed(_ time: Int64) -> Bool {
        max(floor, builder.forming?.time ?? .min) >= time
    }

    /// Takes a trade of the symbol. A bar it closes is final; when the bar (or one before it)
    /// missed trades, those bars are `klines(from, to)`'s (open times, UTC s) instead.
    /// - Throws: what `klines` throws.
    package mutating func receive(_ trade: StreamTrade, klines: (Int64, Int64) throws -> CandleSeries) rethrows {
        if let last = lastTradeId, trade.id <= last { return }  // a repeat after a reconnect
        let print = trade.print
        let bucket = builder.bucket(ofMs: print.timeMs)
        let gap = lastTradeId.map { trade.id != $0 + 1 } ?? true
        lastTradeId = trade.id
        if bucket < max(floor, builder.forming?.time ?? .min) {
            lateTrades += 1
            return
        }
        if gap {
            // The trades missed are between the last one received (in the bar forming) and this one.
            incomplete.insert(bucket)
            if let f = builder.forming { incomplete.insert(f.time) }
        }
        guard let closed = builder.add(print) else { return }
        let missed = incomplete.contains(closed.time)
        if incomplete.contains(where: { $0 <= closed.time }) {
            take(try klines(feed.lastTime.map { $0 + seconds } ?? closed.time, closed.time), before: missed ? closed.time + 1 : closed.time)
        }
        if !missed { append(closed.candle) }
        incomplete = incomplete.filter { $0 > closed.time }
        floor = bucket
    }

    /// Makes every bar closing at or before `time` (UTC s) final, unless the stream has passed
    /// it: the bars after the last one held, up to `time`, from `klines(from, to)` (open times);
    /// a bar forming from trades before `time` is dropped for its kline.
    /// - Throws: what `klines` throws.
    package mutating func settle(through time: Int64, klines: (Int64, Int64) throws -> CandleSeries) rethrows {
        guard !hasPassed(time) else { return }
        let from = feed.lastTime.map { $0 + seconds } ?? time - seconds
        if from <= time - seconds { take(try klines(from, time - seconds), before: time) }
        _ = builder.finish()  // forming before `time`, else the stream would have passed it
        incomplete = incomplete.filter { $0 >= time }
        floor = time
    }

    /// The end of the session: the bar still forming is final as it stands (unless it missed
    /// trades), as the session's own last bar is; later trades are late.
    package mutating func finish() {
        if let bar = builder.finish(), !incomplete.contains(bar.time), feed.lastTime.map({ bar.time > $0 }) ?? true {
            append(bar.candle)
        }
        floor = .max
    }

    /// The bars made final since the last call, for the store.
    package mutating func takeUnwritten() -> CandleSeries {
        defer { unwritten = CandleSeries(symbol: symbol, timeframe: feed.timeframe) }
        return unwritten
    }

    /// Appends `klines`' bars after the last one held and before `end` (UTC s).
    private mutating func take(_ klines: CandleSeries, before end: Int64) {
        for k in klines.time.indices where klines.time[k] < end && feed.lastTime.map({ klines.time[k] > $0 }) ?? true {
            append(klines[bar: k])
            barsFromKlines += 1
        }
    }

    private mutating func append(_ bar: Candle) {
        feed.append(bar)
        bars += 1
        unwritten.append(time: bar.time, open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume)
    }
}

extension TradeBar {
    /// The bar without its trade count.
    var candle: Candle {
        Candle(time: time, open: open, high: high, low: low, close: close, volume: volume)
    }
}
