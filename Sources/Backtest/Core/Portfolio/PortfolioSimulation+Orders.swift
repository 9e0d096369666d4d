/// The shared-cash executor: a row's orders sized from one group value, run sells first, every
/// fill through the symbol's liquidity model; stops; round trips.
extension PortfolioSimulation {
    /// Runs the row's `orders`: the group value V once (positions at this row's prices: the
    /// reference price with a bar, else the last close), targets as shares of V, orders in
    /// ascending (target value − current value), ties by symbol.
    mutating func executeOrders(_ r: Int) {
        guard !orders.isEmpty else { return }
        let t = clock.time[r]
        var value = cash
        for j in active where state[j].position != 0 {
            let c = state[j].cursor
            value += state[j].position * (hasBar(j, t) ? reference(j, c) : candles[j].close[c - 1])
        }
        for i in orders.indices {
            let j = orders[i].symbol
            let p = reference(j, orders[i].bar)
            orders[i].price = p
            orders[i].key = targetValue(orders[i].weight, value: value, price: p) - state[j].position * p
        }
        sortByKey()
        for o in orders {
            let j = o.symbol, p = o.price, position = state[j].position
            if o.weight == 0 {
                if position > 0 {
                    sell(j, bar: o.bar, row: r, quantity: position, reference: p, full: true, timeMs: fillTimeMs(j, o.bar))
                }
                continue
            }
            let delta: Double, budget: Double?
            switch config.sizing {
            case .equityFraction(let share):
                delta = o.weight * share * value / p - position
                budget = nil
            case .units(let units):
                delta = units * Double(slots) * o.weight - position
                budget = nil
            case .cash(let amount):
                let notional = amount * Double(slots) * o.weight
                delta = notional / p - position
                budget = notional - position * p
            }
            // vectorbt's SizeZero: a change within 1e-12 units is no order.
            guard abs(delta) > 1e-12 else { continue }
            if delta > 0 {
                buy(j, bar: o.bar, row: r, quantity: delta, reference: p, value: value, budget: budget)
            } else {
                sell(j, bar: o.bar, row: r, quantity: -delta, reference: p, full: false, timeMs: fillTimeMs(j, o.bar))
            }
        }
        for o in orders {
            if o.reason == .entry && state[o.symbol].position == 0 { release(o.symbol) }
            updateActive(o.symbol)
        }
    }

    /// The value a target weight asks for: a share of `value` (`N%` sizing scales it), or
    /// `Nu` / `N$` per slot scaled by K x weight.
    private func targetValue(_ weight: Double, value: Double, price: Double) -> Double {
        switch config.sizing {
        case .equityFraction(let share): return weight * share * value
        case .units(let units): return units * Double(slots) * weight * price
        case .cash(let amount): return amount * Double(slots) * weight
        }
    }

    /// Orders by key, ties by symbol (sells first; among buys the smallest first).
    private mutating func sortByKey() {
        func before(_ a: PendingOrder, _ b: PendingOrder) -> Bool { a.key != b.key ? a.key < b.key : a.symbol < b.symbol }
        if orders.count <= 32 {
            for i in 1..<max(1, orders.count) {
                let x = orders[i]
                var k = i
                while k > 0 && before(x, orders[k - 1]) { orders[k] = orders[k - 1]; k -= 1 }
                orders[k] = x
            }
        } else {
            orders.sort(by: before)
        }
    }

    private func fee(_ notional: Double) -> Double { max(notional * feeRate, config.feeMin) }

    /// The participation cap on symbol `j`'s bar `bar`, as `Broker` applies it.
    private mutating func participationCap(_ j: Int, _ bar: Int) -> Double? {
        guard let share = config.maxParticipation, share > 0 else { return nil }
        let v = candles[j].volume[bar]
        guard v > 0, v.isFinite else {
            if state[j].lastUncappedBar != bar { state[j].barsWithoutVolume += 1; state[j].lastUncappedBar = bar }
            return nil
        }
        return share * v
    }

    private mutating func reject(_ j: Int, bar: Int, row: Int, side: OrderSide, _ reason: RejectionReason) {
        rejected.append(PortfolioRejection(symbol: j, bar: bar, order: RejectedOrder(index: row, time: candles[j].time[bar],
                                                                                      side: side, reason: reason)))
    }

