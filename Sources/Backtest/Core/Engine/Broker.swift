/// What the broker is asked to do at a fill bar.
enum OrderAction: Equatable {
    case none
    case open(PositionSide)
    /// Close the whole position, then open the opposite side when `reverse` and flat.
    case close(reverse: Bool)
}

/// The simulated broker: cash, position, the open trade, and every fill, trade and rejection.
///
/// Accounting: a buy pays notional + fee, a sell receives notional − fee; equity at a price is
/// cash + position × price. Every fill belongs to exactly one trade, so final equity equals
/// initial cash plus the sum of trade PnL (the open trade marked to the last close).
struct Broker {
    let config: ExecutionConfig
    let candles: CandleSeries
    private let feeRate: Double
    var liquidity: Liquidity

    private(set) var cash: Double
    private(set) var position = 0.0
    /// True while an exit's unfilled remainder waits for the next fill bar.
    private(set) var closing = false

    private(set) var fills: [Fill] = []
    private(set) var trades: [Trade] = []
    private(set) var rejected: [RejectedOrder] = []
    private(set) var ambiguousExitBars = 0
    /// Fill bars without volume where the participation cap was skipped.
    private(set) var barsWithoutVolume = 0
    private var lastUncappedBar = -1

    /// The open trade: entry fill facts plus exits so far.
    private struct OpenTrade {
        var side: PositionSide
        var index: Int
        var time: Int64
        var quantity: Double
        var notional: Double
        var fee: Double
        var slippageBps: Double
        var exitQuantity = 0.0
        var exitNotional = 0.0
        var exitFees = 0.0
        var exitSlippageWeighted = 0.0
    }
    private var open: OpenTrade?

    #if DEBUG
    /// The ledger rebuilt from the fills alone, for `ledgerViolations`.
    var ledgerCash: Double
    var ledgerPosition = 0.0
    #endif

    init(config: ExecutionConfig, candles: CandleSeries) {
        self.config = config
        self.candles = candles
        feeRate = config.feeRate
        cash = config.initialCash
        liquidity = Liquidity(config: config, candles: candles)
        #if DEBUG
        ledgerCash = config.initialCash
        #endif
        fills.reserveCapacity(64)
        trades.reserveCapacity(32)
    }

    var entryPrice: Double? { open.map { $0.notional / $0.quantity } }
    var entryIndex: Int? { open?.index }

    // MARK: - Orders

    /// Carries out `action` on bar `bar` at `reference`, taking the book as of `timeMs` (UTC ms).
    mutating func execute(_ action: OrderAction, bar: Int, reference: Double, timeMs: Int64) {
        switch action {
        case .none: break
        case .open(let side): openPosition(side, bar: bar, reference: reference, timeMs: timeMs)
        case .close(let reverse):
            let side: PositionSide = position > 0 ? .long : .short
            closePosition(bar: bar, reference: reference, timeMs: timeMs)
            if reverse && position == 0 {
                openPosition(side == .long ? .short : .long, bar: bar, reference: reference, timeMs: timeMs)
            }
        }
    }

    private func fee(_ notional: Double) -> Double { max(notional * feeRate, config.feeMin) }

    /// Opens a position sized by `config.sizing`, after lot, minimum-notional and participation rules.
    private mutating func openPosition(_ side: PositionSide, bar: Int, reference p: Double, timeMs: Int64) {
        let orderSide: OrderSide = side == .long ? .buy : .sell
        func reject(_ reason: RejectionReason) {
            rejected.append(RejectedOrder(index: bar, time: candles.time[bar], side: orderSide, reason: reason))
        }
        let equity = cash + position * p
        // Cash a buy may spend on notional so that notional + fee <= cash.
        let affordable = max(0, min(cash / (1 + feeRate), cash - config.feeMin))
        var quantity: Double
        var limit: Double
        switch config.sizing {
        case .equityFraction(let share):
            let budget = share * equity
            limit = max(0, min(budget / (1 + feeRate), budget - config.feeMin))
            quantity = limit / p
        case .units(let units):
            quantity = units
            limit = .infinity
        case .cash(let amount):
            quantity = amount / p
            limit = amount
        }
        if side == .long { limit = min(limit, affordable) }
        if !(limit > 0) || !(equity > 0) { return reject(.insufficientCash) }
        quantity = min(quantity, limit / p)
        if let lot = config.lot { quantity = (quantity / lot).rounded(.down) * lot }
        if !(quantity > 0) { return reject(.zeroQuantity) }
        if let minimum = config.minNotional, quantity * p < minimum { return reject(.belowMinNotional) }
        let asked = quantity
        if let cap = participationCap(bar), quantity > cap {
            quantity = config.lot.map { (cap / $0).rounded(.down) * $0 } ?? cap
            if !(quantity > 0) { return reject(.noLiquidity) }
        }
        var book = liquidity.execute(orderSide, quantity: quantity, notionalLimit: limit, reference: p,
                                     bar: bar, timeMs: timeMs, lot: config.lot)
        // A budget-limited order that spent its budget is complete, not partial: the quantity
        // asked was only the budget at the reference price.
        let spent = book.notional >= limit * (1 - 1e-9)
            || config.lot.map { book.notional + $0 * book.worstPrice > limit } ?? false
        book.quantityAsked = spent && quantity == asked ? book.quantityFilled : asked
        guard book.quantityFilled > 0 else { return reject(.noLiquidity) }
        var paid = fee(book.notional)
        if side == .long {
            // All-in: never let rounding push cash below zero.
            if book.notional + paid > cash { paid = max(0, cash - book.notional) }
            cash = max(0, cash - (book.notional + paid))
            position = book.quantityFilled
        } else {
            cash += book.notional - paid
            position = -book.quantityFilled
        }
        let fill = record(orderSide, bar: bar, reference: p, book: book, fee: paid)
        open = OpenTrade(side: side, index: bar, time: candles.time[bar], quantity: book.quantityFilled,
                         notional: book.notional, fee: paid, slippageBps: fill.slippageBps)
    }

