/// A margin account's events on the position (docs/design/orders.md, "Margin" and "Funding"):
/// liquidation, margin interest and funding, each charged to the round trip so its PnL pays it.
extension PositionLedger {
    /// Closes the whole position at `price` on bar `bar` as the exchange does: no spread, impact,
    /// participation cap or book, a fee of `liq_fee_bps` of the notional instead of the trading
    /// fee, the trade ending as `liquidation`. A remainder of an exit in progress is dropped with it.
    /// `row`: the driver's row of the bar (a portfolio's clock; nil: the bar itself).
    mutating func liquidate<R: ExecutionRecorder>(at price: Double, bar: Int, row: Int? = nil, cash: inout Double, recorder: inout R) {
        guard quantity != 0, trip != nil else { return }
        let q = Swift.abs(quantity), long = quantity > 0
        let tripNotional = inverse ? q / price : q * price
        let notional = tripNotional * multiplier
        let paid = notional * config.liqFeeBps / 10_000
        // Inverse: closing a long pays the contracts' coins back (`ContractValue`).
        cash += long != inverse ? notional - paid : -(notional + paid)
        quantity = 0
        let book = BookFill(quantityAsked: q, quantityFilled: q, notional: q * price, levelsWalked: 0, worstPrice: price, depthAvailable: q)
        _ = record(long ? .sell : .buy, book: book, fee: paid,
                   at: FillPoint(bar: bar, row: row ?? bar, reference: price, timeMs: candles.time[bar] &* 1000), &recorder)
        trip!.addExit(quantity: q, notional: tripNotional, fee: paid, slippage: 0)
        finish(row: row ?? bar, exitBar: bar, exitTime: candles.time[bar], markPrice: nil, kind: .liquidation, &recorder)
        closing = false
    }

    /// Charges margin interest at annual `rate` on cash below 0 at bar `bar`'s close, for the
    /// bar's calendar time (`borrowYears`), to cash and the round trip. Returns what was charged
    /// (0 with cash at or above 0, or no position).
    mutating func chargeInterest(bar: Int, rate: Double, cash: inout Double) -> Double {
        guard cash < 0, trip != nil else { return 0 }
        let amount = rate * -cash * borrowYears(bar)
        guard amount.isFinite, amount > 0 else { return 0 }
        chargeInterest(amount, cash: &cash)
        return amount
    }

    /// Charges `amount` of margin interest to cash and the round trip (a portfolio's share of
    /// the account's interest: `PortfolioAccount.closeRow`).
    mutating func chargeInterest(_ amount: Double, cash: inout Double) {
        guard amount != 0, trip != nil else { return }
        cash -= amount
        charges.interest += amount
    }

    /// Settles a perpetual's funding rows of bar `bar` (those in [its open, its end)) on the
    /// position held after the bar's open fills, each at its mark, else at the close before the
    /// bar (`FundingSchedule.settle`), charged to cash and the round trip. Returns the amount
    /// (negative: received).
    @inline(__always)  // the bar loop's hot path: inlined, it copies nothing (engine_perp)
    mutating func settleFunding(bar: Int, schedule: inout FundingSchedule, cash: inout Double) -> Double {
        let start = candles.time[bar] &* 1000
        let end = Self.barEndMs(bar, time: candles.time, timeframe: candles.timeframe)
        let last = bar > 0 ? candles.close[bar - 1] : .nan
        let amount = schedule.settle(quantity: quantity * multiplier, startMs: start, endMs: end, lastClose: last, inverse: inverse)
        chargeFunding(amount, cash: &cash)
        return amount
    }

    /// Charges `amount` of funding (negative: received) to cash and the round trip.
    mutating func chargeFunding(_ amount: Double, cash: inout Double) {
        guard amount != 0, trip != nil else { return }
        cash -= amount
        charges.funding += amount
    }

    /// The end of bar `bar` of bars opening at `time` (seconds), in UTC ms: its open plus its
    /// duration as borrow counts it (`barSeconds`: the next bar's open time, for all but the last).
    static func barEndMs(_ bar: Int, time: [Int64], timeframe: Timeframe?) -> Int64 {
        if bar + 1 < time.count { return time[bar + 1] &* 1000 }  // every bar but the last, on a position's bars
        return (time[bar] &+ barSeconds(bar, time: time, timeframe: timeframe)) &* 1000
    }
}
