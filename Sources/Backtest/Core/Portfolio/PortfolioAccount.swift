/// A portfolio's margin account and carrying costs (docs/guide/screens-and-portfolios.md,
/// "Margin and shorts"), on the single-run account's code: each symbol's position funds,
/// borrows and is liquidated through its `PositionLedger` (`settleFunding`, `chargeBorrow`,
/// `chargeInterest`, `liquidate`), at the prices `LiquidationPrice` gives.
///
/// - **Cross** (the default): the account's equity backs every position. On a row, after its
///   open fills, the account is liquidated (every position closed) when its equity falls below
///   the sum of the positions' maintenance margins, mmr × |quantity| × multiplier × price, with
///   each symbol valued at its own bar's adverse extreme (the low for a long, the high for a
///   short; a symbol without a bar at the row at its last close): all extremes at once, the
///   worst any path through the bar can reach. The positions close where every symbol, moving
///   together from its open to that extreme, first brings equity to maintenance
///   (`LiquidationPrice.crossFraction`), or at their opens when the row opens below it. One
///   position alone: at its liquidation price (the closed form `bt run` uses).
/// - **Isolated**: each position is backed by its own initial margin and checked alone at its
///   bar's adverse extreme, at its own liquidation price, as in `bt run`.
/// - Funding is settled per perpetual symbol from its own rows, on its own bars, after the open;
///   borrow per spot short at its close for its bar; margin interest on cash below 0 at each
///   row's close for the row's duration, shared among the positions by their value.
/// - Equity falling to 0 or below after a liquidation closes what is left and stops the
///   account: no more orders.
struct PortfolioAccount {
    /// Each symbol's maintenance rate, and whether it is a perpetual (funding, linear or inverse).
    let maintenanceRates: [Double]
    let perp: [Bool]
    let margin: Bool
    let leverage: Double
    let mode: MarginMode
    let marginRate: Double
    let borrowRate: Double
    /// The clock's times and timeframe, for the rows' durations (margin interest).
    let time: [Int64]
    let timeframe: Timeframe?
    /// Each perpetual's funding rows, walked on its bars.
    var funding: [FundingSchedule]
    /// Funding, interest, liquidations, the smallest margin ratio and the row trading stopped
    /// (`AccountRecord`'s own `funding` is unused: `funding` holds one per symbol).
    var record = AccountRecord(funding: FundingSchedule([]))
    var borrowPaid = 0.0

    init(_ configs: [ExecutionConfig], leverage: Double, mode: MarginMode, marginRate: Double, borrowRate: Double,
         clock: PortfolioClock, timeframe: Timeframe?) {
        maintenanceRates = configs.map(\.maintenanceRate)
        perp = configs.map(\.instrument.paysFunding)
        margin = configs.contains(where: \.isMarginAccount)
        self.leverage = leverage
        self.mode = mode
        self.marginRate = marginRate
        self.borrowRate = borrowRate
        time = clock.time
        self.timeframe = timeframe ?? Timeframe.infer(from: clock.time)
        funding = configs.map { FundingSchedule($0.funding) }
    }

    var stoppedAt: Int? { record.stoppedAt }
}

extension ExecutionConfig {
    /// The configuration a portfolio's symbol trades under: the portfolio's, with the symbol's
    /// own instrument from `own` (its run's configuration: the settings stored with its series,
    /// the command line's over them): kind, multiplier, maintenance rate, tick, lot, funding
    /// rows and fee schedule (taker and maker rates, per unit, minimum, cap: a venue charges
    /// each contract its own). Leverage, margin mode, rates and sizing stay the portfolio's
    /// (one account).
    func trading(_ own: ExecutionConfig?) -> ExecutionConfig {
        guard let own else { return self }
        var c = self
        c.instrument = own.instrument
        c.multiplier = own.multiplier
        c.mmr = own.mmr
        c.funding = own.funding
        c.tick = own.tick
        c.lot = own.lot
        (c.feeBps, c.makerBps, c.feePerUnit, c.feeMin, c.feeMax) = (own.feeBps, own.makerBps, own.feePerUnit, own.feeMin, own.feeMax)
        return c
    }
}

