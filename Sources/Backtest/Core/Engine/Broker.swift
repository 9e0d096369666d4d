/// What the broker is asked to do at a fill bar.
enum OrderAction: Equatable {
    case none
    case open(PositionSide)
    /// Close the whole position, then open the opposite side when `reverse` and flat.
    case close(reverse: Bool)
}

/// The single-symbol driver's account: its cash and the execution core's position on the one
/// symbol, every fill, trade and rejection, and the sizing of opening orders.
///
/// Accounting: a buy pays notional + fee, a sell receives notional − fee; equity at a price is
/// cash + position × price. Every fill belongs to exactly one trade, so final equity equals
/// initial cash plus the sum of trade PnL (the open trade marked to the last close).
struct Broker {
    let config: ExecutionConfig
    let candles: CandleSeries
    var ledger: PositionLedger
    var log: RunLog

    var cash: Double
    /// `--size vol:`: the standard deviation of the last 20 one-bar returns at each bar.
    private let volatility: [Double]?
    /// Entries not placed because their size or price was undefined at the signal bar (a
    /// volatility, stop distance, limit or stop price that is not a positive number).
    var skippedEntries = 0
    /// Borrow fees charged on shorts so far (`chargeBorrow`).
    private(set) var borrowPaid = 0.0
    /// Funding, interest, liquidations and margin use so far (`settleOpen`, `closeAccount`).
    var account: AccountRecord
    /// The account's terms, for the bar events (`settleOpen`, `closeAccount`).
    let terms: MarginTerms

    /// The limit and stop prices of entries at each bar (nil: market entries).
    let entryPrices: EntryPrices?
    /// The limit or stop entry working now, if any.
    var working: WorkingEntry?

    init(config: ExecutionConfig, candles: CandleSeries, distances: ExitLevels.Distances = .init(),
         entryPrices: EntryPrices? = nil, pairs: SpreadPairs? = nil) {
        self.config = config
        self.entryPrices = entryPrices
        self.candles = candles
        cash = config.initialCash
        account = AccountRecord(funding: FundingSchedule(config.funding))
        terms = MarginTerms(config)
        ledger = PositionLedger(symbol: 0, candles: candles, config: config, distances: distances, pairs: pairs)
        log = RunLog(initialCash: config.initialCash, bars: candles.count)
        if case .volatility = config.sizing {
            volatility = PortfolioRules.volatility(candles.close).map { $0 / 100 }
        } else {
            volatility = nil
        }
    }

    var position: Double { ledger.quantity }
    /// True while an exit's unfilled remainder waits for the next fill bar.
    var closing: Bool { ledger.closing }
    var fills: [Fill] { log.fills }
    var trades: [Trade] { log.trades }
    var rejected: [RejectedOrder] { log.rejected }
    var ambiguousExitBars: Int { ledger.ambiguousExitBars }
    var barsWithoutVolume: Int { ledger.barsWithoutVolume }
    var liquidity: Liquidity { ledger.liquidity }
    var entryPrice: Double? { ledger.entryPrice }
    var entryIndex: Int? { ledger.trip?.entryBar }

    // MARK: - Orders

    /// Carries out `action` on bar `bar` at `reference`, taking the book as of `timeMs` (UTC ms).
    /// `signalBar` is the bar the order was decided at.
    mutating func execute(_ action: OrderAction, bar: Int, reference: Double, timeMs: Int64, signalBar: Int? = nil) {
        let point = FillPoint(bar: bar, row: bar, reference: reference, timeMs: timeMs)
        let decided = signalBar ?? (config.fill == .nextOpen ? bar - 1 : bar)
        switch action {
        case .none: break
        case .open(let side): openPosition(side, at: point, signalBar: decided, atOpen: config.fill == .nextOpen)
        case .close(let reverse):
            let side: PositionSide = position > 0 ? .long : .short
            ledger.decrease(full: true, at: point, kind: ledger.closing ? nil : .signal, cash: &cash, recorder: &log)
            if reverse && position == 0 {
                openPosition(side == .long ? .short : .long, at: point, signalBar: decided, atOpen: config.fill == .nextOpen)
            }
        }
    }

