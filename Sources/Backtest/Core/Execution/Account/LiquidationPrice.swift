/// Where a margin account's position is liquidated: the price at which its backing equity equals
/// its maintenance margin, mmr × |quantity| × price (docs/design/orders.md, "Margin").
///
/// Backing equity at price P: cross, the account's, cash + q × P; isolated, the position's margin
/// plus its unrealised PnL, |q| × Ē / L + q × (P − Ē), with Ē the average entry price and L the
/// leverage. Solving backing = maintenance for P gives the closed forms below (a long's price
/// at or below 0 means it cannot be liquidated).
///
/// Inverse contracts (`ContractValue`, in the coin; q contracts × multiplier, the quote units
/// held): cross backing cash − q / P, maintenance mmr × |q| / P, so a long is liquidated at
/// q (1 + mmr) / cash and a short at |q| (1 − mmr) / −cash (+∞, never, when the cash pays for
/// the position: a short at leverage 1). Isolated backing |q| / (Ē L) + q (1/Ē − 1/P), Ē the
/// harmonic mean entry: a long at Ē (1 + mmr) / (1 + 1/L), a short at Ē (1 − mmr) / (1 − 1/L).
/// These are Binance COIN-M's one-way formula (its "Liquidation Price" FAQ) with one
/// maintenance tier and no maintenance amount: LP = (|q|·mmr + side·q) / (WB + side·|q|/Ē),
/// WB the position's wallet balance (isolated: its margin |q| / (Ē L)).
struct LiquidationPrice {
    /// The price; `.nan` when there is no position.
    let price: Double

    /// - Parameters:
    ///   - quantity: units held, positive long, negative short (not 0).
    ///   - cash: the account's cash (cross margin).
    ///   - entryPrice: the position's average entry price (isolated margin).
    init(quantity q: Double, cash: Double, entryPrice: Double, leverage: Double, maintenanceRate mmr: Double, mode: MarginMode) {
        switch (mode, q > 0) {
        case (.cross, true): price = -cash / (q * (1 - mmr))
        case (.cross, false): price = cash / (-q * (1 + mmr))
        case (.isolated, true): price = entryPrice * (1 - 1 / leverage) / (1 - mmr)
        case (.isolated, false): price = entryPrice * (1 + 1 / leverage) / (1 + mmr)
        }
    }

    /// The backing equity over the maintenance margin at `price` (below 1: liquidated there);
    /// infinite when the maintenance rate is 0.
    static func marginRatio(quantity q: Double, cash: Double, entryPrice: Double, price: Double, leverage: Double,
                            maintenanceRate mmr: Double, mode: MarginMode) -> Double {
        let backing = mode == .cross ? cash + q * price : Swift.abs(q) * entryPrice / leverage + q * (price - entryPrice)
        return backing / (mmr * Swift.abs(q) * price)
    }

    /// An inverse contract's: `quantity` in quote units (contracts × multiplier), `cash` in the
    /// coin, `entryPrice` the harmonic mean (the closed forms above; +∞ where it cannot be
    /// liquidated, a long whose cash cannot back it at any price aside).
    init(inverseQuantity q: Double, cash: Double, entryPrice: Double, leverage: Double, maintenanceRate mmr: Double, mode: MarginMode) {
        switch (mode, q > 0) {
        case (.cross, true): price = cash > 0 ? q * (1 + mmr) / cash : .infinity
        case (.cross, false): price = cash < 0 ? -q * (1 - mmr) / -cash : .infinity
        case (.isolated, true): price = entryPrice * (1 + mmr) / (1 + 1 / leverage)
        case (.isolated, false): price = leverage > 1 ? entryPrice * (1 - mmr) / (1 - 1 / leverage) : .infinity
        }
    }

    /// `marginRatio` of an inverse contract's position (quote units, cash in the coin).
    static func inverseMarginRatio(quantity q: Double, cash: Double, entryPrice: Double, price: Double, leverage: Double,
                                   maintenanceRate mmr: Double, mode: MarginMode) -> Double {
        let backing = mode == .cross ? cash - q / price : Swift.abs(q) / (entryPrice * leverage) + q * (1 / entryPrice - 1 / price)
        return backing / (mmr * Swift.abs(q) / price)
    }

    /// The fill price of a liquidation on a bar with `open`, `high` and `low`, or nil when the
    /// bar does not reach the liquidation price: the open when it is already beyond it (a gap),
    /// else the liquidation price when the bar's adverse extreme passes it.
    func fill(long: Bool, open: Double, high: Double, low: Double) -> Double? {
        if long {
            guard price > 0 else { return nil }
            // An inverse long whose cash cannot back it at any price (+∞) is liquidated at the open.
            if open < price { return open }
            return low < price ? price : nil
        }
        if open > price { return open }
        return high > price ? price : nil
    }
}

extension LiquidationPrice {
    /// Where a cross-margin account of several positions is liquidated on one bar (a portfolio's
    /// account), as a fraction λ of the way from every position's start price o (the bar's open;
    /// the last close for a symbol without a bar) to its adverse extreme x (the low for a long,
    /// the high for a short; o again without a bar), all moving together: p(λ) = o + λ (x − o).
    ///
    /// Backing equity less maintenance, cash + Σ q × p − Σ mmr × |q| × p, is linear in λ, so with
    /// `atStart` its value at λ = 0 and `atExtreme` at λ = 1: 0 when it is already below 0 at the
    /// start (a gap: every position closes at o), f(0) / (f(0) − f(1)) when it falls below 0 by
    /// the extremes, nil when it does not. Checking every symbol at its own adverse extreme at
    /// once is conservative: no bar's path can be worse. For one position it is the closed form
    /// of `init` (the price where the two are equal) and `fill`'s gap rule.
    static func crossFraction(atStart f0: Double, atExtreme f1: Double) -> Double? {
        if f0 < 0 { return 0 }
        return f1 < 0 ? f0 / (f0 - f1) : nil
    }
}
