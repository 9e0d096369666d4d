/// The end of a run: open positions marked to their last close, the result, the warnings and
/// the debug-only ledger check.
extension PortfolioSimulation {
    mutating func finish() -> PortfolioResult {
        let n = clock.count
        for j in candles.indices where ledgers[j].trip != nil { finishOpen(j, row: n - 1) }
        _checkInvariants()
        let symbols = candles.map(\.symbol)
        var contributions = symbols.indices.map { j in
            PortfolioContribution(symbol: symbols[j], bars: candles[j].count, rowsHeld: state[j].rowsHeld, trades: 0, wins: 0,
                                  fills: 0, pnl: 0, fees: 0, spread: 0, impact: 0, traded: 0, rejected: 0,
                                  skippedEntries: state[j].skipped)
        }
        for t in trades {
            contributions[t.symbol].trades += 1
            contributions[t.symbol].pnl += t.trade.pnl
            if t.trade.pnl > 0 { contributions[t.symbol].wins += 1 }
        }
        for f in fills {
            contributions[f.symbol].fills += 1
            contributions[f.symbol].fees += f.fill.fee
            contributions[f.symbol].spread += f.fill.spreadCost
            contributions[f.symbol].impact += f.fill.impactCost
            contributions[f.symbol].traded += f.fill.notional
        }
        for x in rejected { contributions[x.symbol].rejected += 1 }
        let benchmark = Self.benchmark(candles, clock: clock, initialCash: config.initialCash)
        let accountCandles: CandleSeries
        if candles.count == 1 {
            accountCandles = candles[0]
        } else {
            let zeros = [Double](repeating: 0, count: n)
            accountCandles = CandleSeries(symbol: "portfolio", timeframe: Timeframe.infer(from: clock.time), time: clock.time,
                                          open: benchmark, high: benchmark, low: benchmark, close: benchmark, volume: zeros)
        }
        let warnings = self.warnings()
        // The symbols' estimated spreads pooled; else the first symbol's source says it.
        let estimates = ledgers.flatMap(\.liquidity.spreadEstimates)
        let spread = estimates.isEmpty ? ledgers.first?.liquidity.spreadSummary(fills: fills.count) : SpreadSummary(estimates: estimates)
        let (summary, borrow) = accountSummary()
        let account = BacktestResult(
            candles: accountCandles, initialCash: config.initialCash, cash: outCash, position: outCount.map(Double.init),
            equity: outEquity, trades: trades.map(\.trade), fills: fills.map(\.fill), rejected: rejected.map(\.order),
            ambiguousExitBars: ambiguousExitBars, warnings: warnings, positionValue: outValue, spreadEstimate: spread,
            borrowPaid: borrow, account: summary)
        return PortfolioResult(
            symbols: symbols, candles: candles, time: clock.time, initialCash: config.initialCash, cash: outCash,
            equity: outEquity, positionValue: outValue, positions: outCount, benchmark: benchmark, orders: plannedOrders,
            fills: fills, trades: trades, rejected: rejected, ambiguousExitBars: ambiguousExitBars,
            skippedEntries: skippedEntries, warnings: warnings, contributions: contributions, account: account)
    }

    /// The equal-weight buy and hold: `initialCash / symbols` per symbol, bought at its first
    /// close (cash until then), valued at its last close on every row.
    /// - Complexity: O(bars + rows).
    static func benchmark(_ candles: [CandleSeries], clock: PortfolioClock, initialCash: Double) -> [Double] {
        let n = clock.count
        guard candles.count > 1 else {
            guard let c = candles.first, let first = c.close.first, first != 0 else { return [Double](repeating: initialCash, count: n) }
            return c.close.map { initialCash * ($0 / first) }
        }
        let part = initialCash / Double(candles.count)
        var delta = [Double](repeating: 0, count: n)
        for c in candles {
            guard let first = c.close.first, first != 0 else { continue }
            var r = 0, previous = part
            for k in 0..<c.count {
                while clock.time[r] < c.time[k] { r += 1 }
                let now = part * (c.close[k] / first)
                delta[r] += now - previous
                previous = now
            }
        }
        var out = [Double](repeating: 0, count: n), level = initialCash
        for r in 0..<n {
            level += delta[r]
            out[r] = level
        }
        return out
    }

