/// Limit and stop entries in a portfolio (docs/design/orders.md, "Entries"): the planner's entry
/// books its slot and weight when the order is placed; the order works on the symbol's next bars
/// as `Engine.run`'s does (`WorkingEntry`), and frees its slot when it expires, an exit signal
/// cancels it while flat, or its fill is refused.
extension PortfolioSimulation {
    /// Places symbol `j`'s limit or stop entry decided at its bar `signalBar`, with the prices read
    /// there (replacing a working one); a price that is not a positive number places none.
    mutating func place(_ j: Int, signalBar: Int, weight: Double) {
        let prices = entryPrices![j]
        let (limit, stop) = prices.prices(.long, at: signalBar)
        let hasLimit = prices.limit != nil, hasStop = prices.stop != nil
        guard (!hasLimit || (limit > 0 && limit.isFinite)) && (!hasStop || (stop > 0 && stop.isFinite)) else {
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
        working[j] = (WorkingEntry(side: .long, limit: hasLimit ? limit : .nan, stop: hasStop ? stop : .nan,
                                   signalBar: signalBar, bars: config.entries.orderBars), weight)
    }

    /// Works every symbol's entry order on its bar at `t`: an expired one frees its slot; one that
    /// fills buys its weight of the portfolio's value at the order's price (positions valued at
    /// this bar's open where they have one, else their last close: nothing later than the fill).
    mutating func workEntries(_ r: Int, _ t: Int64) {
        for j in working.indices where working[j] != nil {
            advance(j, to: t)
            guard hasBar(j, t) else { continue }
            let bar = state[j].cursor
            var (order, weight) = working[j]!
            if bar > order.lastBar || ledgers[j].quantity != 0 {
                working[j] = nil
                if ledgers[j].quantity == 0 { release(j) }
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
                value += ledgers[k].quantity * multipliers[k] * (hasBar(k, t) ? candles[k].open[ck] : candles[k].close[ck - 1])
            }
            let (delta, budget) = buyDelta(j, weight, value: value, price: price, position: 0, decisionBar: order.signalBar)
            guard !delta.isNaN else { unpricedEntries += 1; release(j); continue }
            let point = FillPoint(bar: bar, row: r, reference: price, timeMs: c.time[bar] &* 1000, maker: maker)
            let (limit, positive) = openingLimit(j, at: point, value: value, budget: budget, t: t, atOpen: true)
            ledgers[j].increase(.long, wanted: delta, limit: limit, valuePositive: positive, at: point,
                                signalBar: order.signalBar, atOpen: atOpen, cash: &cash, recorder: &log)
            if ledgers[j].quantity == 0 { release(j) } else if !stack.isEmpty { stack[j] = 1 }
            updateActive(j)
        }
    }
}
