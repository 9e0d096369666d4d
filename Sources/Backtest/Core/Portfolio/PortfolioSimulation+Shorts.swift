/// A long/short book (`--short`; docs/guide/screens-and-portfolios.md, "Shorts"): up to K longs
/// and K shorts, each at weight 1/K of the portfolio's value (negative for a short; rank and
/// inverse-volatility weights per leg, `assignBookWeights`). A symbol's
/// signals act as `Engine.run` reads them: a long exits on its exit or a short entry, a short on
/// its short exit or an entry, and an entry of the other side reverses it, competing for a slot
/// of that side. Entries compete for their side's free slots by rank: longs the highest first,
/// shorts the lowest first (NaN last, ties by symbol), as a long/short screen ranks them.
extension PortfolioSimulation {
    /// Fills `orders` with the row's exits, reversals, entries and (on rebalance rows) the
    /// held positions restored to their weights.
    mutating func planBook(_ r: Int, _ t: Int64) {
        let (shortEntries, shortExits) = shortEvents!
        if entryPrices != nil { meetWorkingEntries(r) }
        // Exits: a long's exit or short entry; a short's short exit or entry (a working entry's slot is not a position).
        for (events, closesShort) in [(exits, false), (shortEntries, false), (shortExits, true), (entries, true)] {
            for e in events.range(r) {
                let j = Int(events.symbol[e])
                guard state[j].held, state[j].short == closesShort, !ledgers[j].closing, !reversing[j],
                      working.isEmpty || working[j] == nil || ledgers[j].quantity != 0 else { continue }
                release(j)
                reversing[j] = true
                orders.append(PendingOrder(symbol: j, bar: Int(events.bar[e]) + (nextOpen ? 1 : 0), weight: 0, reason: .exit))
            }
        }
        let weight = 1.0 / Double(slots)
        // A symbol with an entry of each side on the row takes neither (as `Engine.run`).
        var both = Set<Int>()
        if !entries.range(r).isEmpty && !shortEntries.range(r).isEmpty {
            let longs = Set(entries.range(r).map { Int(entries.symbol[$0]) })
            both = Set(shortEntries.range(r).map { Int(shortEntries.symbol[$0]) }).intersection(longs)
        }
        for (events, short) in [(entries, false), (shortEntries, true)] {
            candidates.removeAll(keepingCapacity: true)
            for e in events.range(r) {
                let j = Int(events.symbol[e]), k = Int(events.bar[e])
                guard both.isEmpty || !both.contains(j) else { continue }
                if !stack.isEmpty, state[j].held, state[j].short == short, ledgers[j].quantity != 0, (ledgers[j].quantity < 0) == short,
                   !ledgers[j].closing, stack[j] < config.entries.pyramid {
                    // `--pyramid`: an entry of the position's side adds a weight to its target.
                    stack[j] += 1
                    advance(j, to: t)
                    orders.append(PendingOrder(symbol: j, bar: k + (nextOpen ? 1 : 0), weight: short ? -weight : weight, reason: .rebalance))
                    continue
                }
                // Flat, or closed by this row's exit (a reversal); a position being closed stays out.
                guard !state[j].held, ledgers[j].quantity == 0 || (reversing[j] && (ledgers[j].quantity < 0) != short) else { continue }
                if !config.allowUnprotected, let exit = ledgers[j].exits.undefinedExit(at: k) {
                    ledgers[j].exits.countUnprotected(exit)
                    continue
                }
                // Shorts rank lowest first: negate the rank (NaN stays last).
                let rank = ranks[j]?[k] ?? .nan, sigma = volatility?[j][k] ?? .nan
                // Inverse-vol cannot size a symbol without a volatility: it is not a candidate.
                guard volatility == nil || (sigma.isFinite && sigma > 0) else { state[j].skipped += 1; skippedEntries += 1; continue }
                candidates.append(Candidate(symbol: j, bar: k + (nextOpen ? 1 : 0), rank: short ? -rank : rank, sigma: sigma))
            }
            let admitted = admit(free: max(0, slots - (short ? heldShorts : heldCount)), t, short: short)  // sorts `candidates`
            for c in candidates.prefix(admitted) {
                // A market entry takes the place of the symbol's exit on this row: one order closes and
                // reverses. A limit or stop entry is placed beside the exit, which closes at market (`bt run`'s).
                if entryPrices == nil { orders.removeAll { $0.symbol == c.symbol && $0.reason == .exit } }
                orders.append(PendingOrder(symbol: c.symbol, bar: c.bar, weight: short ? -weight : weight, reason: .entry))
            }
        }
        for o in orders { reversing[o.symbol] = false }
        if rules.neutral {
            balance(r, t)
        } else if rebalanceRow[r] {
            for o in orders { chosen[o.symbol] = true }
            for j in active where state[j].held && hasBar(j, t) && !chosen[j] {
                orders.append(PendingOrder(symbol: j, bar: state[j].cursor, weight: state[j].short ? -weight : weight, reason: .rebalance))
            }
            for o in orders { chosen[o.symbol] = false }
        }
        if rules.weighting != .equal && orders.contains(where: { $0.weight != 0 }) { assignBookWeights(t) }
    }

