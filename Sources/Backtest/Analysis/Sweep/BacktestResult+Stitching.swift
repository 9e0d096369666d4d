import BacktestCore

extension BacktestResult {
    /// Consecutive results (walk-forward folds) joined into one: bars, ledger, trades and fills
    /// in order, bar indexes shifted to the joined series, initial cash of the first part.
    /// Each part should start with the previous part's final equity as its initial cash. The
    /// borrow paid is the parts' sum (nil when no part charged borrow); a margin account's
    /// funding, interest and liquidations are summed, its margin ratio the smallest, and it
    /// stopped at the first part's bar that did.
    public static func stitched(_ parts: [BacktestResult]) -> BacktestResult? {
        guard let first = parts.first else { return nil }
        var candles = CandleSeries(symbol: first.candles.symbol, timeframe: first.candles.timeframe)
        var cash: [Double] = [], position: [Double] = [], equity: [Double] = []
        var trades: [Trade] = [], fills: [Fill] = [], rejected: [RejectedOrder] = []
        var ambiguous = 0
        var values: [Double]? = parts.allSatisfy { $0.positionValue != nil } ? [] : nil
        for part in parts {
            let offset = candles.count
            let c = part.candles
            candles.time += c.time; candles.open += c.open; candles.high += c.high
            candles.low += c.low; candles.close += c.close; candles.volume += c.volume
            cash += part.cash; position += part.position; equity += part.equity
            trades += part.trades.map { var t = $0; t.entryIndex += offset; t.exitIndex += offset; return t }
            fills += part.fills.map { var f = $0; f.index += offset; return f }
            rejected += part.rejected.map { var r = $0; r.index += offset; return r }
            ambiguous += part.ambiguousExitBars
            if let v = part.positionValue { values? += v }
        }
        let borrow = parts.compactMap(\.borrowPaid)
        var account = first.account
        if var a = account {
            var offset = first.candles.count
            for part in parts.dropFirst() {
                if let p = part.account {
                    a.fundingPaid += p.fundingPaid
                    a.fundingFlows += p.fundingFlows.map { FundingFlow(bar: $0.bar + offset, amount: $0.amount) }
                    a.interestPaid += p.interestPaid
                    a.liquidations += p.liquidations
                    a.minMarginRatio = [a.minMarginRatio, p.minMarginRatio].filter { !$0.isNaN }.min() ?? .nan
                    if a.stoppedAt == nil, let bar = p.stoppedAt { a.stoppedAt = bar + offset }
                }
                offset += part.candles.count
            }
            account = a
        }
        return BacktestResult(candles: candles, initialCash: first.initialCash, cash: cash, position: position,
                              equity: equity, trades: trades, fills: fills, rejected: rejected,
                              ambiguousExitBars: ambiguous, positionValue: values,
                              borrowPaid: borrow.isEmpty ? nil : borrow.reduce(0, +), account: account)
    }
}