    /// Buys up to `wanted` units, as `Broker` opens a position: capped by the cash (fee on top,
    /// all-in at most) and `budget`, rounded to the lot, checked against the minimum notional and
    /// the participation cap, then filled through the symbol's liquidity.
    private mutating func buy(_ j: Int, bar: Int, row: Int, quantity wanted: Double, reference p: Double,
                              value: Double, budget: Double?) {
        // Cash a buy may spend on notional so that notional + fee <= cash.
        var limit = max(0, min(cash / (1 + feeRate), cash - config.feeMin))
        if let budget { limit = min(limit, budget) }
        if !(limit > 0) || !(value > 0) { return reject(j, bar: bar, row: row, side: .buy, .insufficientCash) }
        var quantity = min(wanted, limit / p)
        if let lot = config.lot { quantity = (quantity / lot).rounded(.down) * lot }
        if !(quantity > 0) { return reject(j, bar: bar, row: row, side: .buy, .zeroQuantity) }
        if let minimum = config.minNotional, quantity * p < minimum {
            return reject(j, bar: bar, row: row, side: .buy, .belowMinNotional)
        }
        let asked = quantity
        if let cap = participationCap(j, bar), quantity > cap {
            quantity = config.lot.map { (cap / $0).rounded(.down) * $0 } ?? cap
            if !(quantity > 0) { return reject(j, bar: bar, row: row, side: .buy, .noLiquidity) }
        }
        var book = liquidity[j].execute(.buy, quantity: quantity, notionalLimit: limit, reference: p,
                                        bar: bar, timeMs: fillTimeMs(j, bar), lot: config.lot)
        // A buy that spent its cash is complete, not partial (as `Broker` counts it).
        let spent = book.notional >= limit * (1 - 1e-9)
            || config.lot.map { book.notional + $0 * book.worstPrice > limit } ?? false
        book.quantityAsked = spent && quantity == asked ? book.quantityFilled : asked
        guard book.quantityFilled > 0 else { return reject(j, bar: bar, row: row, side: .buy, .noLiquidity) }
        var paid = fee(book.notional)
        if book.notional + paid > cash { paid = max(0, cash - book.notional) }
        cash = max(0, cash - (book.notional + paid))
        state[j].position += book.quantityFilled
        record(j, .buy, bar: bar, row: row, reference: p, book: book, fee: paid)
    }

    /// Sells `wanted` units (`full`: the whole position, as `Broker` closes one; a remainder the
    /// book or the cap leaves stays to be sent again). Partial sells (rebalance trims) round
    /// down to the lot and respect the minimum notional.
    mutating func sell(_ j: Int, bar: Int, row: Int, quantity wanted: Double, reference p: Double, full: Bool, timeMs: Int64) {
        let position = state[j].position
        guard position > 0 else { return }
        let asked = full ? position : min(wanted, position)
        var quantity = asked
        if !full {
            if let lot = config.lot { quantity = (quantity / lot).rounded(.down) * lot }
            if !(quantity > 0) { return reject(j, bar: bar, row: row, side: .sell, .zeroQuantity) }
            if let minimum = config.minNotional, quantity * p < minimum {
                return reject(j, bar: bar, row: row, side: .sell, .belowMinNotional)
            }
        }
        if let cap = participationCap(j, bar), quantity > cap { quantity = cap }
        var book = BookFill(quantityAsked: 0, quantityFilled: 0, notional: 0, levelsWalked: 0, worstPrice: .nan, depthAvailable: 0)
        if quantity > 0 {
            book = liquidity[j].execute(.sell, quantity: quantity, notionalLimit: .infinity, reference: p,
                                        bar: bar, timeMs: timeMs, lot: nil)
        }
        book.quantityAsked = asked
        guard book.quantityFilled > 0 else {
            reject(j, bar: bar, row: row, side: .sell, .noLiquidity)
            if full { state[j].closing = true }
            return
        }
        // A fee larger than the cash and the proceeds (a high minimum fee) takes what there is.
        let paid = min(fee(book.notional), cash + book.notional)
        cash += book.notional - paid
        state[j].position -= book.quantityFilled
        if let trip = rounds[j], abs(state[j].position) <= trip.quantity * 1e-12 { state[j].position = 0 }
        record(j, .sell, bar: bar, row: row, reference: p, book: book, fee: paid)
        if state[j].position == 0 {
            finishRound(j, row: row, exitBar: bar, isOpen: false)
            state[j].closing = false
        } else if full {
            state[j].closing = true
        }
    }