    /// Rank or inverse-volatility weights of a long/short book's entries and rebalances: each leg
    /// weighed over its own members (held, entering included) as a long-only book weighs its
    /// book, shorts ranked lowest first, so the short leg mirrors the long one (the i-th lowest
    /// short −(K − i)/(K (K + 1) / 2)); in a neutral book each leg's weights are scaled to sum to
    /// its m/K. A member without a volatility keeps its position (no order).
    mutating func assignBookWeights(_ t: Int64) {
        let k = Double(slots), m = Double(min(heldCount, heldShorts))
        for short in [false, true] {
            candidates.removeAll(keepingCapacity: true)
            for j in active where state[j].held && state[j].short == short { candidates.append(member(j, t)) }
            for o in orders where o.weight != 0 && (o.weight < 0) == short && !state[o.symbol].inActive {
                candidates.append(member(o.symbol, t))
            }
            guard !candidates.isEmpty else { continue }
            if rules.weighting == .rank {
                if short { for i in candidates.indices { candidates[i].rank = -candidates[i].rank } }
                sortByRank(&candidates)
                for (i, c) in candidates.enumerated() { weightOf[c.symbol] = Self.rankWeight(i, slots: slots) }
            } else {
                var sum = 0.0, valid = 0
                for c in candidates where c.sigma.isFinite && c.sigma > 0 { sum += 1 / c.sigma; valid += 1 }
                for c in candidates where c.sigma.isFinite && c.sigma > 0 { weightOf[c.symbol] = (1 / c.sigma) / sum * (Double(valid) / k) }
            }
            if rules.neutral {
                var sum = 0.0
                for c in candidates where weightOf[c.symbol].isFinite { sum += weightOf[c.symbol] }
                for c in candidates { weightOf[c.symbol] *= sum > 0 ? m / k / sum : 0 }
            }
            for i in orders.indices where orders[i].weight != 0 && (orders[i].weight < 0) == short {
                orders[i].weight = short ? -weightOf[orders[i].symbol] : weightOf[orders[i].symbol]
            }
            for c in candidates { weightOf[c.symbol] = .nan }
        }
        orders.removeAll { $0.weight.isNaN }
    }

    /// Runs a long/short book's entry or rebalance on symbol `j` at `point`: a position of the
    /// other side is closed first (a reversal, sized from the equity after it, as `Engine.run`
    /// reverses; in a neutral book from the row's value, as every order), then the position moves
    /// to its target, opening or adding through the opening limit (`openingLimit`) or trimming.
    mutating func executeBookOrder(_ o: PendingOrder, at point: FillPoint, value: Double, t: Int64) {
        let j = o.symbol, short = o.weight < 0, p = point.reference
        let reversed = ledgers[j].quantity != 0 && (ledgers[j].quantity < 0) != short
        var value = value
        if reversed {
            ledgers[j].decrease(full: true, at: point, kind: mode.isRotation ? .rebalance : .signal, cash: &cash, recorder: &log)
            guard ledgers[j].quantity == 0 else { return }
            updateActive(j)
        }
        if reversed && !rules.neutral {  // a neutral book sizes every order of the row from the one value
            value = cash
            for k in active where ledgers[k].quantity != 0 {
                let c = state[k].cursor
                value += self.value(k, ledgers[k].quantity, at: hasBar(k, t) ? reference(k, c) : candles[k].close[c - 1])
            }
        }
        let sign = short ? -1.0 : 1.0
        let (delta, budget) = buyDelta(j, abs(o.weight), value: value, price: p, position: sign * ledgers[j].quantity,
                                       decisionBar: nextOpen ? o.bar - 1 : o.bar, budgeted: short)
        guard !delta.isNaN else { unpricedEntries += o.reason == .entry ? 1 : 0; return }
        guard abs(delta) > 1e-12 else { return }
        if delta > 0 {
            let (limit, positive) = openingLimit(j, at: point, value: value, budget: budget, t: t, atOpen: false, short: short)
            ledgers[j].increase(short ? .short : .long, wanted: delta, limit: limit, valuePositive: positive, at: point,
                                signalBar: nextOpen ? point.bar - 1 : point.bar, atOpen: nextOpen, cash: &cash, recorder: &log)
            updateActive(j)
        } else {
            ledgers[j].decrease(full: false, wanted: -delta, at: point, kind: .rebalance, cash: &cash, recorder: &log)
        }
    }
}
