/// A margin account's terms as the bar events read them (`ExecutionConfig`'s, copied once: small,
/// so reading them never copies the configuration).
struct MarginTerms {
    /// `perp`: the instrument pays funding (a perpetual, linear or inverse).
    let margin: Bool, perp: Bool, borrows: Bool, inverse: Bool
    let leverage: Double, maintenanceRate: Double, multiplier: Double, marginRate: Double
    let mode: MarginMode

    init(_ config: ExecutionConfig) {
        margin = config.isMarginAccount; perp = config.instrument.paysFunding; borrows = config.borrowBps > 0
        inverse = config.instrument.isInverse
        leverage = config.leverage; maintenanceRate = config.maintenanceRate; multiplier = config.multiplier
        marginRate = config.marginRate; mode = config.margin
    }
}

/// What a run's account did beyond its fills (docs/design/orders.md, "Margin" and "Funding"):
/// funding settled, margin interest, liquidations, and the leverage and margin it ran at.
struct AccountRecord {
    /// A perpetual's funding rows, walked bar by bar.
    var funding: FundingSchedule
    /// Funding paid net of funding received, in cash.
    var fundingPaid = 0.0
    /// Each bar's settled funding (bar, amount; negative: received), in bar order.
    var fundingFlows: [FundingFlow] = []
    /// Margin interest paid on borrowed cash.
    var interestPaid = 0.0
    var liquidations = 0
    /// The smallest backing equity / maintenance margin at a close with a position.
    var minMarginRatio = Double.infinity
    /// The bar of the liquidation after which equity was 0 or below: no order after it.
    var stoppedAt: Int?
}

extension Broker {
    /// After bar `bar`'s open fills, on the position held then: a perpetual's funding rows of the
    /// bar settled, then a margin account's liquidation check against the open and the bar's
    /// adverse extreme (before working entries and the attached exits: the exchange's, not the
    /// strategy's). Kept out of line: the order loop calls it only on a position's bars.
    ///
    /// Everything is read into locals first, from `terms`: a method or computed property of the
    /// broker (or its ledger) called beside a mutation of it copies the whole broker.
    @inline(never)
    mutating func settleOpen(bar: Int) {
        let q = ledger.quantity
        if terms.perp {
            let amount = ledger.settleFunding(bar: bar, schedule: &account.funding, cash: &cash)
            account.fundingPaid += amount
            if amount != 0 { account.fundingFlows.append(FundingFlow(bar: bar, amount: amount)) }
            #if DEBUG
            log.ledgerCash -= amount
            #endif
        }
        guard terms.margin, q != 0, let entry = ledger.trip?.entryPrice else { return }
        let level = terms.inverse
            ? LiquidationPrice(inverseQuantity: q * terms.multiplier, cash: cash, entryPrice: entry, leverage: terms.leverage,
                               maintenanceRate: terms.maintenanceRate, mode: terms.mode)
            : LiquidationPrice(quantity: q * terms.multiplier, cash: cash, entryPrice: entry, leverage: terms.leverage,
                               maintenanceRate: terms.maintenanceRate, mode: terms.mode)
        guard let price = level.fill(long: q > 0, open: candles.open[bar], high: candles.high[bar], low: candles.low[bar]) else { return }
        ledger.liquidate(at: price, bar: bar, cash: &cash, recorder: &log)
        working = nil
        account.liquidations += 1
        if cash <= 0 { account.stoppedAt = bar }
    }

    /// At bar `bar`'s close, after its fills, on the position held then: a spot short's borrow,
    /// margin interest on cash below 0, and the margin ratio at the close.
    @inline(never)
    mutating func closeAccount(bar: Int) {
        let q = ledger.quantity
        if terms.borrows && q < 0 { chargeBorrow(bar: bar) }
        if terms.marginRate > 0 {
            let amount = ledger.chargeInterest(bar: bar, rate: terms.marginRate, cash: &cash)
            account.interestPaid += amount
            #if DEBUG
            log.ledgerCash -= amount
            #endif
        }
        guard terms.margin, q != 0, terms.maintenanceRate > 0, let entry = ledger.trip?.entryPrice else { return }
        let ratio = terms.inverse
            ? LiquidationPrice.inverseMarginRatio(quantity: q * terms.multiplier, cash: cash, entryPrice: entry, price: candles.close[bar],
                                                  leverage: terms.leverage, maintenanceRate: terms.maintenanceRate, mode: terms.mode)
            : LiquidationPrice.marginRatio(quantity: q * terms.multiplier, cash: cash, entryPrice: entry, price: candles.close[bar],
                                           leverage: terms.leverage, maintenanceRate: terms.maintenanceRate, mode: terms.mode)
        account.minMarginRatio = min(account.minMarginRatio, ratio)
    }

