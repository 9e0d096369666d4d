/// A market-neutral long/short book (`PortfolioRules.neutral`): both legs hold the same notional,
/// m/K of the portfolio's value with m = min(longs, shorts) (`PortfolioRules` gives the rule).
extension PortfolioSimulation {
    /// Sets the row's entry and rebalance orders (a rotation's) to their leg's weight and adds an order for every other held
    /// position with a bar, on a row with an entry, when the number of longs or shorts changed
    /// since the book was last balanced, on a rebalance row, or while a held symbol had no bar to
    /// be balanced at. With a
    /// leg empty, the book holds nothing: the row's entries are dropped (counted as entries
    /// without a slot; one that reverses a position still closes it) and the other leg is closed.
    mutating func balance(_ r: Int, _ t: Int64) {
        guard rebalanceRow[r] || neutralPending || (heldCount, heldShorts) != neutralLegs || orders.contains(where: { $0.reason == .entry })
        else { return }
        if min(heldCount, heldShorts) == 0 {
            for i in orders.indices.reversed() where orders[i].reason == .entry || orders[i].reason == .rebalance {
                let j = orders[i].symbol, entry = orders[i].reason == .entry
                release(j)
                if entry { (state[j].skipped, skippedEntries) = (state[j].skipped + 1, skippedEntries + 1) }
                // A reversal's close stays (unless it is an order of its own: a limit or stop entry's).
                if ledgers[j].quantity != 0 && !(entry && orders.contains { $0.symbol == j && $0.reason == .exit }) {
                    (orders[i].weight, orders[i].reason) = (0, entry ? .exit : .rebalance)
                } else {
                    orders.remove(at: i)
                }
            }
            // Limit and stop entries working for the other leg are dropped too.
            for j in working.indices where working[j] != nil {
                working[j] = nil
                release(j)
            }
        }
        let m = Double(min(heldCount, heldShorts)), k = Double(slots)
        let long = m == 0 ? 0 : m / (k * Double(heldCount)), short = m == 0 ? 0 : -m / (k * Double(heldShorts))
        for i in orders.indices where (orders[i].reason == .entry || orders[i].reason == .rebalance) && orders[i].weight != 0 {
            orders[i].weight = orders[i].weight < 0 ? short : long
            chosen[orders[i].symbol] = true
        }
        neutralPending = false
        for j in active where state[j].held && !chosen[j] {
            guard hasBar(j, t) else { neutralPending = true; continue }
            if m == 0 { release(j) }
            orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: state[j].short ? short : long, reason: .rebalance))
        }
        for o in orders { chosen[o.symbol] = false }
        neutralLegs = (heldCount, heldShorts)
    }
}
