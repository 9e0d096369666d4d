/// Limit and stop entries in a portfolio (docs/design/orders.md, "Entries"): the planner's entry
/// books its slot (of its side, in a long/short book) and weight when the order is placed; the
/// order works on the symbol's next bars as `Engine.run`'s does (`WorkingEntry`), and frees its
/// slot when it expires, an exit signal of its side cancels it while flat, a position is still
/// there when it would fill (a reversal's exit not yet filled), or its fill is refused.
extension PortfolioSimulation {
    /// Places symbol `j`'s limit or stop entry on `side` decided at its bar `signalBar`, with the
    /// prices read there (replacing a working one); a price that is not a positive number places
    /// none. `weight`: the share of the portfolio's value it takes when it fills (positive).
    mutating func place(_ j: Int, _ side: PositionSide = .long, signalBar: Int, weight: Double) {
        guard let order = entryPrices![j].order(side, at: signalBar, bars: config.entries.orderBars) else {
            working[j] = nil
            unpricedEntries += 1
            release(j)
            return
        }
        if !config.allowUnprotected, let exit = ledgers[j].exits.undefinedExit(at: signalBar) {
            working[j] = nil
            ledgers[j].exits.countUnprotected(exit)
            release(j)
            return
        }
        working[j] = (order, weight)
    }

    /// Works every symbol's entry order on its bar at `t`: an expired one (or one whose symbol
    /// still holds a position) frees its slot; one that fills opens its side at its weight of the
    /// portfolio's value at the order's price (positions valued at this bar's open where they
    /// have one, else their last close: nothing later than the fill), sized as a market entry of
    /// that side is. In a neutral book a fill has the book balanced again at the next row.
    mutating func workEntries(_ r: Int, _ t: Int64) {
        for j in working.indices where working[j] != nil {
            advance(j, to: t)
            guard hasBar(j, t) else { continue }
            let bar = state[j].cursor
            var (order, weight) = working[j]!
            if bar > order.lastBar || ledgers[j].quantity != 0 {
                // Expired, or a reversal's exit still closing the position: cancelled, as `Broker.work` has it.
                working[j] = nil
                release(j)
                continue
            }
            let c = candles[j]
            guard let (price, atOpen, maker) = order.fill(open: c.open[bar], high: c.high[bar], low: c.low[bar]) else {
                working[j] = bar == order.lastBar ? nil : (order, weight)
                if working[j] == nil { release(j) }
                continue
            }
            working[j] = nil
            var value = cash
            for k in active where ledgers[k].quantity != 0 {
                let ck = state[k].cursor
                value += self.value(k, ledgers[k].quantity, at: hasBar(k, t) ? candles[k].open[ck] : candles[k].close[ck - 1])
            }
            // A short is sized by its budget, as `executeBookOrder` sizes a market short.
            let short = order.side == .short
            let (delta, budget) = buyDelta(j, weight, value: value, price: price, position: 0, decisionBar: order.signalBar, budgeted: short)
            guard !delta.isNaN else { unpricedEntries += 1; release(j); continue }
            let point = FillPoint(bar: bar, row: r, reference: price, timeMs: c.time[bar] &* 1000, maker: maker)
            let (limit, positive) = openingLimit(j, at: point, value: value, budget: budget, t: t, atOpen: true, short: short)
            ledgers[j].increase(order.side, wanted: delta, limit: limit, valuePositive: positive, at: point,
                                signalBar: order.signalBar, atOpen: atOpen, cash: &cash, recorder: &log)
            if ledgers[j].quantity == 0 { release(j) } else if !stack.isEmpty { stack[j] = 1 }
            if rules.neutral && ledgers[j].quantity != 0 { neutralPending = true }
            updateActive(j)
        }
    }

    /// A flat symbol's working entry meets the row's signals as `Engine.run`'s does: an entry of
    /// its side replaces it (prices from the new signal's bar; its slot and weight kept), an
    /// entry of the other side cancels it (the symbol then competes for a slot of that side), an
    /// exit of its side cancels it; an entry of each side leaves it working. A long/short book's.
    mutating func meetWorkingEntries(_ r: Int) {
        let (shortEntries, shortExits) = shortEvents!
        for j in working.indices where working[j] != nil && ledgers[j].quantity == 0 {
            let (order, weight) = working[j]!
            let long = entries.bar(of: j, row: r), short = shortEntries.bar(of: j, row: r)
            if let k = long ?? short, (long == nil) != (short == nil) {
                let side: PositionSide = long != nil ? .long : .short
                if side == order.side {
                    place(j, side, signalBar: k, weight: weight)
                } else {
                    working[j] = nil
                    release(j)
                }
            } else if long == nil && short == nil,
                      (order.side == .long ? exits : shortExits).bar(of: j, row: r) != nil {
                working[j] = nil
                release(j)
            }
        }
    }
}