    /// Closes the whole position at `reference` on `bar` (a time exit), the book as of `timeMs`.
    mutating func exitAll(bar: Int, reference: Double, timeMs: Int64, kind: ExitKind) {
        ledger.decrease(full: true, at: FillPoint(bar: bar, row: bar, reference: reference, timeMs: timeMs), kind: kind,
                        cash: &cash, recorder: &log)
    }

    /// Opens a position (or adds to one) sized by `config.sizing`, after lot, minimum-notional
    /// and participation rules; `atOpen`: the fill is at the bar's open. Sizes are notional, in
    /// the account's currency (`ContractValue`: the coin for inverse contracts).
    mutating func openPosition(_ side: PositionSide, at point: FillPoint, signalBar: Int, atOpen: Bool) {
        let p = point.reference, contract = ledger.contract
        // A unit's notional: multiplier × price (inverse: multiplier / price, in coins).
        let unit = contract.unitNotional(at: p)
        let equity = cash + contract.value(position, at: p)
        // Cash a buy may spend on notional so that notional + fee <= cash.
        let fees = ledger.fees, maker = point.maker
        let affordable = fees.affordableNotional(cash: cash, price: unit, maker: maker)
        var quantity: Double
        var limit: Double
        switch config.sizing {
        case .equityFraction(let share):
            let budget = share * equity
            limit = fees.affordableNotional(cash: budget, price: unit, maker: maker)
            quantity = limit / unit
        case .units(let units):
            quantity = units
            limit = .infinity
        case .cash(let amount):
            quantity = amount / unit
            limit = amount
        case .risk(let share):
            // Units whose loss at the initial stop is `share` of the equity.
            let distance = stopDistance(at: p, signalBar: signalBar)
            guard distance > 0, distance.isFinite else { skippedEntries += 1; return }
            if contract.inverse {
                // A contract loses m × |1/p − 1/stop| coins at the stop (a long's stop at or below 0: no size).
                let stop = side == .long ? p - distance : p + distance
                guard stop > 0 else { skippedEntries += 1; return }
                quantity = share * equity / (contract.multiplier * Swift.abs(1 / p - 1 / stop))
            } else {
                quantity = share * equity / (contract.multiplier * distance)
            }
            limit = .infinity
        case .volatility(let target):
            let sigma = signalBar >= 0 && signalBar < candles.count ? volatility![signalBar] : .nan
            guard sigma >= 0, sigma.isFinite else { skippedEntries += 1; return }
            let annual = sigma * config.periodsPerYear!.squareRoot()
            let share = annual > 0 ? min(1, target / annual) : 1
            let budget = share * equity
            limit = fees.affordableNotional(cash: budget, price: unit, maker: maker)
            quantity = limit / unit
        }
        var valuePositive = equity > 0
        if config.isMarginAccount {
            let cap = Self.marginCap(config, fees: fees, held: position, entryPrice: ledger.entryPrice, price: p, equity: equity, maker: maker)
            limit = min(limit, cap)
            valuePositive = valuePositive && cap > 0
        } else if side == .long {
            limit = min(limit, affordable)
        }
        ledger.increase(side, wanted: quantity, limit: limit, valuePositive: valuePositive, at: point, signalBar: signalBar,
                        atOpen: atOpen, cash: &cash, recorder: &log)
    }

    /// The distance from `price` to the initial stop-loss of an entry decided at `signalBar`
    /// (NaN when the stop's expression is undefined there).
    private func stopDistance(at price: Double, signalBar: Int) -> Double {
        switch config.exits.stopLoss {
        case .fraction(let f)?: return price * f
        case .price?:
            let values = ledger.exits.distances.stopLoss
            return values.map { signalBar >= 0 && signalBar < $0.count ? $0[signalBar] : .nan } ?? .nan
        case nil: return .nan
        }
    }

