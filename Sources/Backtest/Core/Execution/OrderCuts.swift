/// Entry orders filled below the size asked, counted beside the fills (whose `quantityAsked` is
/// what reached the book): by the cash or margin that could not pay the size (fixed units or
/// risk sizing; cut before the book), and by the participation cap or the book's depth.
/// An order cut by both counts once in `orders` and once under each cause.
struct OrderCuts: Equatable {
    /// Orders filled below the size asked, and the sum of their filled / asked.
    var orders = 0, share = 0.0
    /// Orders the cash or margin cut, and the sum of their affordable / asked.
    var cash = 0, cashShare = 0.0
    /// Orders the participation cap or the book cut, and the sum of their filled / sent.
    var liquidity = 0, liquidityShare = 0.0

    /// Below this share of the size asked an order counts as cut (rounding is not a cut).
    static let tolerance = 1 - 1e-9

    /// Counts one entry that asked `wanted` units, could pay `affordable`, sent `sent` to the book
    /// (after the lot, before the cap) and filled `filled`.
    /// `sizedInUnits`: the size was a number of units (`Nu`, `risk:`), which the cash may not pay;
    /// a budget's size (`N%`, `N$`, `vol:`) is what the budget buys, fee reserved, never a cut.
    mutating func count(wanted: Double, affordable: Double, sent: Double, filled: Double, sizedInUnits: Bool) {
        let byCash = sizedInUnits && affordable < wanted * Self.tolerance, byLiquidity = filled < sent * Self.tolerance
        if byCash { cash += 1; cashShare += affordable / wanted }
        if byLiquidity { liquidity += 1; liquidityShare += filled / sent }
        // A budget's order asked what reached the book (a portfolio's target before the fee
        // reserve is not the size asked).
        if byCash || byLiquidity { orders += 1; share += filled / (sizedInUnits ? wanted : sent) }
    }

    static func + (a: OrderCuts, b: OrderCuts) -> OrderCuts {
        OrderCuts(orders: a.orders + b.orders, share: a.share + b.share, cash: a.cash + b.cash, cashShare: a.cashShare + b.cashShare,
                  liquidity: a.liquidity + b.liquidity, liquidityShare: a.liquidityShare + b.liquidityShare)
    }

    /// The run's `cutOrders` warning (nil when no order was cut), with its figures for `--json`:
    /// `cut_orders`, `avg_cut_fill_share` (filled / asked), and per cause `cash_cut_orders`,
    /// `avg_cash_fill_share`, `liquidity_cut_orders`, `avg_liquidity_fill_share` (fractions).
    var warning: RunWarning? {
        guard orders > 0 else { return nil }
        func mean(_ sum: Double, _ k: Int) -> Double { k > 0 ? sum / Double(k) : .nan }
        // A cause that cut nothing has no mean: null, not NaN (so equal warnings compare equal).
        func figure(_ sum: Double, _ k: Int) -> JSONValue { k > 0 ? .number(sum / Double(k)) : .null }
        var causes: [String] = []
        if cash > 0 { causes.append("\(cash) by cash or margin (to \(NumberText.percent(mean(cashShare, cash))) on average)") }
        if liquidity > 0 {
            causes.append("\(liquidity) by the participation cap or the book (to \(NumberText.percent(mean(liquidityShare, liquidity))) on average)")
        }
        var w = RunWarning(.cutOrders, "\(orders) entr\(orders == 1 ? "y was" : "ies were") cut below the size asked, filling "
            + "\(NumberText.percent(mean(share, orders))) of it on average: " + causes.joined(separator: ", ") + "; see fills.csv")
        w.figures = ["cut_orders": .int(orders), "avg_cut_fill_share": figure(share, orders),
                     "cash_cut_orders": .int(cash), "avg_cash_fill_share": figure(cashShare, cash),
                     "liquidity_cut_orders": .int(liquidity), "avg_liquidity_fill_share": figure(liquidityShare, liquidity)]
        return w
    }
}
