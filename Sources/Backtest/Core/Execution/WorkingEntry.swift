/// A limit, stop or stop-limit entry working for a few bars after its signal
/// (docs/design/orders.md, "Entries"). A long is described; a short mirrors it.
struct WorkingEntry {
    var side: PositionSide
    /// The limit price, or NaN for none.
    var limit: Double
    /// The stop price, or NaN for none.
    var stop: Double
    /// The bar the order was decided at; its prices are the expressions' values there.
    var signalBar: Int
    /// The last bar the order works on.
    var lastBar: Int
    /// A stop-limit whose stop has triggered: a limit order from then on.
    var triggered = false
    /// An added entry to an open position (`--pyramid`): cancelled if the position is gone.
    var isAdd = false

    init(side: PositionSide, limit: Double, stop: Double, signalBar: Int, bars: Int) {
        self.side = side; self.limit = limit; self.stop = stop
        self.signalBar = signalBar; self.lastBar = signalBar.barsLater(bars)
    }

    /// Where the order fills on a bar with these prices, whether at the open, and whether as a
    /// maker (a limit resting on the book, reached inside the bar and filled at its price;
    /// `FeeSchedule`); nil when it does not fill on it (a stop-limit may trigger and wait as a
    /// limit). Fills at the open and at a stop's trigger are a taker's.
    mutating func fill(open o: Double, high h: Double, low l: Double) -> (price: Double, atOpen: Bool, maker: Bool)? {
        let long = side == .long
        // Prices the order reaches: a buy limit at or below it, a buy stop at or above it.
        func limitReached(_ p: Double) -> Bool { long ? p <= limit : p >= limit }
        func stopReached(_ p: Double) -> Bool { long ? p >= stop : p <= stop }
        let hasLimit = !limit.isNaN, hasStop = !stop.isNaN
        if hasStop && !triggered {
            if stopReached(o) {
                triggered = true
                guard hasLimit else { return (o, true, false) }
                if limitReached(o) { return (o, true, false) }
                // Triggered at the open above the limit: the limit can still be reached later in the bar.
                return limitReached(long ? l : h) ? (limit, false, true) : nil
            }
            guard stopReached(long ? h : l) else { return nil }
            guard hasLimit else { return (stop, false, false) }
            triggered = true
            // Triggered inside the bar at the stop: marketable when the limit is at or beyond the
            // stop; with the limit on the other side the path is unknown, so not on this bar.
            return limitReached(stop) ? (stop, false, false) : nil
        }
        if limitReached(o) { return (o, true, false) }
        if limitReached(long ? l : h) { return (limit, false, true) }
        return nil
    }
}