    /// Records a fill and adds it to the symbol's round trip.
    private mutating func record(_ j: Int, _ side: OrderSide, bar: Int, row: Int, reference p: Double, book: BookFill, fee: Double) {
        let vwap = book.vwap
        let slippage = (side == .buy ? vwap / p - 1 : 1 - vwap / p) * 10_000
        let time = candles[j].time[bar]
        let fill = Fill(index: row, time: time, side: side, referencePrice: p, vwap: vwap, slippageBps: slippage,
                        quantityAsked: book.quantityAsked, quantityFilled: book.quantityFilled, fee: fee,
                        depthAvailable: book.depthAvailable, spreadCost: book.spreadCost)
        fills.append(PortfolioFill(symbol: j, bar: bar, fill: fill))
        #if DEBUG
        let signed = side == .buy ? book.quantityFilled : -book.quantityFilled
        ledgerCash -= signed * vwap + fee
        ledgerPosition[j] += signed
        #endif
        let q = book.quantityFilled
        if side == .buy {
            var trip = rounds[j] ?? RoundTrip(entryRow: row, entryBar: bar, entryTime: time)
            if rounds[j] == nil { state[j].entryRow = row }
            trip.entrySlippage = trip.buys == 0 ? slippage : (trip.entrySlippage * trip.quantity + slippage * q) / (trip.quantity + q)
            trip.quantity += q
            trip.notional += book.notional
            trip.fees += fee
            trip.buys += 1
            rounds[j] = trip
        } else if var trip = rounds[j] {
            trip.exitQuantity += q
            trip.exitNotional += book.notional
            trip.exitFees += fee
            trip.exitSlippageWeighted += slippage * q
            trip.sells += 1
            rounds[j] = trip
        }
    }

    /// Closes the books on symbol `j`'s round trip at `row`; an open one is marked to the
    /// symbol's last close (as `Broker.finish`).
    mutating func finishRound(_ j: Int, row: Int, exitBar: Int, isOpen: Bool) {
        guard let trip = rounds[j] else { return }
        var exitQuantity = trip.exitQuantity, exitNotional = trip.exitNotional
        if isOpen {
            let rest = trip.quantity - trip.exitQuantity
            exitQuantity += rest
            exitNotional += rest * candles[j].close[exitBar]
        }
        let exitPrice = exitQuantity > 0 ? exitNotional / exitQuantity : .nan
        let fees = trip.fees + trip.exitFees
        let pnl = (exitNotional - trip.notional) - fees
        let exitSlippage = trip.exitQuantity > 0 ? trip.exitSlippageWeighted / trip.exitQuantity : 0
        let slippage = trip.exitQuantity > 0 ? (trip.entrySlippage + exitSlippage) / 2 : trip.entrySlippage
        let trade = Trade(side: .long, entryIndex: trip.entryRow, exitIndex: row, entryTime: trip.entryTime,
                          exitTime: isOpen ? clock.time[row] : candles[j].time[exitBar], quantity: trip.quantity,
                          entryPrice: trip.notional / trip.quantity, exitPrice: exitPrice, slippageBps: slippage,
                          fees: fees, pnl: pnl, returnFraction: pnl / trip.notional, isOpen: isOpen)
        trades.append(PortfolioTrade(symbol: j, entryBar: trip.entryBar, exitBar: exitBar, trade: trade,
                                     buys: trip.buys, sells: trip.sells))
        rounds[j] = nil
    }

    // MARK: - Stops

    /// Stop-loss and take-profit on every held symbol with a bar, as `Broker.checkStops`: from
    /// the entry bar itself with next-open fills, from the next bar with close fills; a bar that
    /// opens beyond a level exits at the open; both levels inside one bar take the stop.
    mutating func checkStops(_ r: Int, _ t: Int64) {
        guard config.stopLoss != nil || config.takeProfit != nil, !active.isEmpty else { return }
        var stopped = false
        for j in active {
            guard state[j].position > 0, hasBar(j, t), let trip = rounds[j] else { continue }
            let entryRow = trip.entryRow
            guard nextOpen || entryRow < r else { continue }
            let bar = state[j].cursor
            let heldBeforeBar = entryRow < r
            let entry = trip.notional / trip.quantity
            let c = candles[j]
            let o = c.open[bar], h = c.high[bar], l = c.low[bar]
            let sl = config.stopLoss.map { roundDown(entry * (1 - $0)) }
            let tp = config.takeProfit.map { roundDown(entry * (1 + $0)) }
            let slHit = sl.map { l <= $0 } ?? false
            let tpHit = tp.map { h >= $0 } ?? false
            guard slHit || tpHit else { continue }
            var price: Double
            if heldBeforeBar, let s = sl, o <= s {
                price = o
            } else if heldBeforeBar, let target = tp, o >= target {
                price = o
            } else if slHit {
                price = sl!
                if tpHit { ambiguousExitBars += 1 }
            } else {
                price = tp!
            }
            if !(price > 0) { price = o }
            release(j)
            sell(j, bar: bar, row: r, quantity: state[j].position, reference: price, full: true, timeMs: c.time[bar] &* 1000)
            stopped = true
        }
        if stopped {
            var k = 0
            while k < active.count {
                let j = active[k]
                if state[j].position == 0 { state[j].inActive = false; active.remove(at: k) } else { k += 1 }
            }
        }
    }

    /// A long's stop price rounded down to the tick (against the position).
    private func roundDown(_ price: Double) -> Double {
        guard let tick = config.tick else { return price }
        return (price / tick).rounded(.down) * tick
    }
}
