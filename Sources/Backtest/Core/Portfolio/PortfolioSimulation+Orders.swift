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
        for j in active where ledgers[j].quantity != 0 {
            let c = state[j].cursor
            value += self.value(j, ledgers[j].quantity, at: hasBar(j, t) ? reference(j, c) : candles[j].close[c - 1])
        }
        for i in orders.indices {
            let j = orders[i].symbol
            let p = reference(j, orders[i].bar)
            orders[i].price = p
            orders[i].key = targetValue(j, orders[i].weight, value: value, price: p, decisionBar: decision(orders[i].bar))
                - notional(j, ledgers[j].quantity, at: p)
        }
        sortByKey()
        for o in orders {
            let j = o.symbol, p = o.price, position = ledgers[j].quantity
            let point = FillPoint(bar: o.bar, row: r, reference: p, timeMs: fillTimeMs(j, o.bar))
            if o.reason == .entry, entryPrices != nil {
                // A limit or stop entry: it works from the next bar (this one with next-open fills).
                place(j, o.weight < 0 ? .short : .long, signalBar: nextOpen ? o.bar - 1 : o.bar, weight: abs(o.weight))
                continue
            }
            if shortEvents != nil && o.weight != 0 {
                executeBookOrder(o, at: point, value: value, t: t)
                continue
            }
            if o.weight == 0 {
                if position != 0 { sell(j, full: true, at: point, kind: exitKind(o.reason)) }
                continue
            }
            let (delta, budget) = buyDelta(j, o.weight, value: value, price: p, position: position, decisionBar: decision(o.bar))
            guard !delta.isNaN else { unpricedEntries += o.reason == .entry ? 1 : 0; continue }
            // vectorbt's SizeZero: a change within 1e-12 units is no order.
            guard abs(delta) > 1e-12 else { continue }
            if delta > 0 {
                buy(j, quantity: delta, at: point, value: value, budget: budget, t: t)
            } else {
                sell(j, full: false, wanted: -delta, at: point, kind: .rebalance)
            }
        }
        for o in orders {
            if o.reason == .entry && ledgers[o.symbol].quantity == 0 && (entryPrices == nil || working[o.symbol] == nil) { release(o.symbol) }
            if o.reason == .entry && !stack.isEmpty && ledgers[o.symbol].quantity != 0 { stack[o.symbol] = 1 }
            updateActive(o.symbol)
        }
    }

    /// The bar an order filled at symbol bar `bar` was decided at.
    private func decision(_ bar: Int) -> Int { nextOpen ? bar - 1 : bar }

    /// How a trade that an order of `reason` closes ended.
    private func exitKind(_ reason: PortfolioOrder.Reason) -> ExitKind? {
        switch reason {
        case .remainder: nil
        case .exit: mode.isRotation ? .rebalance : .signal
        case .entry, .rebalance: .rebalance
        }
    }

    /// The units a buy of target `weight` (times the position's entries, `--pyramid`) asks for
    /// on symbol `j` at `p`, decided at its bar `decisionBar`, and the cash budget of `N$`
    /// sizing: `N%` a share of `value`; `Nu`, `N$` per slot scaled by K × weight; `vol:` the
    /// share of `value` that targets the volatility; `risk:` the units that lose that share of
    /// `value` at the initial stop, at most the weight's value. NaN: the size is undefined there.
    /// In a margin account, `N%` and `vol:` also give their share of `value` less what is held as
    /// the budget, its fee inside (`Broker.openPosition`'s rule: leverage sizes by margin, not cash).
    /// Quantities count contracts of the symbol's multiplier m: units = value / (m × price).
    /// `budgeted`: give that budget in a cash account too (a short's: `bt run` sizes a short by
    /// its budget, the proceeds being cash).
    func buyDelta(_ j: Int, _ weight: Double, value: Double, price p: Double, position: Double,
                  decisionBar: Int, budgeted: Bool = false) -> (delta: Double, budget: Double?) {
        let weight = weight * stacked(j), margin = budgeted || account?.margin == true
        // A unit's notional (m × P, or m / P coins) and the position's.
        let unit = contracts[j].unitNotional(at: p), held = notional(j, position, at: p)
        switch config.sizing {
        case .equityFraction(let share):
            return (weight * share * value / unit - position, margin ? weight * share * value - held : nil)
        case .units(let units): return (units * Double(slots) * weight - position, nil)
        case .cash(let amount):
            let notional = amount * Double(slots) * weight
            return (notional / unit - position, notional - held)
        case .volatility:
            let target = weight * volatilityShare(j, decisionBar) * value
            return (target / unit - position, margin ? target - held : nil)
        case .risk(let share):
            let d = stopDistance(j, at: p, decisionBar)
            guard d > 0, d.isFinite else { return (.nan, nil) }
            // Units that lose `share` of the value at the stop (a long's; inverse, m × (1/stop − 1/p) coins a contract).
            let loss: Double
            if contracts[j].inverse {
                guard p - d > 0 else { return (.nan, nil) }
                loss = multipliers[j] * (1 / (p - d) - 1 / p)
            } else {
                loss = multipliers[j] * d
            }
            return (min(share * value / loss, weight * value / unit) - position, nil)
        }
    }

    /// The value a target asks for (`buyDelta`'s units at `price`), to order a row's orders.
    private func targetValue(_ j: Int, _ weight: Double, value: Double, price: Double, decisionBar: Int) -> Double {
        if weight < 0 { return -targetValue(j, -weight, value: value, price: price, decisionBar: decisionBar) }  // a short's
        let stackedWeight = weight * stacked(j)
        switch config.sizing {
        case .equityFraction(let share): return stackedWeight * share * value
        case .units(let units): return notional(j, units * Double(slots) * stackedWeight, at: price)
        case .cash(let amount): return amount * Double(slots) * stackedWeight
        case .volatility, .risk: return notional(j, buyDelta(j, weight, value: value, price: price, position: 0, decisionBar: decisionBar).delta, at: price)
        }
    }

    /// The entries symbol `j`'s position holds (`--pyramid`), at least 1.
    private func stacked(_ j: Int) -> Double { stack.isEmpty ? 1 : Double(max(1, stack[j])) }

    /// `vol:V%`: min(1, V / (σ √P)) with σ the standard deviation of the last 20 one-bar returns
    /// at `bar` (NaN while undefined; 1 when σ is 0), as `bt run` sizes.
    private func volatilityShare(_ j: Int, _ bar: Int) -> Double {
        guard case .volatility(let target) = config.sizing, let sigmas = sizingVolatility else { return .nan }
        let sigma = bar >= 0 && bar < sigmas[j].count ? sigmas[j][bar] : .nan
        guard sigma >= 0, sigma.isFinite else { return .nan }
        let annual = sigma * config.periodsPerYear!.squareRoot()
        return annual > 0 ? min(1, target / annual) : 1
    }

    /// The distance from `price` to symbol `j`'s initial stop-loss decided at `bar` (NaN when
    /// its expression is undefined there).
    private func stopDistance(_ j: Int, at price: Double, _ bar: Int) -> Double {
        switch config.exits.stopLoss {
        case .fraction(let f)?: return price * f
        case .price?:
            let values = ledgers[j].exits.distances.stopLoss
            return values.map { bar >= 0 && bar < $0.count ? $0[bar] : .nan } ?? .nan
        case nil: return .nan
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

    /// Buys up to `wanted` units of symbol `j`, as `Engine.run` opens a position: capped by the
    /// cash (fee on top, all-in at most) and `budget`, or in a margin account by the free margin,
    /// through the execution core.
    private mutating func buy(_ j: Int, quantity wanted: Double, at point: FillPoint, value: Double, budget: Double?, t: Int64) {
        let (limit, positive) = openingLimit(j, at: point, value: value, budget: budget, t: t, atOpen: false)
        ledgers[j].increase(.long, wanted: wanted, limit: limit, valuePositive: positive, at: point,
                            signalBar: nextOpen ? point.bar - 1 : point.bar, atOpen: nextOpen, cash: &cash, recorder: &log)
        // A margin account's next order counts this position's margin and value.
        if account?.margin == true { updateActive(j) }
    }

    /// The most an opening order on symbol `j` at `point` may spend on notional, and whether the
    /// account may open at all. A cash account: notional + fee at most the cash, and at most
    /// `budget` (`N$` sizing). A margin account (`Broker.marginCap`): notional + fee at most
    /// leverage × (equity − the initial margin the positions hold), equity with symbol `j` at the
    /// order's price and the others at this row's prices (their opens when `atOpen`), and at most
    /// `budget` with its fee inside (`N$`: without).
    /// A short in a cash account: at most its budget, fee inside (its proceeds are cash; `N$`:
    /// the budget is the notional, as `bt run` sizes it).
    func openingLimit(_ j: Int, at point: FillPoint, value: Double, budget: Double?, t: Int64, atOpen: Bool,
                      short: Bool = false) -> (limit: Double, positive: Bool) {
        let fees = ledgers[j].fees, p = point.reference
        if short && account?.margin != true {
            guard let budget else { return (.infinity, value > 0) }
            if case .cash = config.sizing { return (budget, value > 0) }
            return (fees.affordableNotional(cash: budget, price: contracts[j].unitNotional(at: p), maker: point.maker), value > 0)
        }
        guard account?.margin == true else {
            // Cash a buy may spend on notional so that notional + fee <= cash.
            var limit = fees.affordableNotional(cash: cash, price: p, maker: point.maker)
            if let budget { limit = min(limit, budget) }
            return (limit, value > 0)
        }
        var equity = cash
        for k in active where ledgers[k].quantity != 0 {
            let c = state[k].cursor
            let price = k == j ? p : !hasBar(k, t) ? candles[k].close[c - 1] : atOpen ? candles[k].open[c] : reference(k, c)
            equity += self.value(k, ledgers[k].quantity, at: price)
        }
        let unit = contracts[j].unitNotional(at: p)
        let cap = Broker.marginCap(leverage: config.leverage, unitNotional: unit, fees: fees, used: usedMargin(), equity: equity,
                                   maker: point.maker)
        var limit = cap
        if let budget {
            if case .cash = config.sizing { limit = min(budget, cap) } else {
                limit = min(fees.affordableNotional(cash: budget, price: unit, maker: point.maker), cap)
            }
        }
        return (limit, equity > 0 && cap > 0)
    }

    /// Sells symbol `j`: all of it (`full`, as `Engine.run` closes a position: a remainder the
    /// book or the cap leaves stays to be sent again), or `wanted` units (a rebalance trim).
    mutating func sell(_ j: Int, full: Bool, wanted: Double = 0, at point: FillPoint, kind: ExitKind?) {
        guard ledgers[j].quantity != 0 else { return }
        ledgers[j].decrease(full: full, wanted: wanted, at: point, kind: kind, cash: &cash, recorder: &log)
    }

    /// Marks symbol `j`'s still-open round trip to its last close at the end (row `row`).
    mutating func finishOpen(_ j: Int, row: Int) {
        ledgers[j].finishOpen(row: row, lastBar: candles[j].count - 1, time: clock.time[row], recorder: &log)
    }

    // MARK: - Stops

    /// The attached exits of every held symbol with a bar, through the execution core (as
    /// `Engine.run` checks them): a time exit due at the open (with close fills, at the close:
    /// `timeExitsAtClose`), then the levels, from the entry bar itself with next-open fills, from
    /// the next bar with close fills. A position an exit closes (or starts to close) frees its slot.
    mutating func checkStops(_ r: Int, _ t: Int64) {
        guard hasExits, !active.isEmpty else { return }
        var stopped = false
        for j in active {
            guard hasBar(j, t) else { continue }
            let bar = state[j].cursor
            guard ledgers[j].quantity != 0 else { continue }
            let fillsBefore = log.fills.count, closingBefore = ledgers[j].closing
            if nextOpen && !ledgers[j].closing && ledgers[j].timeExitDue(bar) {
                sell(j, full: true, at: FillPoint(bar: bar, row: r, reference: candles[j].open[bar], timeMs: candles[j].time[bar] &* 1000),
                     kind: .time)
            }
            if ledgers[j].quantity != 0 && ledgers[j].watches(bar) {
                ledgers[j].checkLevels(bar: bar, row: r, cash: &cash, recorder: &log)
            }
            if ledgers[j].quantity == 0 || (ledgers[j].closing && !closingBefore)
                || (closingBefore && log.fills.count > fillsBefore) {
                release(j)
                stopped = true
            }
        }
        if stopped { removeFlatFromActive() }
    }

    /// With close fills: the time exits due at this close, after the row's signal exits (which
    /// have priority), as `Engine.run` orders them.
    mutating func timeExitsAtClose(_ r: Int, _ t: Int64) {
        guard config.exits.exitAfterBars != nil, !active.isEmpty else { return }
        var closed = false
        for j in active where hasBar(j, t) && ledgers[j].quantity != 0 && !ledgers[j].closing {
            let bar = state[j].cursor
            guard ledgers[j].timeExitDue(bar) else { continue }
            sell(j, full: true, at: FillPoint(bar: bar, row: r, reference: candles[j].close[bar], timeMs: fillTimeMs(j, bar)), kind: .time)
            release(j)
            closed = true
        }
        if closed { removeFlatFromActive() }
    }

    /// Drops the symbols an exit left flat from `active` (in order).
    mutating func removeFlatFromActive() {
        var k = 0
        while k < active.count {
            let j = active[k]
            if ledgers[j].quantity == 0 { state[j].inActive = false; active.remove(at: k) } else { k += 1 }
        }
    }
}