extension PortfolioSimulation {
    /// The price symbol `j` (advanced to `t`) is worth now: its open with a bar at `t`, else its
    /// last close.
    @inline(__always)
    func openPrice(_ j: Int, _ t: Int64) -> Double {
        let c = state[j].cursor
        return hasBar(j, t) ? candles[j].open[c] : candles[j].close[c - 1]
    }

    /// The initial margin the positions hold: Σ |quantity| × multiplier × average entry / leverage.
    func usedMargin() -> Double {
        var used = 0.0
        for j in active where ledgers[j].quantity != 0 {
            used += Broker.initialMargin(held: ledgers[j].quantity, multiplier: multipliers[j], entryPrice: ledgers[j].entryPrice,
                                         leverage: config.leverage, inverse: contracts[j].inverse)
        }
        return used
    }

    /// After row `r`'s open fills: every perpetual's funding rows of its bar, then the margin
    /// check (cross or isolated), before working entries and the attached exits (the
    /// exchange's, not the strategy's). With next-open fills, time exits due at the open go
    /// first, as `bt run` orders them.
    mutating func settleOpen(_ r: Int, _ t: Int64) {
        if nextOpen && config.exits.exitAfterBars != nil { timeExitsAtOpen(r, t) }
        for j in active where ledgers[j].quantity != 0 && hasBar(j, t) && account!.perp[j] {
            let bar = state[j].cursor
            let amount = ledgers[j].settleFunding(bar: bar, schedule: &account!.funding[j], cash: &cash)
            account!.record.fundingPaid += amount
            if amount != 0 { account!.record.fundingFlows.append(FundingFlow(bar: r, amount: amount)) }
            log.record(charge: amount)
        }
        guard account!.margin, !active.isEmpty else { return }
        let before = account!.record.liquidations
        if account!.mode == .isolated { liquidateIsolated(r, t) } else { liquidateCross(r, t) }
        guard account!.record.liquidations > before else { return }
        var equity = cash
        for j in active where ledgers[j].quantity != 0 { equity += value(j, ledgers[j].quantity, at: openPrice(j, t)) }
        if equity <= 0 {
            // What is left closes at its open, and the account stops.
            for j in active where ledgers[j].quantity != 0 { liquidate(j, at: openPrice(j, t), r, t) }
            account!.record.stoppedAt = r
        }
        removeFlatFromActive()
    }

    /// Isolated margin: each position with a bar at its own liquidation price (`bt run`'s).
    private mutating func liquidateIsolated(_ r: Int, _ t: Int64) {
        for j in active where ledgers[j].quantity != 0 && hasBar(j, t) {
            guard let fill = liquidationFill(j, t, cash: cash, mode: .isolated) else { continue }
            liquidate(j, at: fill, r, t)
        }
    }

    /// Cross margin: one position alone at its liquidation price; several where the account's
    /// equity, every symbol moving from its open to its adverse extreme, meets maintenance.
    private mutating func liquidateCross(_ r: Int, _ t: Int64) {
        var held = 0, only = 0
        for j in active where ledgers[j].quantity != 0 && ledgers[j].trip != nil { held += 1; only = j }
        if held == 1 {
            if hasBar(only, t), let fill = liquidationFill(only, t, cash: cash, mode: .cross) { liquidate(only, at: fill, r, t) }
            return
        }
        guard held > 1 else { return }
        if contracts[only].inverse {
            liquidateCrossInverse(r, t)
            return
        }
        var f0 = cash, f1 = cash
        for j in active where ledgers[j].quantity != 0 {
            let q = ledgers[j].quantity * multipliers[j]
            let a = q - account!.maintenanceRates[j] * Swift.abs(q)
            let (start, extreme) = path(j, t)
            f0 += a * start
            f1 += a * extreme
        }
        guard let lambda = LiquidationPrice.crossFraction(atStart: f0, atExtreme: f1) else { return }
        for j in active where ledgers[j].quantity != 0 {
            let (start, extreme) = path(j, t)
            liquidate(j, at: start + lambda * (extreme - start), r, t)
        }
    }

