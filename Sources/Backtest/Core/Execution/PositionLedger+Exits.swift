/// The exits attached to the position, written once for every driver (docs/design/orders.md,
/// "What happens on a bar of a position").
extension PositionLedger {
    /// Whether the position's attached exits watch `bar`'s range.
    func watches(_ bar: Int) -> Bool { quantity != 0 && exits.isActive && bar >= exits.firstCheckBar }

    /// Whether the time exit is due at the open of `bar`.
    func timeExitDue(_ bar: Int) -> Bool { quantity != 0 && bar >= exits.timeExitBar }

    /// Checks the stop, trailing stop and targets against `bar` (recorded under `row`):
    /// on a position held since an earlier bar, a stop the open is already through exits at the
    /// open (`stop-gap`, or `trail`), else each target the open is through fills at the open
    /// (`target-gap`); then the range: a stop inside it exits everything at its level (a target
    /// also inside the bar: the order of touches is unknown, the stop is taken and the bar
    /// counted in `ambiguousExitBars`), else each target inside it fills at its level, nearest
    /// first (a maker's fill; every other exit is a taker's). A level that is not a positive
    /// price fills at the open. Fills take the book at the bar's open.
    mutating func checkLevels<R: ExecutionRecorder>(bar: Int, row: Int, cash: inout Double, recorder: inout R) {
        // The trip's entry bar only: binding the whole trip copied it (120 bytes) on every bar.
        guard quantity != 0, bar >= exits.firstCheckBar, let entryBar = trip?.entryBar else { return }
        let long = quantity > 0
        let o = candles.open[bar], h = candles.high[bar], l = candles.low[bar]
        let held = entryBar < bar
        let timeMs = candles.time[bar] &* 1000
        func through(_ level: Double, below: Bool, _ price: Double) -> Bool { below ? price <= level : price >= level }
        /// A target filled at its level inside the bar rested there: a maker's fill (`FeeSchedule`).
        func exit(full: Bool, wanted: Double = 0, at price: Double, _ kind: ExitKind) {
            let point = FillPoint(bar: bar, row: row, reference: price > 0 ? price : o, timeMs: timeMs, maker: kind == .target && price > 0)
            decrease(full: full, wanted: wanted, at: point, kind: kind, cash: &cash, recorder: &recorder)
        }
        /// Fires target `i` at `price`: its share of the quantity entered, once, or all that is
        /// left when it has no share (a full exit, which, like the stop, stays armed for a
        /// remainder the book or the cap left).
        func fire(_ i: Int, at price: Double, _ kind: ExitKind) {
            if let share = exits.rules.takeProfits[i].share {
                exits.markFired(i)
                exit(full: false, wanted: share * self.trip!.quantity, at: price, kind)
            } else {
                exit(full: true, at: price, kind)
            }
        }

        let stop = exits.effectiveStop
        var k = exits.nearestTarget()
        let stopHit = !stop.isNaN && through(stop, below: long, long ? l : h)
        let targetHit = k.map { through(exits.targets[$0], below: !long, long ? h : l) } ?? false
        guard stopHit || targetHit else { return }
        if held, !stop.isNaN, through(stop, below: long, o) {
            return exit(full: true, at: o, exits.trailBinds ? .trail : .stopGap)
        }
        if held, let i = k, through(exits.targets[i], below: !long, o) {
            var next: Int? = i
            while let j = next, through(exits.targets[j], below: !long, o) {
                fire(j, at: o, .targetGap)
                if quantity == 0 || closing { return }
                next = exits.nearestTarget()
            }
            k = next
        }
        if !stop.isNaN && through(stop, below: long, long ? l : h) {
            if let i = k, through(exits.targets[i], below: !long, long ? h : l) { ambiguousExitBars += 1 }
            return exit(full: true, at: stop, exits.trailBinds ? .trail : .stop)
        }
        while let j = k, through(exits.targets[j], below: !long, long ? h : l) {
            fire(j, at: exits.targets[j], .target)
            if quantity == 0 || closing { return }
            k = exits.nearestTarget()
        }
    }

    /// The bar `bar` is complete: the peak and trough, the trailing stop and the break-even move
    /// follow it (so the bar that makes a new high cannot also stop out on it).
    mutating func closeBar(_ bar: Int) {
        guard quantity != 0, exits.tracksPeak, let entry = trip?.entryPrice else { return }
        exits.close(bar: bar, high: candles.high[bar], low: candles.low[bar], close: candles.close[bar], entry: entry, tick: config.tick)
    }

    /// The position as the position-aware series read it at `bar`'s close (docs/design/orders.md,
    /// "Position-aware series"): side, average entry price, bars since the entry bar, the
    /// unrealised return at the close (inverse contracts: in the coin), and the peak and trough (kept when `exits.tracksPeak`).
    func positionState(at bar: Int) -> PositionState {
        guard quantity != 0, let trip else { return .flat }
        let entry = trip.entryPrice, close = candles.close[bar], long = quantity > 0
        // Inverse: the coin PnL over the coin notional, 1 − entry / close for a long.
        let tradeReturn = inverse ? (long ? 1 - entry / close : entry / close - 1) : (long ? close / entry - 1 : 1 - close / entry)
        return PositionState(position: long ? 1 : -1, entryPrice: entry, barsInTrade: Double(bar - trip.entryBar),
                             tradeReturn: tradeReturn,
                             highestSinceEntry: exits.peak, lowestSinceEntry: exits.trough)
    }
}
