extension ExecutionConfig {
    /// Checks that `candles` can be traded as the instrument: an inverse contract is worth
    /// multiplier / price coins, so every open, high, low and close must be above 0.
    func validatePrices(_ candles: CandleSeries) throws {
        guard instrument.isInverse else { return }
        for (name, column) in [("open", candles.open), ("high", candles.high), ("low", candles.low), ("close", candles.close)] {
            if let i = column.firstIndex(where: { !($0 > 0) }) {
                let symbol = candles.symbol.isEmpty ? "the series" : candles.symbol
                throw InputError("an inverse-perp is worth multiplier / price coins, so its prices must be above 0: \(symbol)'s \(name) "
                                 + "at \(UTCTime.iso(candles.time[i])) is \(NumberText.shortest(column[i]))",
                                 setting: .instrument, value: instrument.rawValue)
            }
        }
    }

    /// True when a position's bars have events beyond its fills: a spot short's borrow, margin
    /// interest, a perpetual's funding, a margin account's liquidation check.
    var hasAccountEvents: Bool { borrowBps > 0 || isMarginAccount || marginRate > 0 }

    /// The largest `marginRate`: 1000% a year, as for borrow.
    public static let largestMarginRate = 10.0

    /// Checks the account's settings (docs/design/orders.md, "Margin"): leverage in 1...125, a
    /// maintenance rate in [0, 1 / leverage) (at or above it every position would be liquidated
    /// as it opens), a liquidation fee in [0, 10000) bps, a margin rate in [0, 1000%] a year;
    /// borrow and margin interest on spot only (a perpetual pays funding instead, a future
    /// neither), funding rows on a perpetual only, no per-unit fee on an inverse contract (its
    /// fees are in the coin: a quote currency's amount per contract has no price to convert at).
    func validateAccount() throws {
        guard leverage >= 1, leverage <= Self.largestLeverage, leverage.isFinite else {
            throw InputError("leverage must be from 1 to \(NumberText.shortest(Self.largestLeverage))", setting: .leverage,
                             value: NumberText.shortest(leverage))
        }
        let mmr = maintenanceRate
        guard mmr >= 0, mmr.isFinite else {
            throw InputError("the maintenance margin rate must be 0% or more", setting: .mmr, value: NumberText.percent(mmr))
        }
        guard mmr < 1 / leverage else {
            let given = self.mmr == nil ? " (the default for \(instrument.rawValue); give \(Setting.mmr.mention))" : ""
            throw InputError("the maintenance margin rate \(NumberText.shortest(mmr * 100))%\(given) must be below 1 / leverage = "
                             + "\(NumberText.shortest(100 / leverage))%: at or above it every position is liquidated as it opens",
                             setting: .mmr)
        }
        guard liqFeeBps >= 0, liqFeeBps < 10_000 else {
            throw InputError("liquidation fee must be in [0, 10000) basis points", setting: .liqFeeBps, value: NumberText.shortest(liqFeeBps))
        }
        guard marginRate >= 0, marginRate <= Self.largestMarginRate else {
            throw InputError("margin interest must be from 0% to 1000% a year", setting: .marginRate)
        }
        if instrument != .spot {
            if borrowBps > 0 {
                throw InputError("borrow is charged on spot shorts: a \(instrument.rawValue)'s short pays no borrow"
                                 + (instrument.paysFunding ? " (it pays or receives funding)" : ""), setting: .borrowBps)
            }
            if marginRate > 0 {
                throw InputError("margin interest is charged on spot: a \(instrument.rawValue) borrows no cash"
                                 + (instrument.paysFunding ? " (it pays or receives funding)" : ""), setting: .marginRate)
            }
        }
        guard multiplier > 0, multiplier <= 1e6, multiplier.isFinite else {
            throw InputError("the multiplier must be above 0 and at most 1e6", setting: .multiplier, value: NumberText.shortest(multiplier))
        }
        if multiplier != 1 && instrument == .spot {
            throw InputError("a multiplier sizes contracts: give \(Setting.instrument.mention) perp, future or inverse-perp (a spot unit is the asset)",
                             setting: .multiplier, value: NumberText.shortest(multiplier))
        }
        if !instrument.paysFunding && !funding.isEmpty {
            throw InputError("funding is paid on perpetuals: give \(Setting.instrument.mention) perp or inverse-perp", setting: .instrument,
                             value: instrument.rawValue)
        }
        if instrument.isInverse && feePerUnit != 0 {
            throw InputError("an inverse-perp's fees are in the coin, as basis points of the coin notional: a per-unit fee in the quote "
                             + "currency has no meaning there (give \(Setting.feeBps.mention), \(Setting.makerBps.mention) or \(Setting.feeMin.mention) in the coin)",
                             setting: .feePerUnit, value: NumberText.shortest(feePerUnit))
        }
    }
}