    /// The cap on an opening order's notional in a margin account: its notional plus its fee at
    /// most leverage × the free margin, equity at `price` less the initial margin of `held` units
    /// bought at `entryPrice` on average (their notional there / leverage; inverse, in coins).
    /// Static, so the caller's broker is not copied to call it.
    static func marginCap(_ config: ExecutionConfig, fees: FeeSchedule, held: Double, entryPrice: Double?, price: Double,
                          equity: Double, maker: Bool) -> Double {
        let contract = ContractValue(config)
        return marginCap(leverage: config.leverage, unitNotional: contract.unitNotional(at: price), fees: fees,
                         used: initialMargin(held: held, multiplier: config.multiplier, entryPrice: entryPrice,
                                             leverage: config.leverage, inverse: contract.inverse),
                         equity: equity, maker: maker)
    }

    /// The initial margin of `held` units (contracts of `multiplier`) bought at `entryPrice` on
    /// average: their notional there / leverage, |held| × multiplier × entry / leverage (0
    /// without an entry price); inverse, in coins: |held| × multiplier / entry / leverage.
    static func initialMargin(held: Double, multiplier: Double, entryPrice: Double?, leverage: Double, inverse: Bool = false) -> Double {
        if inverse { return held == 0 ? 0 : Swift.abs(held) * multiplier / (entryPrice ?? .nan) / leverage }
        return Swift.abs(held) * multiplier * (entryPrice ?? 0) / leverage
    }

    /// The cap on an opening order's notional when margin `used` is already taken from `equity`
    /// (a portfolio's: the sum over its positions): its notional plus its fee at most leverage ×
    /// (equity − used), one unit being worth `unitNotional` (`ContractValue.unitNotional`).
    static func marginCap(leverage: Double, unitNotional: Double, fees: FeeSchedule, used: Double,
                          equity: Double, maker: Bool) -> Double {
        let free = equity - used
        guard free > 0 else { return 0 }
        return fees.affordableNotional(cash: leverage * free, price: unitNotional, maker: maker)
    }
}

extension Engine {
    /// A perpetual run without funding rows in its bars (funding not charged), and an account
    /// that stopped trading after a liquidation took its equity.
    static func accountWarnings(_ broker: Broker, candles: CandleSeries, config: ExecutionConfig) -> [RunWarning] {
        var out: [RunWarning] = []
        if config.instrument.paysFunding, let warning = RunWarning.noFunding(candles, schedule: broker.account.funding) { out.append(warning) }
        if let bar = broker.account.stoppedAt { out.append(.accountStopped(at: candles.time[bar])) }
        return out
    }
}

extension RunWarning {
    /// A perpetual's `candles` without a funding row of `schedule` in their bars: funding was
    /// not charged. nil when there is one (or no bar).
    static func noFunding(_ candles: CandleSeries, schedule: FundingSchedule) -> RunWarning? {
        guard let first = candles.time.first, let last = candles.time.last,
              schedule.count(from: first &* 1000, to: PositionLedger.barEndMs(candles.count - 1, time: candles.time, timeframe: candles.timeframe)) == 0
        else { return nil }
        let name = candles.symbol.isEmpty ? "the symbol" : candles.symbol
        return RunWarning(.noFunding, "no funding rows for \(name) between \(UTCTime.iso(first)) and \(UTCTime.iso(last)): "
            + "funding not charged (import them with bt data import FILE --format funding, or fetch them)")
    }

    /// Equity was 0 or below after the liquidation at `time` (seconds): no more orders.
    static func accountStopped(at time: Int64) -> RunWarning {
        RunWarning(.accountStopped, "equity was 0 or below after the liquidation at \(UTCTime.iso(time)): the account stopped trading there")
    }
}