    /// Cross margin over several inverse contracts (every symbol's, in the one coin): equity less
    /// maintenance, cash − Σ q m (1 ± mmr) / p (+ mmr for a long, − for a short), is not linear in
    /// the prices but falls strictly as every symbol moves from its open toward its adverse
    /// extreme, so the fraction λ of the way where it reaches 0 is found by bisection (to the
    /// last bit of λ); 0 when it is already below at the opens.
    private mutating func liquidateCrossInverse(_ r: Int, _ t: Int64) {
        func backing(_ lambda: Double) -> Double {
            var f = cash
            for j in active where ledgers[j].quantity != 0 {
                let q = ledgers[j].quantity * multipliers[j], (start, extreme) = path(j, t)
                f -= (q + account!.maintenanceRates[j] * Swift.abs(q)) / (start + lambda * (extreme - start))
            }
            return f
        }
        guard backing(1) < 0 else { return }
        var lambda = 0.0
        if backing(0) >= 0 {
            var (low, high) = (0.0, 1.0)
            while true {
                let mid = (low + high) / 2
                guard mid > low && mid < high else { break }
                if backing(mid) >= 0 { low = mid } else { high = mid }
            }
            lambda = high
        }
        for j in active where ledgers[j].quantity != 0 {
            let (start, extreme) = path(j, t)
            liquidate(j, at: start + lambda * (extreme - start), r, t)
        }
    }

    /// Symbol `j`'s open and adverse extreme at `t` (its last close twice without a bar).
    private func path(_ j: Int, _ t: Int64) -> (start: Double, extreme: Double) {
        guard hasBar(j, t) else { let p = openPrice(j, t); return (p, p) }
        let c = state[j].cursor, long = ledgers[j].quantity > 0
        return (candles[j].open[c], long ? candles[j].low[c] : candles[j].high[c])
    }

    /// Where symbol `j`'s position alone is liquidated on its bar at `t`, backed as `mode` says
    /// (`LiquidationPrice`); nil when the bar does not reach it.
    private func liquidationFill(_ j: Int, _ t: Int64, cash: Double, mode: MarginMode) -> Double? {
        guard let entry = ledgers[j].entryPrice else { return nil }
        let q = ledgers[j].quantity, c = state[j].cursor, bars = candles[j]
        let level = contracts[j].inverse
            ? LiquidationPrice(inverseQuantity: q * multipliers[j], cash: cash, entryPrice: entry, leverage: config.leverage,
                               maintenanceRate: account!.maintenanceRates[j], mode: mode)
            : LiquidationPrice(quantity: q * multipliers[j], cash: cash, entryPrice: entry, leverage: config.leverage,
                               maintenanceRate: account!.maintenanceRates[j], mode: mode)
        return level.fill(long: q > 0, open: bars.open[c], high: bars.high[c], low: bars.low[c])
    }

    /// Closes symbol `j` as the exchange does (`PositionLedger.liquidate`) at `price`, on its bar
    /// at `t` (its last bar without one), freeing its slot.
    private mutating func liquidate(_ j: Int, at price: Double, _ r: Int, _ t: Int64) {
        let bar = hasBar(j, t) ? state[j].cursor : state[j].cursor - 1
        ledgers[j].liquidate(at: price, bar: bar, row: r, cash: &cash, recorder: &log)
        account!.record.liquidations += 1
        if !working.isEmpty { working[j] = nil }
        if !ruleExits.isEmpty { ruleExits[j] = false }
        release(j)
    }