    /// What the statistics do not say, over all symbols: volume missing, heavy partial fills or
    /// rejections, recorded books that crossed themselves (`Engine.warnings` for a portfolio).
    func warnings() -> [RunWarning] {
        var out: [RunWarning] = []
        let capOn = (config.maxParticipation ?? 0) > 0
        var withoutVolume: [String] = [], anyModelUsesVolume = false
        for (j, c) in candles.enumerated() {
            let liquidityConfig = liquidityConfigs[j]
            var modelUsesVolume = false
            if case .synthetic = liquidityConfig.depth, !liquidityConfig.synthetic.usesProfile { modelUsesVolume = true }
            anyModelUsesVolume = anyModelUsesVolume || modelUsesVolume
            if (capOn || modelUsesVolume) && !c.isEmpty && !c.volume.contains(where: { $0 > 0 && $0.isFinite }) {
                withoutVolume.append(c.symbol)
            }
        }
        if !withoutVolume.isEmpty {
            var parts: [String] = []
            if capOn { parts.append("the participation cap") }
            if anyModelUsesVolume { parts.append("market impact") }
            let off = parts.joined(separator: " and ") + " \(parts.count > 1 ? "are" : "is") off"
            if candles.count == 1 {
                // A portfolio of one symbol words it as `bt run` does.
                out.append(RunWarning(.noVolume, "the candles have no volume: " + off
                    + (anyModelUsesVolume ? ", so fills pay the spread only" : "")))
            } else {
                let names = withoutVolume.prefix(5).joined(separator: ", ") + (withoutVolume.count > 5 ? ", ..." : "")
                out.append(RunWarning(.noVolume, "\(withoutVolume.count) of \(candles.count) symbols have no volume (\(names)): "
                    + off + " for them"))
            }
        }
        let capped = ledgers.reduce(0) { $0 + $1.barsWithoutVolume }
        let unpriced = ledgers.reduce(0) { $0 + $1.liquidity.fillsWithoutVolume }
        var parts: [String] = []
        if capped > 0 { parts.append("\(capped) fill bar\(capped == 1 ? "" : "s") had no volume (no participation cap there)") }
        if unpriced > 0 { parts.append("\(unpriced) fill\(unpriced == 1 ? "" : "s") had no volume in the bars before (no market impact)") }
        if !parts.isEmpty && withoutVolume.count < candles.count {
            out.append(RunWarning(.missingVolume, parts.joined(separator: "; ")))
        }
        let orders = fills.count + rejected.count
        var partial = 0, filledShare = 0.0
        for f in fills where f.fill.isPartial {
            partial += 1
            filledShare += f.fill.quantityFilled / f.fill.quantityAsked
        }
        if orders > 0, partial > 0, Double(partial) >= Engine.heavyShare * Double(orders) {
            out.append(RunWarning(.partialFills, "\(partial) of \(orders) orders filled only partly (on average "
                + "\(NumberText.percent(filledShare / Double(partial))) of the quantity asked): positions are smaller "
                + "than the sizing asks; see partial_fills, avg_position_share and fills.csv"))
        }
        if let cut = ledgers.reduce(OrderCuts(), { $0 + $1.cuts }).warning { out.append(cut) }
        if orders > 0, !rejected.isEmpty, Double(rejected.count) >= Engine.heavyShare * Double(orders) {
            let reasons = Dictionary(grouping: rejected, by: \.order.reason).mapValues(\.count)
                .sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
            out.append(RunWarning(.rejections, "\(rejected.count) of \(orders) orders were rejected (" + reasons.joined(separator: ", ") + ")"))
        }
        if unpricedEntries > 0 {
            out.append(.skippedEntries(unpricedEntries))
        }
        let unprotected = ledgers.reduce(UnsetLevels()) { $0 + $1.exits.unprotectedEntries }
        if unprotected.total > 0 {
            out.append(.unprotectedEntries(unprotected, rules: config.exits))
        }
        let unsetLevels = ledgers.reduce(UnsetLevels()) { $0 + $1.exits.unsetLevels }
        if unsetLevels.total > 0 {
            out.append(.unsetExitLevels(unsetLevels))
        }
        out += accountWarnings()
        let stale = ledgers.reduce(0) { $0 + $1.liquidity.staleLevelsDropped }
        if stale > 0 {
            out.append(RunWarning(.staleBook, "recorded books crossed themselves: \(stale) stale level\(stale == 1 ? " was" : "s were") "
                + "dropped (at a crossed or locked touch, the side set by the older event)"))
        }
        return out
    }

    // MARK: - Ledger

    /// Debug builds: traps unless `ledgerViolations` is empty. Release builds: nothing.
    func _checkInvariants() {
        #if DEBUG
        let violations = ledgerViolations()
        precondition(violations.isEmpty, "portfolio ledger: " + violations.prefix(5).joined(separator: "; "))
        #endif
    }

    /// What breaks the ledger's identities, after the run: cash and every position must equal
    /// what the fills add up to; no fill may take more than it asked or than the depth it walked;
    /// cash never negative; equity = cash + Σ position × close on every row (checked at the
    /// last); final equity = initial cash + Σ round-trip PnL. Debug builds only.
    /// - Complexity: O(fills + trades + rows + symbols).
    func ledgerViolations() -> [String] {
        var found: [String] = []
        #if DEBUG
        func near(_ a: Double, _ b: Double, scale: Double) -> Bool { abs(a - b) <= 1e-9 * max(scale, 1e-300) }
        let cashScale = max(abs(config.initialCash), abs(log.ledgerCash), abs(cash), outEquity.max() ?? 0)
        if !near(cash, log.ledgerCash, scale: cashScale) { found.append("cash \(cash) != fills' \(log.ledgerCash)") }
        let quantityScale = fills.reduce(0) { max($0, $1.fill.quantityFilled) }
        for j in candles.indices where !near(ledgers[j].quantity, ledgers[j].ledgerQuantity, scale: quantityScale) {
            found.append("\(candles[j].symbol) position \(ledgers[j].quantity) != fills' \(ledgers[j].ledgerQuantity)")
        }
        for f in fills where f.fill.quantityFilled > f.fill.quantityAsked * (1 + 1e-12) || f.fill.quantityFilled > f.fill.depthAvailable * (1 + 1e-12) {
            found.append("fill at row \(f.fill.index) took \(f.fill.quantityFilled) (asked \(f.fill.quantityAsked), depth \(f.fill.depthAvailable))")
        }
        if account?.margin != true && !config.allowShort, let r = outCash.firstIndex(where: { $0 < 0 }) {
            found.append("cash \(outCash[r]) below 0 at row \(r)")
        }
        if let last = outEquity.last {
            var equity = cash
            for j in candles.indices where ledgers[j].quantity != 0 {
                equity += value(j, ledgers[j].quantity, at: candles[j].close.last ?? .nan)
            }
            if !near(equity, last, scale: cashScale) { found.append("final equity \(last) != cash + positions at the last close \(equity)") }
            let expected = config.initialCash + trades.reduce(0) { $0 + $1.trade.pnl }
            if !near(last, expected, scale: cashScale) { found.append("final equity \(last) != initial cash + trade PnL \(expected)") }
        }
        #endif
        return found
    }
}