    /// Marks a still-open trade to the last close, at the end of the data.
    mutating func finishOpenTrade(lastBar: Int) {
        ledger.finishOpen(row: lastBar, lastBar: lastBar, time: candles.time[lastBar], recorder: &log)
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
        let cashScale = max(abs(config.initialCash), abs(log.ledgerCash), abs(cash))
        let quantityScale = fills.reduce(0) { max($0, $1.quantityFilled) }
        if !near(cash, log.ledgerCash, scale: cashScale) { found.append("cash \(cash) != fills' \(log.ledgerCash)") }
        if !near(position, ledger.ledgerQuantity, scale: quantityScale) {
            found.append("position \(position) != fills' \(ledger.ledgerQuantity)")
        }
        for f in fills where f.quantityFilled > f.quantityAsked * (1 + 1e-12) || f.quantityFilled > f.depthAvailable * (1 + 1e-12) {
            found.append("fill at bar \(f.index) took \(f.quantityFilled) (asked \(f.quantityAsked), depth \(f.depthAvailable))")
        }
        let equity = cash + ledger.contract.value(position, at: lastClose)
        let expected = config.initialCash + trades.reduce(0) { $0 + $1.pnl }
        if !near(equity, expected, scale: max(cashScale, abs(equity))) {
            found.append("final equity \(equity) != initial cash + trade PnL \(expected)")
        }
        #endif
        return found
    }

    // MARK: - Borrow

    /// Charges a short held at bar `bar`'s close its borrow fee (`PositionLedger.chargeBorrow`,
    /// at `config.borrowRate`), after the bar's fills. Kept out of line: the bar loops only
    /// branch to it on a short's closes.
    @inline(never)
    mutating func chargeBorrow(bar: Int) {
        let amount = ledger.chargeBorrow(bar: bar, rate: config.borrowRate, cash: &cash)
        borrowPaid += amount
        #if DEBUG
        log.ledgerCash -= amount
        #endif
    }

    // MARK: - Stops

    /// Checks the position's attached exits against bar `bar`'s range (`PositionLedger.checkLevels`).
    mutating func checkStops(bar: Int) {
        ledger.checkLevels(bar: bar, row: bar, cash: &cash, recorder: &log)
    }
}

/// The single-symbol run's record of fills, trades and rejections.
struct RunLog: ExecutionRecorder {
    var fills: [Fill] = []
    var trades: [Trade] = []
    var rejected: [RejectedOrder] = []
    #if DEBUG
    /// The cash rebuilt from the fills alone (and the borrow fees charged).
    var ledgerCash: Double
    #endif

    /// Room for a fill every 16 of the `bars` and a trade every 32 (64 and 32 at least), so a
    /// run that trades that often never copies its ledger as it grows (ma-cross 10/30 on minute
    /// bars fills every 26 bars); a run that trades more grows as arrays do.
    init(initialCash: Double, bars: Int = 0) {
        fills.reserveCapacity(max(64, bars / 16))
        trades.reserveCapacity(max(32, bars / 32))
        #if DEBUG
        ledgerCash = initialCash
        #endif
    }

    mutating func record(fill: Fill, symbol: Int, bar: Int) {
        fills.append(fill)
        #if DEBUG
        let signed = fill.side == .buy ? fill.quantityFilled : -fill.quantityFilled
        ledgerCash -= (fill.inverse ? -signed * fill.multiplier / fill.vwap : signed * fill.vwap * fill.multiplier) + fill.fee
        #endif
    }

    mutating func record(trade: Trade, symbol: Int, entryBar: Int, exitBar: Int, entries: Int, exits: Int) {
        trades.append(trade)
    }

    mutating func record(rejection: RejectedOrder, symbol: Int, bar: Int) {
        rejected.append(rejection)
    }
}
