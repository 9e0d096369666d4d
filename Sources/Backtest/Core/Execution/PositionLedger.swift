/// One symbol's position in the one execution core that `Engine.run` and `Portfolio.run` share:
/// the units held, the round trip, the exits attached to it, and the fill path every order
/// takes (lot, minimum notional, participation cap, the symbol's liquidity model, fees).
///
/// Accounting: a buy pays notional + fee, a sell receives notional − fee, on the cash the
/// driver passes (one account for a portfolio's symbols). Every fill belongs to exactly one round
/// trip, so the account's final equity is its initial cash plus the trades' PnL.
struct PositionLedger {
    /// The driver's index of the symbol (0 for one symbol).
    let symbol: Int
    let candles: CandleSeries
    /// Fees, sizing rules, instrument rules, the participation cap and the attached exits
    /// (a portfolio's symbols share one; their liquidity models may differ).
    let config: ExecutionConfig
    /// How fills are charged (`config.fees`, kept so the hot path does not rebuild it).
    let fees: FeeSchedule
    /// A margin account's cash may go below 0 (`ExecutionConfig.isMarginAccount`); a cash
    /// account's never does.
    let marginAccount: Bool
    /// Units of the underlying in a unit of quantity (`ExecutionConfig.multiplier`): a fill's
    /// notional is its book notional (quantity × price) times it.
    let multiplier: Double
    /// What units are worth in the account's currency (`ContractValue`: inverse contracts in
    /// the coin); `inverse` is its flag, read on the fill path.
    let contract: ContractValue
    let inverse: Bool
    var liquidity: Liquidity

    /// Units held: positive long, negative short.
    var quantity = 0.0
    /// True while a full exit's unfilled remainder waits for the next fill bar.
    var closing = false
    /// The kind of the full exit in progress (what a remainder's fill closes the trade as).
    private(set) var closingKind = ExitKind.signal
    var trip: RoundTrip?
    /// The open trip's borrow, interest and funding (reset when it ends).
    var charges = TripCharges()
    /// The attached exits' levels for the open position.
    var exits: ExitLevels
    /// Entries filled below the size asked, by cause (`OrderCuts`).
    var cuts = OrderCuts()
    /// Whether sizes are numbers of units (`Nu`, `risk:`), which the cash may cut (`OrderCuts`).
    private let sizedInUnits: Bool
    /// Bars where a stop and a target were both inside the range (the stop was taken).
    var ambiguousExitBars = 0
    /// Fill bars without volume where the participation cap was skipped.
    private(set) var barsWithoutVolume = 0
    private var lastUncappedBar = -1

    #if DEBUG
    /// The position rebuilt from the fills alone (`ledgerViolations`).
    var ledgerQuantity = 0.0
    #endif

    /// - Parameters:
    ///   - liquidity: the configuration whose liquidity model the symbol's fills use (nil: `config`).
    ///   - distances: the exit distance expressions' values on `candles` (`ExitLevels`).
    ///   - pairs: the spread pairs of the series `candles` ends (nil: computed from `candles`
    ///     when the liquidity model reads them; `Liquidity`).
    init(symbol: Int, candles: CandleSeries, config: ExecutionConfig, liquidity: ExecutionConfig? = nil,
         distances: ExitLevels.Distances = .init(), pairs: SpreadPairs? = nil) {
        self.symbol = symbol
        self.candles = candles
        self.config = config
        fees = config.fees
        marginAccount = config.isMarginAccount
        multiplier = config.multiplier
        contract = ContractValue(config)
        inverse = contract.inverse
        self.liquidity = Liquidity(config: liquidity ?? config, candles: candles, pairs: pairs)
        exits = ExitLevels(config.exits, distances: distances)
        switch config.sizing {
        case .units, .risk: sizedInUnits = true
        default: sizedInUnits = false
        }
    }

    var isFlat: Bool { quantity == 0 }
    /// The average entry fill price of the open position.
    var entryPrice: Double? { trip.map { $0.entryPrice } }

