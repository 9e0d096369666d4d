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
    @inline(never)
    mutating func settleOpen(bar: Int) {
        if config.instrument == .perp {
            let amount = account.funding.settle(quantity: position, startMs: candles.time[bar] &* 1000, endMs: ledger.barEndMs(bar),
                                                lastClose: bar > 0 ? candles.close[bar - 1] : .nan)
            ledger.chargeFunding(amount, cash: &cash)
            account.fundingPaid += amount
            if amount != 0 { account.fundingFlows.append(FundingFlow(bar: bar, amount: amount)) }
            #if DEBUG
            log.ledgerCash -= amount
            #endif
        }
        guard config.isMarginAccount, let level = ledger.liquidationPrice(cash: cash),
              let price = level.fill(long: position > 0, open: candles.open[bar], high: candles.high[bar], low: candles.low[bar])
        else { return }
        ledger.liquidate(at: price, bar: bar, cash: &cash, recorder: &log)
        working = nil
        account.liquidations += 1
        if cash <= 0 { account.stoppedAt = bar }
    }

    /// At bar `bar`'s close, after its fills, on the position held then: a spot short's borrow,
    /// margin interest on cash below 0, and the margin ratio at the close.
    @inline(never)
    mutating func closeAccount(bar: Int) {
        if config.borrowBps > 0 && position < 0 { chargeBorrow(bar: bar) }
        if config.marginRate > 0 {
            let amount = ledger.chargeInterest(bar: bar, rate: config.marginRate, cash: &cash)
            account.interestPaid += amount
            #if DEBUG
            log.ledgerCash -= amount
            #endif
        }
        guard config.isMarginAccount, position != 0 else { return }
        if let ratio = ledger.marginRatio(cash: cash, price: candles.close[bar]) { account.minMarginRatio = min(account.minMarginRatio, ratio) }
    }

    /// The cap on an opening order's notional in a margin account: its notional plus its fee at
    /// most leverage × the free margin, equity at `price` less the initial margin of the position
    /// already held (nil for a cash account, whose buys the cash caps).
    func marginCap(price: Double, equity: Double, maker: Bool) -> Double? {
        guard config.isMarginAccount else { return nil }
        let used = Swift.abs(position) * (ledger.entryPrice ?? 0) / config.leverage
        let free = equity - used
        guard free > 0 else { return 0 }
        return ledger.fees.affordableNotional(cash: config.leverage * free, price: price, maker: maker)
    }
}

extension Engine {
    /// A perpetual run without funding rows in its bars (funding not charged), and an account
    /// that stopped trading after a liquidation took its equity.
    static func accountWarnings(_ broker: Broker, candles: CandleSeries, config: ExecutionConfig) -> [RunWarning] {
        var out: [RunWarning] = []
        if config.instrument == .perp, let first = candles.time.first, let last = candles.time.last,
           broker.account.funding.count(from: first &* 1000, to: broker.ledger.barEndMs(candles.count - 1)) == 0 {
            let name = candles.symbol.isEmpty ? "the symbol" : candles.symbol
            out.append(RunWarning(.noFunding, "no funding rows for \(name) between \(UTCTime.iso(first)) and \(UTCTime.iso(last)): "
                + "funding not charged (import them with bt data import FILE --format funding, or fetch them)"))
        }
        if let bar = broker.account.stoppedAt {
            out.append(RunWarning(.accountStopped, "equity was 0 or below after the liquidation at \(UTCTime.iso(candles.time[bar])): "
                + "the account stopped trading there"))
        }
        return out
    }
}