    /// Sends an order for the whole position; an unfilled remainder stays open and `closing`.
    private mutating func closePosition(bar: Int, reference p: Double, timeMs: Int64) {
        guard position != 0, var trade = open else { closing = false; return }
        let orderSide: OrderSide = position > 0 ? .sell : .buy
        var quantity = abs(position)
        if let cap = participationCap(bar), quantity > cap { quantity = cap }
        var fillBook = BookFill(quantityAsked: 0, quantityFilled: 0, notional: 0, levelsWalked: 0,
                                worstPrice: .nan, depthAvailable: 0)
        if quantity > 0 {
            fillBook = liquidity.execute(orderSide, quantity: quantity, notionalLimit: .infinity,
                                         reference: p, bar: bar, timeMs: timeMs, lot: nil)
        }
        fillBook.quantityAsked = abs(position)
        guard fillBook.quantityFilled > 0 else {
            rejected.append(RejectedOrder(index: bar, time: candles.time[bar], side: orderSide, reason: .noLiquidity))
            closing = true
            return
        }
        let paid = fee(fillBook.notional)
        if orderSide == .sell {
            cash += fillBook.notional - paid
            position -= fillBook.quantityFilled
        } else {
            cash -= fillBook.notional + paid
            position += fillBook.quantityFilled
        }
        if abs(position) <= trade.quantity * 1e-12 { position = 0 }
        let fill = record(orderSide, bar: bar, reference: p, book: fillBook, fee: paid)
        trade.exitQuantity += fillBook.quantityFilled
        trade.exitNotional += fillBook.notional
        trade.exitFees += paid
        trade.exitSlippageWeighted += fill.slippageBps * fillBook.quantityFilled
        open = trade
        if position == 0 {
            finish(trade, bar: bar, isOpen: false)
            closing = false
        } else {
            closing = true
        }
    }

    /// The participation cap on `bar`, when one is set. A bar without volume (0 or not finite)
    /// has no cap: missing volume turns the volume-based parts off instead of rejecting orders.
    private mutating func participationCap(_ bar: Int) -> Double? {
        guard let share = config.maxParticipation, share > 0 else { return nil }
        let v = candles.volume[bar]
        guard v > 0, v.isFinite else {
            if lastUncappedBar != bar { barsWithoutVolume += 1; lastUncappedBar = bar }
            return nil
        }
        return share * v
    }

    private mutating func record(_ side: OrderSide, bar: Int, reference p: Double, book: BookFill, fee: Double) -> Fill {
        let vwap = book.vwap
        let slippage = (side == .buy ? vwap / p - 1 : 1 - vwap / p) * 10_000
        let fill = Fill(index: bar, time: candles.time[bar], side: side, referencePrice: p, vwap: vwap,
                        slippageBps: slippage, quantityAsked: book.quantityAsked,
                        quantityFilled: book.quantityFilled, fee: fee, depthAvailable: book.depthAvailable,
                        spreadCost: book.spreadCost)
        fills.append(fill)
        #if DEBUG
        let signed = side == .buy ? book.quantityFilled : -book.quantityFilled
        ledgerCash -= signed * vwap + fee
        ledgerPosition += signed
        #endif
        return fill
    }