    /// The fee of a fill of `quantity` units worth `notional` at `point` (a maker's or a taker's).
    func fee(_ notional: Double, quantity: Double, at point: FillPoint) -> Double {
        fees.fee(notional: notional, quantity: quantity, maker: point.maker)
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

    private func reject<R: ExecutionRecorder>(_ side: OrderSide, _ reason: RejectionReason, at point: FillPoint, _ recorder: inout R) {
        recorder.record(rejection: RejectedOrder(index: point.row, time: candles.time[point.bar], side: side, reason: reason),
                        symbol: symbol, bar: point.bar)
    }

    // MARK: - Orders

    /// Opens or adds to a position on `side`: up to `wanted` units and at most `limit` of
    /// notional (a buy's caller caps it by what the cash allows, the fee on top), rounded down to
    /// the lot, checked against the minimum notional and the participation cap, then filled
    /// through the symbol's liquidity. Nothing is bought while the account is not worth more than
    /// 0 (`valuePositive`). The attached exits are (re)armed from the new average entry price,
    /// with expression distances read at `signalBar`; `atOpen`: the fill was at the bar's open,
    /// so the bar's own range is checked. An entry whose stop-loss, target or trail is an
    /// expression not yet defined at `signalBar` is not taken (`ExitLevels.undefinedExit`)
    /// unless `config.allowUnprotected`.
    /// - Returns: the units filled (0 when the order was rejected or not taken).
    @discardableResult
    mutating func increase<R: ExecutionRecorder>(
        _ side: PositionSide, wanted: Double, limit: Double, valuePositive: Bool, at point: FillPoint,
        signalBar: Int, atOpen: Bool, cash: inout Double, recorder: inout R
    ) -> Double {
        if exits.readsPrices, !config.allowUnprotected, let exit = exits.undefinedExit(at: signalBar) {
            exits.countUnprotected(exit)
            return 0
        }
        let orderSide: OrderSide = side == .long ? .buy : .sell
        let p = point.reference, m = multiplier
        if !(limit > 0) || !valuePositive { reject(orderSide, .insufficientCash, at: point, &recorder); return 0 }
        // The book prices units of the underlying: its notional budget is the cash one / m. An
        // inverse contract's coin budget is met at the reference price (as an exchange checks a
        // market order's margin before it fills): the book's quote notional does not bound it.
        let bookLimit = inverse ? .infinity : limit / m
        var q = min(wanted, inverse ? contract.quantity(notional: limit, at: p) : bookLimit / p)
        let affordable = q
        if let lot = config.lot { q = (q / lot).rounded(.down) * lot }
        if !(q > 0) { reject(orderSide, .zeroQuantity, at: point, &recorder); return 0 }
        if let minimum = config.minNotional, (inverse ? q * contract.unitNotional(at: p) : q * m * p) < minimum {
            reject(orderSide, .belowMinNotional, at: point, &recorder); return 0
        }
        let asked = q
        if let cap = participationCap(point.bar), q > cap {
            q = config.lot.map { (cap / $0).rounded(.down) * $0 } ?? cap
            if !(q > 0) { reject(orderSide, .noLiquidity, at: point, &recorder); return 0 }
        }
        var book = liquidity.execute(orderSide, quantity: q, notionalLimit: bookLimit, reference: p,
                                     bar: point.bar, timeMs: point.timeMs, lot: config.lot)
        // A budget-limited order that spent its budget is complete, not partial: the quantity
        // asked was only the budget at the reference price.
        let spent = book.notional >= bookLimit * (1 - 1e-9)
            || config.lot.map { book.notional + $0 * book.worstPrice > bookLimit } ?? false
        book.quantityAsked = spent && q == asked ? book.quantityFilled : asked
        guard book.quantityFilled > 0 else { reject(orderSide, .noLiquidity, at: point, &recorder); return 0 }
        // Inverse: the coins the contracts are worth at the fill's average price.
        let tripNotional = inverse ? book.quantityFilled / book.vwap : book.notional
        let notional = tripNotional * m
        var paid = fee(notional, quantity: book.quantityFilled, at: point)
        if inverse {
            // A long receives the coins (`ContractValue`), a short pays them; always a margin account.
            cash += side == .long ? notional - paid : -(notional + paid)
            quantity += side == .long ? book.quantityFilled : -book.quantityFilled
        } else if side == .long {
            if marginAccount {
                cash -= notional + paid
            } else {
                // All-in: never let rounding push cash below zero.
                if notional + paid > cash { paid = max(0, cash - notional) }
                cash = max(0, cash - (notional + paid))
            }
            quantity += book.quantityFilled
        } else {
            cash += notional - paid
            quantity -= book.quantityFilled
        }
        let fill = record(orderSide, book: book, fee: paid, at: point, &recorder)
        cuts.count(wanted: wanted, affordable: affordable, sent: book.quantityAsked, filled: book.quantityFilled, sizedInUnits: sizedInUnits)
        let first = trip == nil
        if first { trip = RoundTrip(side: side, entryRow: point.row, entryBar: point.bar, entryTime: candles.time[point.bar], inverse: inverse) }
        trip!.addEntry(quantity: book.quantityFilled, notional: tripNotional, fee: paid, slippage: fill.slippageBps)  // in place: no copy
        if exits.armsLevels {
            exits.arm(entry: trip!.entryPrice, long: side == .long, first: first, bar: point.bar, atOpen: atOpen,
                      signalBar: signalBar, tick: config.tick)
        }
        return book.quantityFilled
    }

    /// Reduces the position: all of it (`full`; an unfilled remainder leaves it `closing`, to
    /// be sent again) or `wanted` units, which round down to the lot and respect the minimum
    /// notional. The exit is capped by the participation cap and filled through the symbol's
    /// liquidity. A trade closed by it ends as `kind` (nil: the kind of the full exit in
    /// progress, for a remainder).
    /// - Returns: the units filled.
    @discardableResult
    mutating func decrease<R: ExecutionRecorder>(
        full: Bool, wanted: Double = 0, at point: FillPoint, kind: ExitKind?, cash: inout Double, recorder: inout R
    ) -> Double {
        guard quantity != 0, let bought = trip?.quantity else { closing = false; return 0 }
        let long = quantity > 0
        let orderSide: OrderSide = long ? .sell : .buy
        let held = abs(quantity)
        let asked = full ? held : min(wanted, held)
        var q = asked
        if !full {
            if let lot = config.lot { q = (q / lot).rounded(.down) * lot }
            if !(q > 0) { reject(orderSide, .zeroQuantity, at: point, &recorder); return 0 }
            if let minimum = config.minNotional, q * contract.unitNotional(at: point.reference) < minimum {
                reject(orderSide, .belowMinNotional, at: point, &recorder); return 0
            }
        }
        if full, let kind { closingKind = kind }
        if let cap = participationCap(point.bar), q > cap { q = cap }
        var book = BookFill(quantityAsked: 0, quantityFilled: 0, notional: 0, levelsWalked: 0, worstPrice: .nan, depthAvailable: 0)
        if q > 0 {
            book = liquidity.execute(orderSide, quantity: q, notionalLimit: .infinity, reference: point.reference,
                                     bar: point.bar, timeMs: point.timeMs, lot: nil)
        }
        book.quantityAsked = asked
        guard book.quantityFilled > 0 else {
            reject(orderSide, .noLiquidity, at: point, &recorder)
            if full { closing = true }
            return 0
        }
        let paid: Double
        let tripNotional = inverse ? book.quantityFilled / book.vwap : book.notional
        let notional = tripNotional * multiplier
        if inverse {
            // Selling a long's contracts pays their coins back, buying back a short's receives them.
            paid = fee(notional, quantity: book.quantityFilled, at: point)
            cash += long ? -(notional + paid) : notional - paid
            quantity += long ? -book.quantityFilled : book.quantityFilled
        } else if long {
            // A fee larger than the cash and the proceeds (a high minimum fee) takes what there is
            // (a margin account's cash may be below 0: its fee is paid in full).
            let charged = fee(notional, quantity: book.quantityFilled, at: point)
            paid = marginAccount ? charged : min(charged, cash + notional)
            cash += notional - paid
            quantity -= book.quantityFilled
        } else {
            paid = fee(notional, quantity: book.quantityFilled, at: point)
            cash -= notional + paid
            quantity += book.quantityFilled
        }
        if abs(quantity) <= bought * 1e-12 { quantity = 0 }
        let fill = record(orderSide, book: book, fee: paid, at: point, &recorder)
        trip!.addExit(quantity: book.quantityFilled, notional: tripNotional, fee: paid, slippage: fill.slippageBps)  // in place: no copy
        if quantity == 0 {
            finish(row: point.row, exitBar: point.bar, exitTime: candles.time[point.bar], markPrice: nil,
                   kind: full ? closingKind : kind ?? closingKind, &recorder)
            closing = false
        } else if full {
            closing = true
        }
        return book.quantityFilled
    }

    mutating func record<R: ExecutionRecorder>(_ side: OrderSide, book: BookFill, fee: Double, at point: FillPoint,
                                                      _ recorder: inout R) -> Fill {
        let vwap = book.vwap, p = point.reference
        let slippage = (side == .buy ? vwap / p - 1 : 1 - vwap / p) * 10_000
        let fill = Fill(index: point.row, time: candles.time[point.bar], side: side, referencePrice: p, vwap: vwap,
                        slippageBps: slippage, quantityAsked: book.quantityAsked, quantityFilled: book.quantityFilled,
                        fee: fee, depthAvailable: book.depthAvailable,
                        spreadCost: inverse ? Self.inverseSpreadCost(book, side: side, reference: p, multiplier: multiplier)
                            : book.spreadCost * multiplier,
                        multiplier: multiplier, inverse: inverse)
        recorder.record(fill: fill, symbol: symbol, bar: point.bar)
        #if DEBUG
        ledgerQuantity += side == .buy ? book.quantityFilled : -book.quantityFilled
        #endif
        return fill
    }

    /// The half spread of an inverse contracts' fill in coins: the quote distance from the
    /// reference to the touch, d = spread cost / quantity, as q × m × |1/reference − 1/touch|.
    static func inverseSpreadCost(_ book: BookFill, side: OrderSide, reference p: Double, multiplier m: Double) -> Double {
        guard book.quantityFilled > 0, book.spreadCost > 0 else { return 0 }
        let d = book.spreadCost / book.quantityFilled
        let touch = side == .buy ? p + d : p - d
        return book.quantityFilled * m * Swift.abs(1 / p - 1 / touch)
    }

    /// Charges the short held at bar `bar`'s close its borrow fee for the bar at annual `rate`
    /// (`ExecutionConfig.borrowBps`): rate × |quantity| × close × `borrowYears(bar)`, taken from
    /// `cash` and added to the round trip's borrow, so its PnL pays it. Nothing for a long, a
    /// flat position, or a bar whose charge is not a finite number (no close price). Returns
    /// what was charged.
    @inline(__always)
    mutating func chargeBorrow(bar: Int, rate: Double, cash: inout Double) -> Double {
        guard quantity < 0 else { return 0 }
        let amount = rate * -quantity * candles.close[bar] * borrowYears(bar)
        guard amount.isFinite, amount > 0 else { return 0 }
        cash -= amount
        if trip != nil { charges.borrow += amount }
        return amount
    }

    /// Bar `bar`'s duration in years of 365 days (ACT/365): calendar time to the next bar's
    /// open time, gaps (weekends, holidays) included; the last bar takes the one before it's
    /// duration, and a series of one bar its timeframe's (0 when it has none).
    func borrowYears(_ bar: Int) -> Double {
        Double(Self.barSeconds(bar, time: candles.time, timeframe: candles.timeframe)) / (365 * 86_400)
    }

    /// Bar `bar`'s calendar duration in seconds, of bars opening at `time`: to the next bar's
    /// open time; the last bar, the one before's; a series of one bar, its timeframe's (0 when
    /// none). Never negative.
    static func barSeconds(_ bar: Int, time: [Int64], timeframe: Timeframe?) -> Int64 {
        let seconds: Int64
        if bar + 1 < time.count { seconds = time[bar + 1] - time[bar] }
        else if bar > 0 { seconds = time[bar] - time[bar - 1] }
        else { seconds = timeframe?.seconds ?? 0 }
        return max(0, seconds)
    }

    /// Closes the books on the round trip at `row` (the symbol's bar `exitBar`); a still-open
    /// one is marked to `markPrice`.
    mutating func finish<R: ExecutionRecorder>(row: Int, exitBar: Int, exitTime: Int64, markPrice: Double?,
                                                      kind: ExitKind, _ recorder: inout R) {
        guard let trip else { return }
        recorder.record(trade: trip.trade(exitRow: row, exitTime: exitTime, markPrice: markPrice, kind: kind, multiplier: multiplier,
                                                   charges: charges),
                        symbol: symbol, entryBar: trip.entryBar, exitBar: exitBar, entries: trip.entries, exits: trip.exits)
        self.trip = nil
        charges = TripCharges()
        exits.disarm()
    }

    /// At the end of the data: a still-open round trip marked to the close of `lastBar`,
    /// recorded at `row` and `time`.
    mutating func finishOpen<R: ExecutionRecorder>(row: Int, lastBar: Int, time: Int64, recorder: inout R) {
        finish(row: row, exitBar: lastBar, exitTime: time, markPrice: candles.close[lastBar], kind: .end, &recorder)
    }
}
