/// The limit and stop prices of entries at each bar: `EntryRules`' expressions evaluated on the
/// candles (nil: that price is not used).
struct EntryPrices {
    var limit: [Double]?
    var stop: [Double]?
    var shortLimit: [Double]?
    var shortStop: [Double]?

    /// The prices of an entry on `side` decided at `bar`, NaN where the order has none.
    func prices(_ side: PositionSide, at bar: Int) -> (limit: Double, stop: Double) {
        func at(_ v: [Double]?) -> Double { v.map { $0[bar] } ?? .nan }
        return side == .long ? (at(limit), at(stop)) : (at(shortLimit), at(shortStop))
    }

    /// The order an entry on `side` decided at `bar` places, working on the next `bars` bars;
    /// nil when a price it uses is not a positive number there (`bt run` and portfolios alike).
    func order(_ side: PositionSide, at bar: Int, bars: Int) -> WorkingEntry? {
        let (limit, stop) = prices(side, at: bar)
        let hasLimit = (side == .long ? self.limit : shortLimit) != nil
        let hasStop = (side == .long ? self.stop : shortStop) != nil
        if (hasLimit && !(limit > 0 && limit.isFinite)) || (hasStop && !(stop > 0 && stop.isFinite)) { return nil }
        return WorkingEntry(side: side, limit: hasLimit ? limit : .nan, stop: hasStop ? stop : .nan, signalBar: bar, bars: bars)
    }
}

extension Broker {
    /// Places a limit or stop entry on `side` decided at `signalBar`, replacing any working one;
    /// it works on the next `config.entries.orderBars` bars. A price that is not a positive
    /// number places no order (counted in `skippedEntries`), nor does one whose attached exit is
    /// not yet defined there (`ExitLevels.undefinedExit`, unless `config.allowUnprotected`).
    mutating func place(_ side: PositionSide, signalBar: Int) {
        guard let entryPrices else { return }
        guard let order = entryPrices.order(side, at: signalBar, bars: config.entries.orderBars) else {
            working = nil
            skippedEntries += 1
            return
        }
        if !config.allowUnprotected, let exit = ledger.exits.undefinedExit(at: signalBar) {
            working = nil
            ledger.exits.countUnprotected(exit)
            return
        }
        working = order
        // An add is on the position's side; an order placed on the other side is a reversal's
        // entry, which works once the exit at the next fill bar has made the position flat.
        working!.isAdd = position != 0 && (position > 0) == (side == .long)
    }

    /// Works the entry order on `bar`: an add to a position that is gone (or an entry into a
    /// position that appeared) is cancelled, an expired order dropped; a fill opens (or adds to)
    /// the position at the order's price, sized there.
    mutating func work(_ bar: Int) {
        guard var order = working else { return }
        if bar > order.lastBar { working = nil; return }
        if (position == 0 && order.isAdd) || (position != 0 && ((position > 0) != (order.side == .long) || !order.isAdd)) {
            working = nil
            return
        }
        guard let (price, atOpen, maker) = order.fill(open: candles.open[bar], high: candles.high[bar], low: candles.low[bar]) else {
            working = order.lastBar == bar ? nil : order
            return
        }
        working = nil
        openPosition(order.side, at: FillPoint(bar: bar, row: bar, reference: price, timeMs: candles.time[bar] &* 1000, maker: maker),
                     signalBar: order.signalBar, atOpen: atOpen)
    }
}