    /// At row `r`'s close, after its fills: each spot short's borrow on its bar, margin interest
    /// on cash below 0 for the row (shared by the positions' values), and the margin ratio.
    mutating func closeRow(_ r: Int, _ t: Int64) {
        guard !active.isEmpty else { return }
        if account!.borrowRate > 0 {
            for j in active where ledgers[j].quantity < 0 && hasBar(j, t) {
                let amount = ledgers[j].chargeBorrow(bar: state[j].cursor, rate: account!.borrowRate, cash: &cash)
                account!.borrowPaid += amount
                log.record(charge: amount)
            }
        }
        if account!.marginRate > 0 && cash < 0 {
            let years = Double(PositionLedger.barSeconds(r, time: account!.time, timeframe: account!.timeframe)) / (365 * 86_400)
            let amount = account!.marginRate * -cash * years
            if amount.isFinite && amount > 0 {
                var total = 0.0
                for j in active where ledgers[j].trip != nil { total += Swift.abs(value(j, ledgers[j].quantity, at: closePrice(j, t))) }
                for j in active where ledgers[j].trip != nil && total > 0 {
                    let share = amount * (Swift.abs(value(j, ledgers[j].quantity, at: closePrice(j, t))) / total)
                    ledgers[j].chargeInterest(share, cash: &cash)
                    account!.record.interestPaid += share
                    log.record(charge: share)
                }
            }
        }
        guard account!.margin else { return }
        var backing = cash, maintenance = 0.0, smallest = Double.infinity
        for j in active where ledgers[j].quantity != 0 {
            guard let entry = ledgers[j].entryPrice else { continue }
            let q = ledgers[j].quantity * multipliers[j], p = closePrice(j, t), mmr = account!.maintenanceRates[j]
            let inverse = contracts[j].inverse
            backing += inverse ? -q / p : q * p
            maintenance += inverse ? mmr * Swift.abs(q) / p : mmr * Swift.abs(q) * p
            if account!.mode == .isolated && mmr > 0 && hasBar(j, t) {
                smallest = min(smallest, inverse
                    ? LiquidationPrice.inverseMarginRatio(quantity: q, cash: cash, entryPrice: entry, price: p,
                                                          leverage: config.leverage, maintenanceRate: mmr, mode: .isolated)
                    : LiquidationPrice.marginRatio(quantity: q, cash: cash, entryPrice: entry, price: p,
                                                   leverage: config.leverage, maintenanceRate: mmr, mode: .isolated))
            }
        }
        if account!.mode == .cross && maintenance > 0 { smallest = backing / maintenance }
        account!.record.minMarginRatio = min(account!.record.minMarginRatio, smallest)
    }

    /// Symbol `j`'s close at `t`, or its last close without a bar.
    @inline(__always)
    func closePrice(_ j: Int, _ t: Int64) -> Double {
        let c = state[j].cursor
        return hasBar(j, t) ? candles[j].close[c] : candles[j].close[c - 1]
    }

    /// With next-open fills: the time exits due at the open, before the margin check (`bt run`'s order).
    private mutating func timeExitsAtOpen(_ r: Int, _ t: Int64) {
        var closed = false
        for j in active where hasBar(j, t) && ledgers[j].quantity != 0 && !ledgers[j].closing {
            let bar = state[j].cursor
            guard ledgers[j].timeExitDue(bar) else { continue }
            sell(j, full: true, at: FillPoint(bar: bar, row: r, reference: candles[j].open[bar], timeMs: candles[j].time[bar] &* 1000),
                 kind: .time)
            release(j)
            closed = true
        }
        if closed { removeFlatFromActive() }
    }

    /// The account's part of the result: the summary (nil for a cash account) and the borrow
    /// (nil without a borrow rate).
    func accountSummary() -> (summary: AccountSummary?, borrow: Double?) {
        guard let account else { return (nil, config.borrowBps > 0 ? 0 : nil) }
        var summary: AccountSummary?
        if account.margin {
            var c = ledgers.first?.config ?? config
            c.leverage = config.leverage
            c.margin = config.margin
            // An inverse account's coin is named from the first symbol (they all settle in it).
            summary = AccountSummary(account.record, config: c, symbol: candles.first?.symbol ?? "")
            let own = ledgers.indices.map { j in
                AccountSummary.SymbolInstrument(symbol: candles[j].symbol, instrument: ledgers[j].config.instrument,
                                                multiplier: ledgers[j].config.multiplier, maintenanceRate: ledgers[j].config.maintenanceRate)
            }
            if own.contains(where: { ($0.instrument, $0.multiplier, $0.maintenanceRate) != (c.instrument, c.multiplier, c.maintenanceRate) }) {
                summary?.symbols = own
            }
        }
        return (summary, config.borrowBps > 0 ? account.borrowPaid : nil)
    }

    /// The account's warnings: a perpetual symbol without funding rows in its bars, and an
    /// account that stopped trading after a liquidation.
    func accountWarnings() -> [RunWarning] {
        guard let account else { return [] }
        var out: [RunWarning] = []
        for j in candles.indices where account.perp[j] {
            if let w = RunWarning.noFunding(candles[j], schedule: account.funding[j]) { out.append(w) }
        }
        if let r = account.stoppedAt { out.append(.accountStopped(at: clock.time[r])) }
        return out
    }
}