    /// Closes the books on `trade` at bar `bar`; an open trade is marked to that bar's close.
    private mutating func finish(_ trade: OpenTrade, bar: Int, isOpen: Bool) {
        var exitQuantity = trade.exitQuantity, exitNotional = trade.exitNotional
        if isOpen {
            let rest = trade.quantity - trade.exitQuantity
            exitQuantity += rest
            exitNotional += rest * candles.close[bar]
        }
        let exitPrice = exitQuantity > 0 ? exitNotional / exitQuantity : .nan
        let fees = trade.fee + trade.exitFees
        let gross = trade.side == .long ? exitNotional - trade.notional : trade.notional - exitNotional
        let pnl = gross - fees
        let exitSlippage = trade.exitQuantity > 0 ? trade.exitSlippageWeighted / trade.exitQuantity : 0
        let slippage = trade.exitQuantity > 0 ? (trade.slippageBps + exitSlippage) / 2 : trade.slippageBps
        trades.append(Trade(
            side: trade.side, entryIndex: trade.index, exitIndex: bar, entryTime: trade.time,
            exitTime: candles.time[bar], quantity: trade.quantity, entryPrice: trade.notional / trade.quantity,
            exitPrice: exitPrice, slippageBps: slippage, fees: fees, pnl: pnl,
            returnFraction: pnl / trade.notional, isOpen: isOpen))
        open = nil
    }

    /// Marks a still-open trade to the last close, at the end of the data.
    mutating func finishOpenTrade(lastBar: Int) {
        if let trade = open { finish(trade, bar: lastBar, isOpen: true) }
        _checkInvariants(lastClose: candles.close[lastBar])
    }

    /// Debug builds: traps unless `ledgerViolations` is empty. Release builds: nothing.
    func _checkInvariants(lastClose: Double) {
        #if DEBUG
        let violations = ledgerViolations(lastClose: lastClose)
        precondition(violations.isEmpty, "broker ledger: " + violations.joined(separator: "; "))
        #endif
    }

    /// What breaks the ledger's identities: cash and position must equal what the fills add up
    /// to, no fill may take more than it asked or than the depth it walked, and the final equity
    /// must equal the initial cash plus the sum of trade PnL (the open trade marked to
    /// `lastClose`). Debug builds only (release builds return nothing).
    /// - Complexity: O(fills + trades).
    func ledgerViolations(lastClose: Double) -> [String] {
        var found: [String] = []
        #if DEBUG
        func near(_ a: Double, _ b: Double, scale: Double) -> Bool { abs(a - b) <= 1e-9 * max(scale, 1e-300) }
        let cashScale = max(abs(config.initialCash), abs(ledgerCash), abs(cash))
        let quantityScale = fills.reduce(0) { max($0, $1.quantityFilled) }
        if !near(cash, ledgerCash, scale: cashScale) { found.append("cash \(cash) != fills' \(ledgerCash)") }
        if !near(position, ledgerPosition, scale: quantityScale) {
            found.append("position \(position) != fills' \(ledgerPosition)")
        }
        for f in fills where f.quantityFilled > f.quantityAsked * (1 + 1e-12) || f.quantityFilled > f.depthAvailable * (1 + 1e-12) {
            found.append("fill at bar \(f.index) took \(f.quantityFilled) (asked \(f.quantityAsked), depth \(f.depthAvailable))")
        }
        let equity = cash + position * lastClose
        let expected = config.initialCash + trades.reduce(0) { $0 + $1.pnl }
        if !near(equity, expected, scale: max(cashScale, abs(equity))) {
            found.append("final equity \(equity) != initial cash + trade PnL \(expected)")
        }
        #endif
        return found
    }

    // MARK: - Stops

    /// Checks stop-loss and take-profit against bar `bar`'s range and exits at the level hit.
    /// When both levels lie inside the range the order of touches is unknown: the worse (the
    /// stop) is taken and the bar counted in `ambiguousExitBars`. When the bar opens beyond a
    /// level on a position held from an earlier bar, the exit is at the open.
    mutating func checkStops(bar: Int, heldBeforeBar: Bool) {
        guard position != 0, let entry = entryPrice else { return }
        let long = position > 0
        let o = candles.open[bar], h = candles.high[bar], l = candles.low[bar]
        let sl = config.stopLoss.map { roundAdverse(long ? entry * (1 - $0) : entry * (1 + $0), long: long) }
        let tp = config.takeProfit.map { roundAdverse(long ? entry * (1 + $0) : entry * (1 - $0), long: long) }
        let slHit = sl.map { long ? l <= $0 : h >= $0 } ?? false
        let tpHit = tp.map { long ? h >= $0 : l <= $0 } ?? false
        guard slHit || tpHit else { return }
        var price: Double
        if heldBeforeBar, let s = sl, long ? o <= s : o >= s {
            price = o
        } else if heldBeforeBar, let t = tp, long ? o >= t : o <= t {
            price = o
        } else if slHit {
            price = sl!
            if tpHit { ambiguousExitBars += 1 }
        } else {
            price = tp!
        }
        if !(price > 0) { price = o }
        closePosition(bar: bar, reference: price, timeMs: candles.time[bar] * 1000)
    }

    /// Rounds a stop price to the tick against the position (down for longs, up for shorts).
    private func roundAdverse(_ price: Double, long: Bool) -> Double {
        guard let tick = config.tick else { return price }
        return (price / tick).rounded(long ? .down : .up) * tick
    }
}
